import { fail } from '../../result.js';
import type { BackendErrorCode, BackendResult } from '../errors.js';
import { answerOf, oneShotCliBackend, tail, type CliExit } from './cli.js';
import type { Backend, BackendReply, SandboxMode } from './types.js';

const INSTALL_HINT = 'npm install -g @google/gemini-cli';

// Our sandbox modes as gemini's approval modes: plan is read-only, auto_edit approves edits only, yolo everything.
const APPROVAL_MODES = { 'read-only': 'plan', 'workspace-write': 'auto_edit', 'danger-full-access': 'yolo' } as const satisfies Record<SandboxMode, string>;

/** Our sandbox mode as gemini's approval mode. */
export function geminiApprovalMode(sandbox: SandboxMode): (typeof APPROVAL_MODES)[SandboxMode] {
  return APPROVAL_MODES[sandbox];
}

/** What -p says when the envelope travels on stdin (gemini appends -p to its stdin input). */
export const GEMINI_STDIN_PROMPT = 'Answer the request above.';

/**
 * argv of a headless gemini run with JSON output. Gemini's own -s sandbox (a container) is
 * not used: it needs docker or podman, and the approval mode already bounds what tools run.
 */
export function geminiArgs(options: { sandbox: SandboxMode; model: string | null; prompt: string | null }): string[] {
  return [
    '-o', 'json',
    '--approval-mode', geminiApprovalMode(options.sandbox),
    ...(options.model ? ['-m', options.model] : []),
    '-p', options.prompt ?? GEMINI_STDIN_PROMPT,
  ];
}

/** Gemini's JSON reply, reduced to what we act on. */
export type GeminiReply =
  | { readonly kind: 'answer'; readonly text: string }
  | { readonly kind: 'error'; readonly type: string | null; readonly message: string; readonly code: string | number | null }
  | { readonly kind: 'unreadable' };

/** Parses `gemini -o json` stdout: `{response, stats}` or `{error:{type, message, code}}`. */
export function parseGeminiJson(stdout: string): GeminiReply {
  const text = stdout.trim();
  // Some versions print a notice before the document: read from the first brace of a line.
  const start = text.startsWith('{') ? 0 : text.search(/\n\{/) + 1;
  if (start < 0 || text.length === 0) return { kind: 'unreadable' };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start));
  } catch {
    return { kind: 'unreadable' };
  }
  const body = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  const error = body && typeof body.error === 'object' && body.error !== null ? (body.error as Record<string, unknown>) : null;
  if (error) {
    const code = typeof error.code === 'string' || typeof error.code === 'number' ? error.code : null;
    return { kind: 'error', type: typeof error.type === 'string' ? error.type : null, message: typeof error.message === 'string' ? error.message : 'unknown error', code };
  }
  if (body && typeof body.response === 'string') return { kind: 'answer', text: body.response };
  return { kind: 'unreadable' };
}

/** What gemini's documented exit codes mean. */
export function geminiExitMeaning(exitCode: number): { code: BackendErrorCode; meaning: string } {
  switch (exitCode) {
    case 41:
      return { code: 'REPORTED_ERROR', meaning: 'gemini is not signed in (exit 41): run `gemini` once to sign in, or set GEMINI_API_KEY' };
    case 42:
      return { code: 'REPORTED_ERROR', meaning: 'gemini rejected its input (exit 42)' };
    case 53:
      return { code: 'REPORTED_ERROR', meaning: 'gemini reached its turn limit (exit 53)' };
    default:
      return { code: 'EXIT_CODE', meaning: `gemini exited with code ${exitCode}` };
  }
}

/** Judges a finished gemini run by its JSON document and its documented exit codes. */
function judgeGemini(exit: CliExit): BackendResult<BackendReply> {
  // The JSON answer is on stdout; in JSON mode the error document is written to stderr.
  const fromStdout = parseGeminiJson(exit.stdout);
  const reply = fromStdout.kind === 'unreadable' ? parseGeminiJson(exit.stderr) : fromStdout;
  if (exit.exitCode === 0 && reply.kind === 'answer') return answerOf('gemini', reply.text);
  if (reply.kind === 'error') {
    const meaning = exit.exitCode === 0 ? { code: 'REPORTED_ERROR' as const, meaning: 'gemini reported an error' } : geminiExitMeaning(exit.exitCode);
    return fail(meaning.code, exit.redact(`${meaning.meaning}: ${reply.message}`));
  }
  if (exit.exitCode !== 0) {
    const meaning = geminiExitMeaning(exit.exitCode);
    const detail = tail(exit.stderr) || tail(exit.stdout);
    return fail(meaning.code, exit.redact(`${meaning.meaning}${detail ? `: ${detail}` : ''}`));
  }
  return fail('EMPTY_ANSWER', exit.redact(`gemini printed no JSON answer${tail(exit.stdout) ? `: ${tail(exit.stdout)}` : ''}`));
}

/** The gemini CLI backend (`gemini -o json -p`). */
export const geminiBackend: Backend = oneShotCliBackend({ name: 'gemini', installHint: INSTALL_HINT, args: geminiArgs, judge: judgeGemini });
