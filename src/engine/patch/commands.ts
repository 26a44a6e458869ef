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

// The pure half (a configured command → argv) lives in argv.ts, so reading a config does not
// load the process runner.
export { toArgv } from './argv.js';

/** The default runner: execa with shell disabled, stdin closed, output interleaved. */
export const execaRunner: CommandRunner = async (argv, { cwd, timeoutMs, signal }) => {
  // Loaded on first use: most patches run no command, and the CLI should not pay for it at start.
  const { execa } = await import('execa');
  const [file, ...args] = argv;
  const run = await execa(file!, args, {
    cwd,
    shell: false,
    reject: false,
    all: true,
    stdin: 'ignore',
    timeout: timeoutMs,
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
