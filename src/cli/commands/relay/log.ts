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
      about: `The number before each entry is what \`relay revert <index>\` takes (1 = newest). Damaged
record files are named on stderr.
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
    const { scanCommitted } = await import('../../../engine/patch/state.js');
    const { describeStats } = await import('../../../engine/patch/stats.js');
    const scanned = scanCommitted(root);
    const records = scanned.records.slice(0, limit);
    if (options.json) {
      printJson(
        records.map((r, i) => ({
          index: i + 1,
          uuid: r.uuid,
          createdAt: r.createdAt,
          source: r.source,
          gitCommitMsg: r.gitCommitMsg ?? null,
          promptSummary: r.promptSummary ?? null,
          files: r.files,
          revertOf: r.revertOf ?? null,
          revertedBy: r.revertedBy ?? null,
        })),
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
    for (const damaged of scanned.damaged) printError(`! ${damaged.code}: ${damaged.reason}`);
  });
}
