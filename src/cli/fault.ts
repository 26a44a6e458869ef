import type { FaultPoint, PatchHooks } from '../engine/patch/transaction.js';

/**
 * Test hook: RELAY_FAULT=<point> makes the process kill itself with SIGKILL at that point of a
 * transaction, so crash recovery can be tested against a real dead process.
 */
export function faultHook(): PatchHooks['fault'] {
  const point = process.env.RELAY_FAULT;
  if (!point) return undefined;
  return (at: FaultPoint) => {
    if (at === point) process.kill(process.pid, 'SIGKILL');
  };
}
