import { fail } from '../../result.js';
import { sessionUsage } from '../../claude-usage.js';
import type { BackendResult } from '../errors.js';
import { answerOf, oneShotCliBackend, tail, type CliExit } from './cli.js';
import type { Backend, BackendReply, BackendRunInput, SandboxMode } from './types.js';

const INSTALL_HINT = 'npm install -g @anthropic-ai/claude-code';

// Our sandbox modes as claude's permission modes: plan reads only, acceptEdits edits, bypassPermissions anything.
const PERMISSION_MODES = { 'read-only': 'plan', 'workspace-write': 'acceptEdits', 'danger-full-access': 'bypassPermissions' } as const satisfies Record<SandboxMode, string>;

/** Our sandbox mode as claude's permission mode. */
export function claudePermissionMode(sandbox: SandboxMode): (typeof PERMISSION_MODES)[SandboxMode] {
  return PERMISSION_MODES[sandbox];
}

/** argv of a print-mode claude run with one JSON result; the prompt goes last (or on stdin when too big). */
export function claudeArgs(options: { sandbox: SandboxMode; model: string | null; prompt: string | null }): string[] {
  return [
    '-p',
    '--output-format', 'json',
    '--permission-mode', claudePermissionMode(options.sandbox),
    '--no-session-persistence',
    ...(options.model ? ['--model', options.model] : []),
    ...(options.prompt !== null ? [options.prompt] : []),
  ];
}

/** Claude's result wrapper, reduced to what we act on. */
export type ClaudeReply =
  | { readonly kind: 'answer'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'unreadable' };

// terminal_reason values that mean the turn did not finish normally.
const FAILED_TERMINAL = /error|max_turns|budget|abort|interrupt|cancel|refus/i;

/**
 * Parses `claude -p --output-format json` stdout. Success is `is_error === false` (and a
 * terminal_reason that is not a failure); subtype and exit code are not trusted, because
 * failed calls report subtype "success" and exit codes differ between versions.
 */
export function parseClaudeJson(stdout: string): ClaudeReply {
  const text = stdout.trim();
  const start = text.startsWith('{') ? 0 : text.lastIndexOf('\n{') + 1;
  if (!text || start < 0) return { kind: 'unreadable' };
  let value: unknown;
  try {
    value = JSON.parse(text.slice(start));
  } catch {
    return { kind: 'unreadable' };
  }
  const body = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  if (!body || typeof body.is_error !== 'boolean') return { kind: 'unreadable' };
  const result = typeof body.result === 'string' ? body.result : '';
  const terminal = typeof body.terminal_reason === 'string' ? body.terminal_reason : '';
  if (body.is_error === false && !FAILED_TERMINAL.test(terminal)) return { kind: 'answer', text: result };
  const status = typeof body.api_error_status === 'number' || typeof body.api_error_status === 'string' ? ` (API status ${body.api_error_status})` : '';
  const reason = result || terminal || (typeof body.subtype === 'string' ? body.subtype : '') || 'unknown error';
  return { kind: 'error', message: `${reason}${status}` };
}

/** The last JSON object claude printed (its result wrapper), or null. */
function lastJsonObject(stdout: string): unknown {
  const text = stdout.trim();
  const start = text.startsWith('{') ? 0 : text.lastIndexOf('\n{') + 1;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return null;
  }
}

/** True when claude refused bypassPermissions because it runs as root. */
export function isRootRefusal(text: string): boolean {
  return /root\/sudo|run(ning)? as root/i.test(text) && /bypass|dangerously|permission/i.test(text);
}

/** Judges a finished claude run by its JSON result (reporting the session's token figures as it goes). */
function judgeClaude(exit: CliExit, input: BackendRunInput): BackendResult<BackendReply> {
  const reply = parseClaudeJson(exit.stdout);
  const usage = sessionUsage(lastJsonObject(exit.stdout));
  if (usage) input.onEvent?.({ type: 'usage', usage });
  if (reply.kind === 'answer') return answerOf('claude', reply.text);
  const detail = reply.kind === 'error' ? reply.message : tail(exit.stderr) || tail(exit.stdout);
  if (input.sandbox === 'danger-full-access' && isRootRefusal(`${detail}\n${exit.stderr}`)) {
    return fail('REPORTED_ERROR', 'claude refuses danger-full-access (bypassPermissions) when run as root or with sudo: use workspace-write, or run as a normal user');
  }
  const lead = reply.kind === 'error' ? 'claude reported an error' : `claude exited with code ${exit.exitCode} without a JSON result`;
  return fail(reply.kind === 'error' ? 'REPORTED_ERROR' : 'EXIT_CODE', exit.redact(`${lead}${detail ? `: ${detail}` : ''}`));
}

/** The Claude Code CLI backend (`claude -p --output-format json`). */
export const claudeBackend: Backend = oneShotCliBackend({ name: 'claude', installHint: INSTALL_HINT, args: claudeArgs, judge: judgeClaude });
