import { assertNever } from '../result.js';
import { runProcess, type ProcOutcome } from '../proc/run.js';
import { commandPath, resolveCommand, toolEnv, type SourceEnv } from './claude.js';
import type { PlannedRun } from './params.js';

/** One verification command as it ran (the shape of a report's verification.runs item). */
export interface VerifyRun {
  readonly template_id: string;
  readonly phase: 'fast' | 'slow';
  readonly cmd: string;
  readonly args: readonly string[];
  readonly exit_code: number;
  readonly duration_ms: number;
  readonly timed_out: boolean;
}

export interface VerifyOutcome {
  readonly runs: readonly VerifyRun[];
  /** The phase of the first failing command, or null when all passed. */
  readonly failedPhase: 'fast' | 'slow' | null;
  /** The verdict line for a failing command that could not even start (it names the command); null otherwise. */
  readonly startFailure: string | null;
  readonly log: string;
}

const MAX_LOG_PER_RUN = 256 * 1024;

/** How a command line is shown in verify.log (display only: nothing is ever run through a shell). */
export function displayCommand(cmd: string, args: readonly string[]): string {
  const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [cmd, ...args].map(quote).join(' ');
}

/** How a command ended, for the last line of its verify.log section. */
function ending(child: ProcOutcome, timeoutMs: number): string {
  switch (child.kind) {
    case 'exited':
      return `exit ${child.exitCode}`;
    case 'timed-out':
      return `timed out after ${timeoutMs} ms`;
    case 'cancelled':
      return 'cancelled';
    case 'signalled':
      return `killed by ${child.signal ?? 'a signal'}`;
    case 'spawn-failed':
      return `did not run: ${child.message}`;
    default:
      return assertNever(child);
  }
}

/** For a command that could not start, the verdict line's words: which executable, and the fix. */
function startFailure(planned: PlannedRun, child: ProcOutcome, options: { readonly root: string; readonly env?: SourceEnv }): string | null {
  if (child.kind !== 'spawn-failed') return null;
  const what = `${planned.phase} verification "${planned.templateId}"`;
  const missing = resolveCommand(planned.cmd, options.root, toolEnv(options.env)) === null;
  return missing
    ? `${what} could not start: "${planned.cmd}" was not found${planned.cmd.includes('/') ? '' : ' on PATH'}; install it or change verification.templates in relais.config.json`
    : `${what} could not start "${planned.cmd}": ${child.message}`;
}

/**
 * Runs the planned commands in order (fast ones first) through engine/proc, argv only, no shell, each
 * under its timeout and the tick's deadline; the first failure stops the rest.
 */
export async function runVerification(
  plan: readonly PlannedRun[],
  options: { readonly root: string; readonly env?: SourceEnv; readonly deadlineMs: number; readonly now: () => number; readonly beforeRun: (run: PlannedRun) => void; readonly signal?: AbortSignal },
): Promise<VerifyOutcome> {
  const runs: VerifyRun[] = [];
  const log: string[] = [];
  for (const planned of plan) {
    if (options.signal?.aborted) break;
    options.beforeRun(planned);
    const timeout = Math.max(1, Math.min(planned.timeoutMs, options.deadlineMs - options.now()));
    const started = options.now();
    // Its own process group (engine/proc): a test runner's workers or a server the check started
    // do not outlive it, nor hold its output open.
    const child = await runProcess({
      command: commandPath(planned.cmd, options.root),
      args: planned.args,
      cwd: options.root,
      env: toolEnv(options.env),
      timeoutMs: timeout,
      maxOutputBytes: 8 * 1024 * 1024,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const duration = Math.max(0, Math.round(options.now() - started));
    const timedOut = child.kind === 'timed-out';
    const exitCode = child.kind === 'exited' ? Math.min(255, Math.max(0, child.exitCode)) : -1;
    const run: VerifyRun = { template_id: planned.templateId, phase: planned.phase, cmd: planned.cmd, args: planned.args, exit_code: exitCode, duration_ms: duration, timed_out: timedOut };
    runs.push(run);
    // Both streams in the order they came, as a terminal would show them.
    let output = child.kind === 'spawn-failed' ? '' : child.all;
    if (output.length > MAX_LOG_PER_RUN) output = `${output.slice(0, MAX_LOG_PER_RUN)}\n[output cut at ${MAX_LOG_PER_RUN} characters]`;
    log.push(`## ${planned.phase} ${planned.templateId}\n$ ${displayCommand(planned.cmd, planned.args)}\n${output}${output.endsWith('\n') || output === '' ? '' : '\n'}→ ${ending(child, timeout)} in ${duration} ms\n`);
    if (exitCode !== 0 || timedOut) return { runs, failedPhase: planned.phase, startFailure: startFailure(planned, child, options), log: log.join('\n') };
  }
  return { runs, failedPhase: null, startFailure: null, log: log.join('\n') };
}
