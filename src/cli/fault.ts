import type { FaultPoint, PatchHooks } from '../engine/patch/transaction.js';
import { failingIo, type WriteIo } from '../engine/fs/write-io.js';

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

/**
 * Test hook: RELAY_IO_FAULT=<ERRNO>@<n> makes the n-th file-system write step of the command fail
 * with that errno (ENOSPC, EROFS, EACCES, EIO), as a full or read-only disk would; `+` after n
 * keeps failing every later step too. The fault harness walks n over every step.
 */
function ioHook(): WriteIo | undefined {
  const spec = /^([A-Z]+)@(\d+)(\+?)$/.exec(process.env.RELAY_IO_FAULT ?? '');
  if (!spec) return undefined;
  return failingIo({
    code: spec[1]!,
    failAt: Number(spec[2]),
    sticky: spec[3] === '+',
    onFault: (fault) => process.stderr.write(`[RELAY_IO_FAULT] step ${fault.step}: ${fault.call}\n`),
  });
}

/** The test hooks of this process (none unless the RELAY_FAULT / RELAY_IO_FAULT variables are set). */
export function testHooks(): PatchHooks {
  const fault = faultHook();
  const io = ioHook();
  return { ...(fault ? { fault } : {}), ...(io ? { io } : {}) };
}
