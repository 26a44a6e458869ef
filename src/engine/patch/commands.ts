import { assertNever } from '../result.js';
import type { ProcOutcome } from '../proc/run.js';
import { buildChildEnv } from '../secrets/index.js';

/** How a child command ended. */
export interface CommandResult {
  readonly exitCode: number;
  readonly output: string;
  readonly timedOut: boolean;
  /** The program could not be started at all (not installed, not executable). */
  readonly startFailed?: boolean;
}

/** Runs argv without a shell. Injected so tests and the runtime can observe or cancel it. */
export type CommandRunner = (
  argv: readonly string[],
  options: {
    cwd: string;
    timeoutMs: number;
    signal?: AbortSignal;
    /** Variables added to the child's environment (a transaction marks its commands with them, see leftover-commands.ts). */
    env?: Readonly<Record<string, string>>;
  },
) => Promise<CommandResult>;

// The pure half (a configured command → argv) lives in argv.ts, so reading a config does not
// load the process runner.
export { toArgv } from './argv.js';

/** Output of a linter or pre/post command kept in memory; a linter printing more is cut (and says so). */
const MAX_COMMAND_OUTPUT_BYTES = 16 * 1024 * 1024;

/** What a finished command means to a transaction. */
function commandResult(outcome: ProcOutcome, argv: readonly string[]): CommandResult {
  switch (outcome.kind) {
    case 'exited':
      return { exitCode: outcome.exitCode, output: withCut(outcome.all, outcome.truncated), timedOut: false };
    case 'signalled':
    case 'cancelled':
      return { exitCode: 1, output: withCut(outcome.all, outcome.truncated), timedOut: false };
    case 'timed-out':
      return { exitCode: 1, output: withCut(outcome.all, outcome.truncated), timedOut: true };
    case 'spawn-failed':
      return { exitCode: 1, output: `Could not start ${argv.join(' ')}: ${outcome.message}\n`, timedOut: false, startFailed: true };
    default:
      return assertNever(outcome);
  }
}

function withCut(output: string, truncated: boolean): string {
  return truncated ? `${output}\n[output cut at ${MAX_COMMAND_OUTPUT_BYTES} bytes per stream]\n` : output;
}

/**
 * The default runner (engine/proc): argv without a shell, stdin closed, output interleaved, and
 * the process group ended on timeout and cancel, so a linter's workers do not outlive it. The
 * command is the user's own tool (npm, npx, tsc, eslint): it gets the tools allow-list
 * environment, not the credentials of the shell Relay Desk was started from.
 */
export const commandRunner: CommandRunner = async (argv, { cwd, timeoutMs, signal, env }) => {
  // Loaded on first use: most patches run no command, and the CLI should not pay for it at start.
  const { runProcess } = await import('../proc/run.js');
  const [file, ...args] = argv;
  const outcome = await runProcess({
    command: file!,
    args,
    cwd,
    // The allow-list environment, plus the run's mark (leftover-commands.ts) so recovery can find
    // a command a crash left running.
    env: buildChildEnv({ from: process.env, profile: 'tools', ...(env ? { set: env } : {}) }),
    timeoutMs,
    maxOutputBytes: MAX_COMMAND_OUTPUT_BYTES,
    ...(signal ? { signal } : {}),
  });
  return commandResult(outcome, argv);
};

/** The runner's former name, kept so transaction.ts (edited in another lane this round) needs no change. */
export const execaRunner = commandRunner;

/**
 * Counts errors in a linter's output: a summary line when the tool prints one (tsc, eslint),
 * otherwise the lines that say "error". A failing run with no such lines counts as one.
 */
export function countLinterErrors(exitCode: number, output: string): number {
  if (exitCode === 0) return 0;
  const summaries = [/Found (\d+) errors?\b/i, /\((\d+) errors?,/i, /\b(\d+) errors? found\b/i, /^\s*(\d+) errors?\b/im];
  for (const pattern of summaries) {
    const m = pattern.exec(output);
    if (m) return Math.max(1, Number(m[1]));
  }
  const lines = output.split('\n').filter((l) => /\berror\b/i.test(l)).length;
  return Math.max(1, lines);
}
