// Watching real child processes from a test: whether one still runs, and the pid a fake agent or
// script wrote down for the test to find.
import { existsSync, readFileSync } from 'node:fs';
import { until, type WaitOptions } from './wait.js';

/** True while `pid` runs; a zombie (exited, not yet reaped by its parent) counts as ended. */
export function alive(pid: number): boolean {
  try {
    if (/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return false;
  } catch {
    // No /proc (macOS), or the process is gone: signal 0 decides.
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid a process wrote to `file`, once it has written one (the file may appear empty first). */
export function pidWrittenTo(file: string, options: WaitOptions = {}): Promise<number> {
  return until(`a pid in ${file}`, () => {
    const text = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
    return /^\d+$/.test(text) ? Number(text) : undefined;
  }, options);
}

/** Resolves once `pid` has ended (killed, or exited). */
export function ended(pid: number, options: WaitOptions = {}): Promise<true> {
  return until(`process ${pid} to end`, () => !alive(pid), options);
}
