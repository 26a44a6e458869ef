// `relay revert [target]`: undoes a transaction as a new one.
import type { Command } from 'commander';
import { canAsk, confirm, EXIT, print, printError, printJson, withHelp } from '../../io.js';
import { requireProject } from '../../project.js';
import { recoverFirst } from '../../recover.js';

interface RevertOptions {
  readonly yes?: boolean;
  readonly json?: boolean;
}

/** Registers `relay revert`. */
export function registerRevert(program: Command): void {
  withHelp(
    program
      .command('revert')
      .description('undo a transaction (uuid, or its number in `relay log`; default 1 = newest) as a new transaction')
      .argument('[target]', 'uuid, uuid prefix, or log index', '1')
      .option('-y, --yes', 'do not ask for confirmation')
      .option('--json', 'print one JSON result object (needs --yes: a script cannot answer the question)'),
    {
      about: `The files go back to what they were before the transaction, as a new transaction of their
own (listed in \`relay log\`). A file changed since then is merged three ways, keeping the
later edits; if they overlap the change, nothing is reverted and the file is named.`,
      examples: ['relay revert            (the newest transaction, after a confirmation)', 'relay revert 3 --yes', 'relay revert 1f2e3d4c --yes --json'],
      exitCodes: { 0: 'reverted', 1: 'not reverted (not found, already reverted, conflict, not confirmed, not in a Relay project; the tree is as before)' },
    },
  ).action(async (target: string, options: RevertOptions) => {
    const rejected = (uuid: string | null, error: { code: string; message: string }) => ({ status: 'rejected', uuid, recovered: [], files: [], error });
    const root = requireProject(program, options.json ? { json: (error) => rejected(null, error) } : {});
    await recoverFirst(root);
    const { loadRelayConfig } = await import('../../../engine/patch/config.js');
    const config = loadRelayConfig(root);
    if (!config.ok) {
      if (options.json) printJson(rejected(null, config.error));
      else printError(`✘ ${config.error.message}`);
      process.exitCode = EXIT.failed;
      return;
    }
    const { findTransaction, revertTransaction } = await import('../../../engine/patch/revert.js');
    const { describeStats } = await import('../../../engine/patch/stats.js');
    const found = findTransaction(root, target);
    if (found.ok && !options.yes) {
      const r = found.value;
      // --json is for scripts, which cannot answer the question: they must say --yes.
      const asked = !options.json && canAsk();
      if (asked) print(`Revert ${r.uuid} (${r.gitCommitMsg ?? r.promptSummary ?? 'no message'}): ${describeStats(r.files)}`);
      if (!asked || !(await confirm('Revert it?'))) {
        const message = asked ? 'Not reverted: you declined.' : `Not reverted: reverting ${r.uuid} needs a confirmation; pass --yes to revert without a terminal prompt.`;
        if (options.json) printJson(rejected(r.uuid, { code: 'NOT_CONFIRMED', message }));
        else printError(`✘ ${message}`);
        process.exitCode = EXIT.failed;
        return;
      }
    }
    const { outcomeJson, printOutcome, terminalDecider } = await import('../../patch-output.js');
    const { testHooks } = await import('../../fault.js');
    const outcome = await revertTransaction({ root, target, decide: terminalDecider(true) }, testHooks());
    if (options.json) printJson(outcomeJson(outcome));
    else printOutcome(outcome, 'Reverted with', 'Not reverted');
    process.exitCode = outcome.status === 'applied' ? EXIT.ok : EXIT.failed;
  });
}
