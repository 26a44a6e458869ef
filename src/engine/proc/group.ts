// Ending a child together with everything it started. On POSIX the child leads a process group of
// its own (it is spawned detached), so one signal to -pid reaches the tools it started too: a test
// runner's workers, a linter's threads, a dev server an agent left behind. Windows has no groups a
// signal can reach: `taskkill /T /F` ends the whole tree at once (there is no gentler step there,
// which is also what execa and Node do for a kill on Windows).
import { spawn } from 'node:child_process';

/** How long a group gets between SIGTERM and SIGKILL. */
export const DEFAULT_GRACE_MS = 2_000;

/** True when the group led by `pid` still has a live member (POSIX); on Windows whether the pid is alive. */
export function groupAlive(pid: number): boolean {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Signals the group led by `pid`. `leaderRunning` allows falling back to the one pid when the group
 * cannot be signalled; once the leader has exited its pid may belong to someone else, so then only
 * the group (whose id stays reserved while any member lives) is signalled.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals, leaderRunning: boolean): void {
  if (process.platform === 'win32') {
    killTreeWindows(pid);
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    if (!leaderRunning) return;
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function killTreeWindows(pid: number): void {
  try {
    const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true, shell: false });
    killer.on('error', () => undefined);
    killer.unref();
  } catch {
    // taskkill missing: nothing else can end a tree here.
  }
}

/**
 * Ends a group: SIGTERM now, SIGKILL after `graceMs` to whatever is still alive. The second step
 * runs on an unref'd timer, so it never keeps the process that started the child alive.
 */
export function terminateGroup(pid: number, options: { readonly graceMs: number; readonly leaderRunning: () => boolean }): void {
  signalGroup(pid, 'SIGTERM', options.leaderRunning());
  if (process.platform === 'win32') return;
  setTimeout(() => {
    if (groupAlive(pid)) signalGroup(pid, 'SIGKILL', options.leaderRunning());
  }, options.graceMs).unref();
}
