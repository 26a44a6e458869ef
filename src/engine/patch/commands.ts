import { parse as parseShellWords } from 'shell-quote';
import { runProcess, type ProcOutcome } from '../proc/run.js';
import { assertNever, fail, ok, type Result } from '../result.js';
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
export type CommandRunner = (argv: readonly string[], options: { cwd: string; timeoutMs: number; signal?: AbortSignal }) => Promise<CommandResult>;

/**
 * Turns a configured command into argv. Strings are split with shell quoting rules but never
 * given to a shell: operators (`&&`, `|`, `>`), substitutions and comments are refused.
 */
export function toArgv(command: string | readonly string[]): Result<string[], 'COMMAND_INVALID'> {
  if (Array.isArray(command)) return command.length > 0 ? ok([...command]) : fail('COMMAND_INVALID', 'Empty command.');
  const text = (command as string).trim();
  if (text === '') return fail('COMMAND_INVALID', 'Empty command.');
  const words: string[] = [];
  for (const token of parseShellWords(text, (name) => `$${name}`)) {
    if (typeof token === 'string') {
      words.push(token);
      continue;
    }
    if ('pattern' in token) {
      words.push(token.pattern);
      continue;
    }
    const what = 'op' in token ? `the shell operator "${token.op}"` : 'a comment';
    return fail('COMMAND_INVALID', `Command ${JSON.stringify(text)} uses ${what}; commands run without a shell. Use a script file or an argv array instead.`);
  }
  return words.length > 0 ? ok(words) : fail('COMMAND_INVALID', 'Empty command.');
}

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
export const commandRunner: CommandRunner = async (argv, { cwd, timeoutMs, signal }) => {
  const [file, ...args] = argv;
  const outcome = await runProcess({
    command: file!,
    args,
    cwd,
    env: buildChildEnv({ from: process.env, profile: 'tools' }),
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
