import { StringDecoder } from 'node:string_decoder';
import { execa } from 'execa';

/** One agent CLI invocation: argv only, never a shell. */
export interface SpawnRequest {
  /** Absolute path of the program (see locate.ts). */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The complete environment of the child; nothing else is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** Written to stdin, which is then closed. Absent: stdin is closed from the start. */
  readonly input?: string;
  readonly timeoutMs: number;
  /** Aborting it kills the child and its process group. */
  readonly signal?: AbortSignal;
  readonly onStdout?: (text: string) => void;
  readonly onStderr?: (text: string) => void;
}

/** How a child process ended. */
export type SpawnOutcome =
  | { readonly kind: 'exited'; readonly exitCode: number; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'signalled'; readonly signal: string; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'timed-out'; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'cancelled'; readonly stdout: string; readonly stderr: string }
  | { readonly kind: 'spawn-failed'; readonly code: string; readonly message: string };

/** Starts a child process and reports how it ended; never throws for the child's own failures. */
export type Spawner = (request: SpawnRequest) => Promise<SpawnOutcome>;

/** How long a child gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** Output kept per stream; an agent that prints more is not giving an answer anyone reads. */
const MAX_CAPTURE_CHARS = 32 * 1024 * 1024;

/** Signals a whole process group (agents start their own tools), falling back to the one pid. */
function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/** Collects a stream's text while handing each decoded piece to `onText`. */
function collector(onText?: (text: string) => void): { push: (chunk: Buffer) => void; end: () => string } {
  const decoder = new StringDecoder('utf8');
  let text = '';
  const add = (piece: string): void => {
    if (!piece) return;
    if (text.length < MAX_CAPTURE_CHARS) text += piece;
    onText?.(piece);
  };
  return { push: (chunk) => add(decoder.write(chunk)), end: () => (add(decoder.end()), text) };
}

/**
 * The one place agent CLIs are started: execa with an argv array and no shell, cwd set,
 * environment given whole, stdin closed unless it carries input, a timeout, and cancellation
 * that kills the child's process group (SIGTERM, then SIGKILL after a grace period).
 */
export const spawnProcess: Spawner = async (request): Promise<SpawnOutcome> => {
  if (request.signal?.aborted) return { kind: 'cancelled', stdout: '', stderr: '' };
  const child = execa(request.command, [...request.args], {
    cwd: request.cwd,
    env: { ...request.env },
    extendEnv: false,
    shell: false,
    reject: false,
    buffer: false,
    detached: true,
    windowsHide: true,
    ...(request.input === undefined ? { stdin: 'ignore' as const } : { input: request.input }),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const out = collector(request.onStdout);
  const err = collector(request.onStderr);
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));

  let stopped: 'timed-out' | 'cancelled' | null = null;
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = (why: 'timed-out' | 'cancelled'): void => {
    if (stopped) return;
    stopped = why;
    killGroup(child.pid, 'SIGTERM');
    graceTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS);
    graceTimer.unref();
  };
  const timer = setTimeout(() => stop('timed-out'), request.timeoutMs);
  const onAbort = (): void => stop('cancelled');
  request.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await child;
    const stdout = out.end();
    const stderr = err.end();
    if (stopped) return { kind: stopped, stdout, stderr };
    if (result.exitCode === undefined && !result.signal) {
      const code = (result as { code?: string }).code ?? 'SPAWN_FAILED';
      return { kind: 'spawn-failed', code, message: result.originalMessage || result.shortMessage || code };
    }
    if (result.signal) return { kind: 'signalled', signal: result.signal, stdout, stderr };
    return { kind: 'exited', exitCode: result.exitCode ?? 1, stdout, stderr };
  } finally {
    // The grace timer is left running on purpose: it also reaps tools the agent started that
    // ignored SIGTERM and outlived it. It is unref'd, so it never holds the process open.
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
};
