import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fail, ok } from '../../result.js';
import type { BackendResult } from '../errors.js';
import { fitsInArgv, lineFeeder, runCli, tail, type CliExit } from './cli.js';
import type { Backend, BackendReply, BackendReviewInput, BackendRunInput, SandboxMode } from './types.js';

const INSTALL_HINT = 'npm install -g @openai/codex';

/** argv of `codex exec`: repo via -C, our sandbox names are codex's own, JSONL events, last message to a file. */
export function codexExecArgs(options: { repoPath: string; sandbox: SandboxMode; model: string | null; outputFile: string; prompt: string | null }): string[] {
  return [
    'exec',
    '-C', options.repoPath,
    '-s', options.sandbox,
    '--skip-git-repo-check',
    '--ephemeral',
    '--json',
    '-o', options.outputFile,
    ...(options.model ? ['-m', options.model] : []),
    // "-" makes codex read the prompt from stdin (for prompts too big for argv).
    options.prompt ?? '-',
  ];
}

/**
 * argv of the native review. `codex exec review` takes neither -C nor --sandbox (cwd is the
 * repo; its own defaults apply) and refuses a prompt together with --base.
 */
export function codexReviewArgs(options: { base: string; outputFile: string }): string[] {
  return ['exec', 'review', '--base', options.base, '--json', '-o', options.outputFile];
}

/** What codex's stdout says: agent messages and reported errors from JSONL, and any plain text. */
export interface CodexOutput {
  readonly messages: readonly string[];
  readonly errors: readonly string[];
  readonly plainText: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function parseLine(line: string): Json | null {
  if (!line.trim().startsWith('{')) return null;
  try {
    return obj(JSON.parse(line));
  } catch {
    return null;
  }
}

/** The error text of a `turn.failed` or `error` event, else null. */
function eventError(event: Json): string | null {
  const type = str(event.type);
  if (type === 'turn.failed') return str(obj(event.error)?.message) ?? 'turn failed';
  if (type === 'error') return str(event.message) ?? str(obj(event.error)?.message) ?? 'error';
  return null;
}

/** Parses `codex exec --json` stdout (non-JSON lines are kept as plain text: older versions print the answer bare). */
export function parseCodexOutput(stdout: string): CodexOutput {
  const messages: string[] = [];
  const errors: string[] = [];
  const plain: string[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const event = parseLine(line);
    if (!event) {
      if (line.trim()) plain.push(line);
      continue;
    }
    const error = eventError(event);
    if (error) errors.push(error);
    const item = obj(event.item);
    const itemType = str(item?.type);
    if (str(event.type) === 'item.completed' && (itemType === 'agent_message' || itemType === 'assistant_message')) {
      const text = str(item?.text);
      if (text) messages.push(text);
    }
  }
  return { messages, errors, plainText: plain.join('\n').trim() };
}

/** A one-line description of a JSONL event for progress display, or null for bookkeeping events. */
export function codexProgress(line: string): string | null {
  const event = parseLine(line);
  if (!event) return null;
  const error = eventError(event);
  if (error) return `error: ${error}`;
  const item = obj(event.item);
  const type = str(event.type);
  const itemType = str(item?.type);
  if (type === 'item.started' && itemType === 'command_execution') return `$ ${str(item?.command) ?? ''}`.trimEnd();
  if (type !== 'item.completed') return null;
  // Agent messages are not progress: the last one is the answer, printed once at the end.
  switch (itemType) {
    case 'reasoning':
      return str(item?.text);
    case 'file_change':
      return 'changed files';
    case 'web_search':
      return `searched the web: ${str(item?.query) ?? ''}`.trimEnd();
    default:
      return null;
  }
}

function readIfPresent(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Judges a finished codex run: the last-message file, else the last agent message, else plain stdout. */
export function codexAnswer(exit: Pick<CliExit, 'exitCode' | 'stdout' | 'stderr'>, lastMessageFile: string, what: string): BackendResult<BackendReply> {
  const parsed = parseCodexOutput(exit.stdout);
  if (exit.exitCode !== 0) {
    const detail = parsed.errors.at(-1) ?? (tail(exit.stderr) || tail(parsed.plainText));
    return fail('EXIT_CODE', `${what} exited with code ${exit.exitCode}${detail ? `: ${detail}` : ''}`);
  }
  const text = lastMessageFile || parsed.messages.at(-1)?.trim() || parsed.plainText;
  if (!text) {
    const detail = parsed.errors.at(-1);
    return detail ? fail('REPORTED_ERROR', `${what} reported an error: ${detail}`) : fail('EMPTY_ANSWER', `${what} completed without producing an answer`);
  }
  return ok({ text });
}

async function runCodex(args: (outputFile: string) => string[], input: BackendRunInput | BackendReviewInput, stdin: string | undefined, what: string): Promise<BackendResult<BackendReply>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relay-codex-'));
  const outputFile = path.join(dir, 'last-message.txt');
  try {
    const progress = input.onEvent ? lineFeeder((line) => {
      const text = codexProgress(line);
      if (text) input.onEvent?.({ type: 'progress', text });
    }) : undefined;
    const ran = await runCli(
      {
        program: 'codex',
        installHint: INSTALL_HINT,
        args: args(outputFile),
        // codex reads extra input from a non-TTY stdin and waits for EOF: stdin stays closed unless it carries the prompt.
        ...(stdin !== undefined ? { input: stdin } : {}),
        ...(progress ? { onStdout: progress } : {}),
      },
      input,
    );
    if (!ran.ok) return ran;
    const answer = codexAnswer(ran.value, readIfPresent(outputFile), what);
    return answer.ok ? answer : fail(answer.error.code, ran.value.redact(answer.error.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The codex CLI backend (`codex exec`, native `codex exec review`). */
export const codexBackend: Backend = {
  name: 'codex',
  capabilities: {
    transport: 'cli',
    sandboxes: ['read-only', 'workspace-write', 'danger-full-access'],
    // Review gets no --sandbox flag, so it is trusted only where codex's default applies: read-only.
    nativeReview: { sandboxes: ['read-only'], model: false, prompt: false },
    streaming: 'progress',
  },
  run(input) {
    const inArgv = fitsInArgv(input.prompt);
    return runCodex(
      (outputFile) => codexExecArgs({ repoPath: input.repoPath, sandbox: input.sandbox, model: input.model, outputFile, prompt: inArgv ? input.prompt : null }),
      input,
      inArgv ? undefined : input.prompt,
      'codex exec',
    );
  },
  review(input) {
    return runCodex((outputFile) => codexReviewArgs({ base: input.base, outputFile }), input, undefined, 'codex exec review');
  },
};
