// `relay git commit`: commits the newest transaction's files with its message.
import type { Command } from 'commander';
import { confirm, EXIT, print, printError, withHelp } from '../../io.js';
import { requireProject } from '../../project.js';
import { recoverFirst } from '../../recover.js';

/** Registers `relay git` and its `commit` subcommand. */
export function registerGit(program: Command): void {
  const gitCommand = withHelp(program.command('git').description('git helpers (see `relay git commit --help`)'), {
    examples: ['relay git commit', 'relay git commit --yes'],
    exitCodes: { 0: 'done', 1: 'the git helper failed' },
  });
  withHelp(gitCommand.command('commit').description("commit the latest transaction's files with its gitCommitMsg").option('-y, --yes', 'do not ask for confirmation'), {
    about: `Stages and commits only the files the newest transaction of \`relay log\` touched (other
changes in the work tree stay uncommitted), with its gitCommitMsg as the message. The author
and committer are git's own: user.name / user.email, or GIT_AUTHOR_* / GIT_COMMITTER_*.`,
    examples: ['relay git commit', 'relay git commit --yes'],
    exitCodes: { 0: 'committed', 1: 'not a git repository, no transaction, nothing to commit, not confirmed, not in a Relay project, or git failed' },
  }).action(async (options: { yes?: boolean }) => {
    const root = requireProject(program);
    await recoverFirst(root);
    const { commitPlan, planLatestCommit } = await import('../../../engine/patch/commit.js');
    const plan = await planLatestCommit(root);
    if (!plan.ok) {
      printError(`✘ ${plan.error.message}`);
      process.exitCode = EXIT.failed;
      return;
    }
    const { uuid, message, paths } = plan.value;
    if (!options.yes) {
      print(`Commit ${paths.length} file(s) of ${uuid} as "${message}"`);
      if (!(await confirm('Commit?'))) {
        printError('Not committed. (Pass --yes to commit without a terminal prompt.)');
        process.exitCode = EXIT.failed;
        return;
      }
    }
    const { testHooks } = await import('../../fault.js');
    const committed = await commitPlan(root, plan.value, testHooks());
    if (!committed.ok) {
      printError(`✘ ${committed.error.message}`);
      process.exitCode = EXIT.failed;
      return;
    }
    const { printRecoveries } = await import('../../patch-output.js');
    printRecoveries(committed.value.recovered);
    for (const note of committed.value.notes) printError(`! ${note}`);
    print(`✔ Committed ${committed.value.sha.slice(0, 10)}: ${message}`);
  });
}
