import { createInterface } from 'node:readline/promises';
import { CommanderError, type Command } from 'commander';
import type { Failure } from '../engine/result.js';

/** Exit codes shared by both CLIs: 0 ok, 1 rejected or failed (tree untouched), 2 usage error. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A usage error: the command line itself is wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export function printError(line: string): void {
  process.stderr.write(`${line}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function describeFailure(error: Failure): string {
  return `${error.code}: ${error.message}`;
}

/** Asks a yes/no question on the terminal; false when there is no terminal to ask on. */
export async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** True when a question can be asked interactively. */
export function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/**
 * Runs a commander program with the CLIs' exit codes: 0 for help and version, 2 for usage
 * errors, 1 for an unexpected error (printed with its stack), otherwise what the command set.
 */
export async function runProgram(program: Command): Promise<void> {
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? EXIT.ok : EXIT.usage;
      return;
    }
    if (error instanceof UsageError) {
      printError(`✘ ${error.message}`);
      process.exitCode = EXIT.usage;
      return;
    }
    // A file-system failure (a full or read-only disk) is told in one line: it names the file and the cause.
    const errno = (error as NodeJS.ErrnoException | undefined)?.code;
    if (typeof errno === 'string' && /^E[A-Z]+$/.test(errno)) {
      printError(`✘ ${(error as Error).message.split('\n')[0]}`);
      process.exitCode = EXIT.failed;
      return;
    }
    printError(`✘ Unexpected error: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = EXIT.failed;
  }
}
