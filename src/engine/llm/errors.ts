import type { Failure } from '../result.js';

/** Codes of HTTP model client failures. */
export type LlmErrorCode =
  | 'HTTP'
  | 'TIMEOUT'
  | 'CONNECTION'
  | 'CANCELLED'
  | 'EMPTY_STREAM'
  | 'RESPONSE_FAILED'
  | 'BAD_RESPONSE';

/** What an HTTP failure adds to its message: the status, the server's Retry-After, a hint. */
export interface LlmFailureDetails {
  readonly status?: number;
  readonly retryAfterMs?: number | null;
  readonly hint?: string;
}

/** A failure of the HTTP model client, with what the retry policy needs to judge it. */
export interface LlmFailure extends Failure<LlmErrorCode> {
  readonly details: LlmFailureDetails;
}

/** Outcome of a model client step: a value, or an LlmFailure. */
export type LlmResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: LlmFailure };

/** Builds an LlmFailure. */
export function llmFailure(code: LlmErrorCode, message: string, details: LlmFailureDetails = {}): LlmFailure {
  return { code, message, details };
}

/** Builds a failed LlmResult. */
export function llmFail(code: LlmErrorCode, message: string, details: LlmFailureDetails = {}): { readonly ok: false; readonly error: LlmFailure } {
  return { ok: false, error: llmFailure(code, message, details) };
}

/** Timeouts, dropped connections, 429 and 5xx may succeed on another attempt. */
export function isRetryable(failure: LlmFailure): boolean {
  if (failure.code === 'TIMEOUT' || failure.code === 'CONNECTION') return true;
  const status = failure.details.status;
  return failure.code === 'HTTP' && status !== undefined && (status === 429 || status >= 500);
}
