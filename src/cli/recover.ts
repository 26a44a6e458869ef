import { printError } from './io.js';
import { printRecoveries } from './patch-output.js';

/**
 * Rolls back what a crashed transaction left behind before a command runs, saying so. The
 * transaction engine (and what it loads) is only brought in when a pending record exists.
 */
export async function recoverFirst(root: string): Promise<void> {
  const { needsRecovery } = await import('../engine/patch/state.js');
  if (!needsRecovery(root)) return;
  const { recoverPending } = await import('../engine/patch/transaction.js');
  const recovered = recoverPending(root);
  if (Array.isArray(recovered)) printRecoveries(recovered);
  else if ('unsafe' in recovered) printError(`! ${recovered.unsafe.message}`);
}
