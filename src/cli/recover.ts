import { printError } from './io.js';
import { printRecoveries } from './patch-output.js';

/**
 * Finishes what a crashed command left behind before a command runs (rolls back interrupted
 * transactions, finishes an interrupted `relay git commit`, sweeps leftovers), saying so. The
 * transaction engine (and what it loads) is only brought in when there is something to do.
 */
export async function recoverFirst(root: string): Promise<void> {
  const { needsRecovery } = await import('../engine/patch/state.js');
  if (!needsRecovery(root)) return;
  const { recoverPending } = await import('../engine/patch/transaction.js');
  const { testHooks } = await import('./fault.js');
  const report = await recoverPending(root, testHooks());
  if ('busy' in report) return; // the running process recovers its own; reading stays possible
  printRecoveries(report.recovered);
  if (report.gitCommit) printError(`! ${report.gitCommit}`);
  for (const problem of report.problems) printError(`! ${problem.message}`);
}
