// `relais init`: writes relais.config.json and the relais/ workspace.
import type { Command } from 'commander';
import { EXIT, print, printError, withHelp } from '../../io.js';
import { rootOf } from './shared.js';

/** Registers `relais init`. */
export function registerInit(program: Command): void {
  withHelp(program.command('init').description('write relais.config.json and the relais/ workspace (schemas, prompts, fixture list, ignore rules); existing files are kept'), {
    about: `Run it at the repository root. The verification commands written are the project's own: for a
JavaScript project, its lint, typecheck and test scripts run with its package manager (from
package.json's packageManager field or its lockfile: npm, pnpm, yarn or bun); otherwise none,
to be listed by you in verification.templates.`,
    examples: ['relais init', 'relais -C ~/code/shop init'],
    exitCodes: { 0: 'written (or kept)', 1: 'the existing relais.config.json is invalid' },
  }).action(async () => {
    const { initWorkspace } = await import('../../../engine/tick/index.js');
    const result = initWorkspace(rootOf(program));
    if (!result.ok) {
      printError(`✘ ${result.error.message}`);
      process.exitCode = EXIT.failed;
      return;
    }
    for (const file of result.value.created) print(`✔ created ${file}`);
    for (const file of result.value.kept) print(`  kept ${file}`);
    const found = result.value.verification;
    if (found && found.templates.length > 0) {
      print(`\nVerification commands (${found.manager}, from ${found.evidence}): ${found.templates.map((t) => `${t.id} = ${[t.cmd, ...t.args].join(' ')}`).join('; ')}.`);
    } else if (found) {
      print(`\nNo verification commands were found${found.manager ? ` (package.json has no lint, typecheck or test script)` : ' (no package.json)'}: list your checks in verification.templates (cmd + args).`);
    }
    print('\nNext: set project.goal in relais.config.json, point claude_code_cli.command at your Claude CLI if it is not on PATH,');
    print('then commit: git add relais.config.json relais && git commit -m "Add relais"   and run `relais doctor`.');
  });
}
