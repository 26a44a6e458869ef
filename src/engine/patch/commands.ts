import { execa } from 'execa';
import { parse as parseShellWords } from 'shell-quote';
import { fail, ok, type Result } from '../result.js';

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

/** The default runner: execa with shell disabled, stdin closed, output interleaved. */
export const execaRunner: CommandRunner = async (argv, { cwd, timeoutMs, signal, env }) => {
  const [file, ...args] = argv;
  const run = await execa(file!, args, {
    cwd,
    shell: false,
    reject: false,
    all: true,
    stdin: 'ignore',
    timeout: timeoutMs,
    ...(env ? { env } : {}),
    ...(signal ? { cancelSignal: signal } : {}),
    stripFinalNewline: false,
  });
  const output = typeof run.all === 'string' ? run.all : '';
  const spawnError = run.failed && run.exitCode === undefined && !run.timedOut ? `${run.shortMessage}\n` : '';
  return { exitCode: run.exitCode ?? 1, output: spawnError + output, timedOut: run.timedOut === true, ...(spawnError ? { startFailed: true } : {}) };
};

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
