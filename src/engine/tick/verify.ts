import { execa } from 'execa';
import type { ChildEnv } from './claude.js';
import { commandPath } from './claude.js';
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
  readonly log: string;
}

const MAX_LOG_PER_RUN = 256 * 1024;

/** How a command line is shown in verify.log (display only: nothing is ever run through a shell). */
export function displayCommand(cmd: string, args: readonly string[]): string {
  const quote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  return [cmd, ...args].map(quote).join(' ');
}

/**
 * Runs the planned commands in order (fast ones first) with execa, argv only, no shell, each
 * under its timeout and the tick's deadline; the first failure stops the rest.
 */
export async function runVerification(
  plan: readonly PlannedRun[],
  options: { readonly root: string; readonly env?: ChildEnv; readonly deadlineMs: number; readonly now: () => number; readonly beforeRun: (run: PlannedRun) => void; readonly signal?: AbortSignal },
): Promise<VerifyOutcome> {
  const runs: VerifyRun[] = [];
  const log: string[] = [];
  for (const planned of plan) {
    if (options.signal?.aborted) break;
    options.beforeRun(planned);
    const timeout = Math.max(1, Math.min(planned.timeoutMs, options.deadlineMs - options.now()));
    const started = options.now();
    const child = await execa(commandPath(planned.cmd, options.root), [...planned.args], {
      cwd: options.root,
      shell: false,
      reject: false,
      stdin: 'ignore',
      all: true,
      timeout,
      forceKillAfterDelay: 2000,
      ...(options.signal ? { cancelSignal: options.signal } : {}),
      maxBuffer: 8 * 1024 * 1024,
      windowsHide: true,
      ...(options.env ? { env: { ...options.env }, extendEnv: false } : {}),
    });
    const duration = Math.max(0, Math.round(options.now() - started));
    const exitCode = typeof child.exitCode === 'number' ? Math.min(255, Math.max(0, child.exitCode)) : -1;
    const run: VerifyRun = { template_id: planned.templateId, phase: planned.phase, cmd: planned.cmd, args: planned.args, exit_code: exitCode, duration_ms: duration, timed_out: child.timedOut };
    runs.push(run);
    let output = String(child.all ?? '');
    if (output.length > MAX_LOG_PER_RUN) output = `${output.slice(0, MAX_LOG_PER_RUN)}\n[output cut at ${MAX_LOG_PER_RUN} characters]`;
    const ending = child.timedOut ? `timed out after ${timeout} ms` : exitCode === -1 ? `did not run or was killed: ${child.shortMessage ?? 'unknown'}` : `exit ${exitCode}`;
    log.push(`## ${planned.phase} ${planned.templateId}\n$ ${displayCommand(planned.cmd, planned.args)}\n${output}${output.endsWith('\n') || output === '' ? '' : '\n'}→ ${ending} in ${duration} ms\n`);
    if (exitCode !== 0 || child.timedOut) return { runs, failedPhase: planned.phase, log: log.join('\n') };
  }
  return { runs, failedPhase: null, log: log.join('\n') };
}
