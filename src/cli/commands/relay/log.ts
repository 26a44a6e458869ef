// `relay log`: the project's applied transactions, newest first.
import type { Command } from 'commander';
import { print, printError, printJson, UsageError, withHelp } from '../../io.js';
import { requireProject } from '../../project.js';
import { recoverFirst } from '../../recover.js';

interface LogOptions {
  readonly json?: boolean;
  readonly limit?: string;
}

function changeMark(change: 'create' | 'modify' | 'delete'): string {
  return change === 'create' ? 'A' : change === 'delete' ? 'D' : 'M';
}

/** Registers `relay log`. */
export function registerLog(program: Command): void {
  withHelp(
    program
      .command('log')
      .description('list applied transactions, newest first')
      .option('--json', 'print JSON')
      .option('-n, --limit <n>', 'show at most n transactions'),
    {
      about: `The number before each entry is what \`relay revert <index>\` takes (1 = newest). Transactions
that crash recovery rolled back (the apply was interrupted) are listed after them, unnumbered.
Damaged record files are named on stderr.
--json prints an array of { index, uuid, createdAt, source, gitCommitMsg, promptSummary,
  files: [{ path, change, added, removed }], revertOf, revertedBy }.`,
      examples: ['relay log', 'relay log -n 5', 'relay log --json | jq ".[0].files"'],
      exitCodes: { 0: 'listed (an empty list says so)', 1: 'not in a Relay project' },
    },
  ).action(async (options: LogOptions) => {
    const limit = options.limit ? Number(options.limit) : Infinity;
    if (Number.isNaN(limit) || limit < 1) throw new UsageError('--limit must be a positive number');
    const root = requireProject(program);
    await recoverFirst(root);
    const { scanCommitted } = await import('../../../engine/records/transactions.js');
    const { summariseTransaction, transactionTitle } = await import('../../../engine/records/transaction-summary.js');
    const { describeStats } = await import('../../../engine/patch/stats.js');
    const scanned = scanCommitted(root);
    const records = scanned.records.slice(0, limit);
    if (options.json) {
      printJson(
        records.map((r, i) => {
          const { uuid, createdAt, source, gitCommitMsg, promptSummary, files, revertOf, revertedBy } = summariseTransaction(r);
          return { index: i + 1, uuid, createdAt, source, gitCommitMsg, promptSummary, files, revertOf, revertedBy };
        }),
      );
      return;
    }
    if (records.length === 0) print('No transactions yet: answers you apply (`relay apply`, `relay watch`) are listed here.');
    records.forEach((r, i) => {
      const state = r.revertedBy ? ' [reverted]' : r.revertOf ? ` [revert of ${r.revertOf.slice(0, 8)}]` : '';
      print(`${String(i + 1).padStart(3)}. ${r.uuid}  ${r.createdAt}${state}`);
      print(`     ${r.gitCommitMsg ?? r.promptSummary ?? '(no message)'} — ${describeStats(r.files)}`);
      r.files.forEach((f) => print(`       ${changeMark(f.change)} ${f.path} +${f.added}/-${f.removed}`));
    });
    // Not transactions of the log (never applied, nothing to revert), but worth knowing about.
    const rolledBack = scanned.rolledBack.slice(0, limit);
    if (rolledBack.length > 0) print(`\nRolled back after an interrupted apply (never applied, so not numbered and not revertable):`);
    for (const r of rolledBack) {
      const restored = r.recovered?.restored.length ?? 0;
      print(`     ${r.uuid}  ${r.recovered?.at ?? r.createdAt}  ${transactionTitle(r)} — ${restored} file${restored === 1 ? '' : 's'} put back`);
    }
    for (const damaged of scanned.damaged) printError(`! ${damaged.code}: ${damaged.reason}`);
  });
}
