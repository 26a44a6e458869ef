// The one way Relay Desk runs a process to its end and reads what it printed (agent CLIs, the
// tick's Claude calls and verification commands, linters and pre/post commands, probes):
// - argv only, never a shell (`$(touch x)` in an argument is just text);
// - an allow-list environment built by engine/secrets (ChildEnv), nothing inherited;
// - stdin closed unless the caller gives text (codex and gemini wait on an open stdin);
// - its own process group on POSIX, so a timeout, a cancel, or the child's own exit ends the
//   tools it started too (SIGTERM, then SIGKILL after a grace period);
// - output kept up to a cap per stream, with a flag when some was dropped; streamed to callbacks.
import { execa } from 'execa';
import type { ChildEnv } from '../secrets/child-env.js';
import { DEFAULT_GRACE_MS, terminateGroup } from './group.js';
import { streamCollector } from './output.js';

/** Output kept per stream when the caller names no cap. */
export const DEFAULT_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

/** One process to run to its end. */
export interface ProcRequest {
  /** The program: an absolute path, or a name looked up on the child's PATH. */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The child's whole environment (buildChildEnv / agentChildEnv). */
  readonly env: ChildEnv;
  /** Written to stdin, which is then closed. Absent: stdin is closed from the start. */
  readonly input?: string;
  /** Milliseconds before the group is ended; 0 for none (the caller aborts it). */
  readonly timeoutMs: number;
  /** Between SIGTERM and SIGKILL when the group is ended (default 2 s). */
  readonly graceMs?: number;
  /** Aborting it ends the child and its group. */
  readonly signal?: AbortSignal;
  /** Bytes kept per stream (default 8 MiB); the rest is dropped and `truncated` is set. */
  readonly maxOutputBytes?: number;
  /** Every piece of stdout as it arrives (also past the cap). */
  readonly onStdout?: (text: string) => void;
  readonly onStderr?: (text: string) => void;
}

/** What a child printed: each stream, both interleaved as a terminal would show them, and whether the cap cut any. */
export interface ProcOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly all: string;
  readonly truncated: boolean;
}

/** How a child ended. */
export type ProcOutcome =
  | ({ readonly kind: 'exited'; readonly exitCode: number } & ProcOutput)
  | ({ readonly kind: 'signalled'; readonly signal: string } & ProcOutput)
  | ({ readonly kind: 'timed-out' | 'cancelled'; readonly signal: string | null } & ProcOutput)
  | { readonly kind: 'spawn-failed'; readonly code: string; readonly message: string };

/** Runs a process; the signature callers take as an injectable dependency. */
export type ProcRunner = (request: ProcRequest) => Promise<ProcOutcome>;

const NOTHING: ProcOutput = { stdout: '', stderr: '', all: '', truncated: false };

/** Runs one child to its end (see the header); never throws for the child's own failures. */
export const runProcess: ProcRunner = async (request) => {
  if (request.signal?.aborted) return { kind: 'cancelled', signal: null, ...NOTHING };
  const posix = process.platform !== 'win32';
  const child = execa(request.command, [...request.args], {
    cwd: request.cwd,
    env: { ...request.env },
    extendEnv: false,
    shell: false,
    reject: false,
    buffer: false,
    // A group of its own (POSIX); on Windows a detached child would get a console of its own.
    detached: posix,
    windowsHide: true,
    ...(request.input === undefined ? { stdin: 'ignore' as const } : { input: request.input }),
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const maxBytes = request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  const all: string[] = [];
  const out = streamCollector(maxBytes, all, request.onStdout);
  const err = streamCollector(maxBytes, all, request.onStderr);
  child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));

  const pid = child.pid;
  let leaderRunning = pid !== undefined;
  let stopped: 'timed-out' | 'cancelled' | null = null;
  let ended = false;
  const endGroup = (): void => {
    if (pid === undefined || ended) return;
    ended = true;
    terminateGroup(pid, { graceMs: request.graceMs ?? DEFAULT_GRACE_MS, leaderRunning: () => leaderRunning });
  };
  const stop = (why: 'timed-out' | 'cancelled'): void => {
    stopped ??= why;
    endGroup();
  };
  // 0 means no timeout: a watcher's helper runs until it is aborted.
  const timer = request.timeoutMs > 0 ? setTimeout(() => stop('timed-out'), request.timeoutMs) : undefined;
  const onAbort = (): void => stop('cancelled');
  request.signal?.addEventListener('abort', onAbort, { once: true });
  // The child is done: whatever it left running in its group goes too (and stops holding its pipes).
  child.once('exit', () => {
    leaderRunning = false;
    endGroup();
  });
  try {
    const result = await child;
    const stdout = out.end();
    const stderr = err.end();
    const output: ProcOutput = { stdout, stderr, all: all.join(''), truncated: out.truncated || err.truncated };
    if (stopped) return { kind: stopped, signal: result.signal ?? null, ...output };
    if (typeof result.exitCode === 'number') return { kind: 'exited', exitCode: result.exitCode, ...output };
    if (result.signal) return { kind: 'signalled', signal: result.signal, ...output };
    const code = (result as { code?: string }).code ?? 'SPAWN_FAILED';
    return { kind: 'spawn-failed', code, message: result.originalMessage || result.shortMessage || code };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
};
