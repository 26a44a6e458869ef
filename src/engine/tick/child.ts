// The one way a tick starts a process (the Claude CLI, a verification command): execa with an
// argv array and no shell, in a process group of its own. Killing only the child is not enough:
// the tools it started (a Bash command, a test runner's workers, a dev server) would outlive the
// tick, keep changing the repository after the judge looked, and, when they hold the child's
// output pipes, keep the tick waiting. So the whole group is signalled: on timeout, on cancel,
// and as soon as the child itself exits (a finished step leaves nothing running behind it).
import { execa } from 'execa';

/** One process to run. */
export interface ChildRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment of the child; nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed. Absent: stdin is closed from the start. */
  readonly input?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Output kept per stream (and for the interleaved `all`). */
  readonly maxBuffer: number;
}

/** How the child ended, with what it printed (stdout, stderr, and both interleaved). */
export type ChildOutcome =
  | { readonly kind: 'exited'; readonly exitCode: number; readonly stdout: string; readonly stderr: string; readonly all: string }
  | { readonly kind: 'signalled' | 'timed-out' | 'cancelled'; readonly signal: string | null; readonly stdout: string; readonly stderr: string; readonly all: string }
  | { readonly kind: 'spawn-failed'; readonly message: string };

/** How long the group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 2_000;

/** Signals a whole process group, falling back to the one pid. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs one child to its end; never throws for the child's own failures. */
export async function runChild(request: ChildRequest): Promise<ChildOutcome> {
  if (request.signal?.aborted) return { kind: 'cancelled', signal: null, stdout: '', stderr: '', all: '' };
  const child = execa(request.command, [...request.args], {
    cwd: request.cwd,
    env: { ...request.env },
    extendEnv: false,
    shell: false,
    reject: false,
    detached: true,
    windowsHide: true,
    all: true,
    maxBuffer: request.maxBuffer,
    stripFinalNewline: false,
    ...(request.input === undefined ? { stdin: 'ignore' as const } : { input: request.input }),
  });
  const pid = child.pid;
  let stopped: 'timed-out' | 'cancelled' | null = null;
  let terminated = false;
  const terminateGroup = (): void => {
    if (pid === undefined || terminated) return;
    terminated = true;
    killGroup(pid, 'SIGTERM');
    // Unref'd: it never holds the runner open, and it reaps whatever ignored SIGTERM.
    setTimeout(() => {
      if (groupAlive(pid)) killGroup(pid, 'SIGKILL');
    }, KILL_GRACE_MS).unref();
  };
  const stop = (why: 'timed-out' | 'cancelled'): void => {
    stopped ??= why;
    terminateGroup();
  };
  const timer = setTimeout(() => stop('timed-out'), Math.max(1, request.timeoutMs));
  const onAbort = (): void => stop('cancelled');
  request.signal?.addEventListener('abort', onAbort, { once: true });
  // The child is done: whatever it left running in its group goes too.
  child.once('exit', terminateGroup);
  try {
    const result = await child;
    const stdout = String(result.stdout ?? '');
    const stderr = String(result.stderr ?? '');
    const all = String(result.all ?? '');
    if (stopped) return { kind: stopped, signal: result.signal ?? null, stdout, stderr, all };
    if (typeof result.exitCode === 'number') return { kind: 'exited', exitCode: result.exitCode, stdout, stderr, all };
    if (result.signal) return { kind: 'signalled', signal: result.signal, stdout, stderr, all };
    return { kind: 'spawn-failed', message: result.originalMessage || result.shortMessage || 'the process could not be started' };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}
