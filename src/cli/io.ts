import { CommanderError, type Command } from 'commander';
import type { Failure } from '../engine/result.js';

/** Exit codes shared by both CLIs: 0 ok, 1 rejected or failed (tree untouched), 2 usage error. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A usage error: the command line itself is wrong. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Writes one line to stdout. */
export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Writes one line to stderr. */
export function printError(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** Writes a value as indented JSON to stdout. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** "CODE: message" for a failure. */
export function describeFailure(error: Failure): string {
  return `${error.code}: ${error.message}`;
}

/** Asks a yes/no question on the terminal; false when there is no terminal to ask on. */
export async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return false;
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/**
 * Standard input as bytes, read as a stream: `readFileSync(0)` fails with EAGAIN when stdin is a
 * non-blocking pipe (an answer piped in by another program). Stops after `maxBytes` + 1 bytes so
 * a runaway producer cannot fill memory; the caller's size check then refuses it.
 */
export async function readStdin(maxBytes = 64 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buffer);
    size += buffer.length;
    if (size > maxBytes) {
      process.stdin.destroy();
      break;
    }
  }
  return Buffer.concat(chunks);
}

/** True when a question can be asked interactively. */
export function canAsk(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/**
 * Ends the process quietly when whoever reads our output goes away (`relay log | head -1`):
 * there is nobody left to tell, so no EPIPE stack trace. Other stream errors still surface.
 */
export function endQuietlyOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok);
      throw error;
    });
  }
}

/** What a command's `--help` ends with: what it does, examples and exit codes. */
export interface HelpFooter {
  /** A paragraph on what the command does beyond its one-line description. */
  readonly about?: string;
  readonly examples: readonly string[];
  /** Meaning of each exit code the command uses, e.g. { 0: 'applied', 1: 'rejected' }; 2 is always the command line. */
  readonly exitCodes: { readonly 0: string; readonly 1?: string; readonly 2?: string };
}

const HELP_WIDTH = 96;

function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > HELP_WIDTH) {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** Renders a HelpFooter as the text commander shows after the options. */
export function helpFooter(footer: HelpFooter): string {
  const parts: string[] = [''];
  if (footer.about) parts.push(footer.about.trim(), '');
  parts.push('Examples:', ...footer.examples.map((e) => `  ${e}`), '');
  const codes = { 2: 'the command line was wrong', ...footer.exitCodes };
  const listed = ([0, 1, 2] as const).filter((code) => codes[code] !== undefined).map((code) => `${code} ${codes[code]}`);
  parts.push(wrap(`Exit codes: ${listed.join(', ')}.`, '  '));
  return parts.join('\n');
}

/** Adds the examples-and-exit-codes footer to a command's --help. */
export function withHelp(command: Command, footer: HelpFooter): Command {
  return command.addHelpText('after', helpFooter(footer));
}

/**
 * Runs a commander program with the CLIs' exit codes: 0 for help and version, 2 for usage
 * errors, 1 for an unexpected error (printed with its stack), otherwise what the command set.
 */
export async function runProgram(program: Command, args: readonly string[]): Promise<void> {
  try {
    // The arguments alone ('user'): under Node they follow the script, under the packaged app's
    // --relay-cli they follow that flag, so process.argv's layout is never guessed at.
    await program.parseAsync([...args], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version asked for exit 0; help shown because the command line was incomplete
      // (`relay git` without its subcommand) is a usage error like any other.
      process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.usage;
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
    // Whatever the command had started (a connection, a timer) must not keep the process alive.
    process.exit(EXIT.failed);
  }
}
