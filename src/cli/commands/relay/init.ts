// `relay init`: makes the current folder a Relay project.
import path from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE, STATE_DIR } from '../../../engine/patch/names.js';
import { EXIT, print, printError, UsageError, withHelp } from '../../io.js';
import { startDir } from '../../project.js';

interface InitOptions {
  readonly projectId?: string;
  readonly linter?: string;
}

/** Registers `relay init`. */
export function registerInit(program: Command): void {
  withHelp(
    program
      .command('init')
      .description(`create ${CONFIG_FILE} and ${STATE_DIR}/ in the current project`)
      .option('--project-id <id>', 'the id assistants must put in their answers (default: the folder name)')
      .option('--linter <command>', 'a linter to run after each patch, e.g. "npx tsc --noEmit" (run without a shell)'),
    {
      about: `Writes ${CONFIG_FILE} with defaults for everything (no linter, no pre/post command unless
--linter is given), creates ${STATE_DIR}/ and adds it to .gitignore. Changes nothing when
${CONFIG_FILE} already exists.`,
      examples: ['relay init', 'relay init --project-id shop --linter "npx tsc --noEmit"'],
      exitCodes: { 0: 'done (or already set up)', 1: 'the existing config is invalid' },
    },
  ).action(async (options: InitOptions) => {
    const root = startDir(program);
    const { existsSync } = await import('node:fs');
    const { loadRelayConfig } = await import('../../../engine/patch/config.js');
    const { gitInternalRoot } = await import('../../../engine/fs/protected.js');
    const gitOwned = gitInternalRoot(root);
    if (gitOwned !== null) {
      printError(`✘ ROOT_INSIDE_GIT: ${gitOwned}`);
      process.exitCode = EXIT.failed;
      return;
    }
    if (existsSync(path.join(root, CONFIG_FILE))) {
      const existing = loadRelayConfig(root);
      print(existing.ok ? `${CONFIG_FILE} already exists (projectId: ${existing.value.projectId}); nothing changed.` : `${CONFIG_FILE} already exists but is invalid:\n${existing.error.message}`);
      process.exitCode = existing.ok ? EXIT.ok : EXIT.failed;
      return;
    }
    const { PROJECT_ID_PATTERN, initProject, suggestLinter } = await import('../../../engine/patch/init.js');
    const { toArgv } = await import('../../../engine/patch/argv.js');
    const projectId = (options.projectId ?? path.basename(root)).trim();
    if (!PROJECT_ID_PATTERN.test(projectId)) throw new UsageError(`--project-id must be letters, digits, ".", "_" or "-": ${JSON.stringify(projectId)}`);
    const linterArgv = options.linter === undefined ? null : toArgv(options.linter);
    if (linterArgv && !linterArgv.ok) throw new UsageError(`--linter: ${linterArgv.error.message}`);
    const { ignored } = initProject(root, { projectId, ...(options.linter ? { linter: options.linter } : {}) });
    print(`✔ Created ${CONFIG_FILE} (projectId: ${projectId})${ignored ? ` and added ${STATE_DIR}/ to .gitignore` : ''}.`);
    const suggestion = suggestLinter(root);
    if (!options.linter && suggestion) print(`  Tip: to check every patch with a linter, run \`relay init\` with --linter "${suggestion}" or set patch.linter in ${CONFIG_FILE}.`);
    print('  Next: `relay prompt` prints the instructions to give your assistant; `relay watch` applies answers you copy.');
  });
}
