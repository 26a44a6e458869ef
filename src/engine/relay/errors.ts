import { fail, ok, type Failure, type Result } from '../result.js';

/** Codes of the failures `relay()` and `reviewRelay()` report; each maps to one spec message. */
export type RelayErrorCode =
  | 'PROMPT_REQUIRED'
  | 'INVALID_TIMEOUT'
  | 'INVALID_REPO'
  | 'UNSUPPORTED_BACKEND'
  | 'INVALID_SANDBOX'
  | 'CONTEXT_CONFLICT'
  | 'CONTEXT_FILE'
  | 'TOO_LARGE'
  | 'DIFF_FAILED'
  | 'BASE_NOT_FOUND'
  | 'NOTHING_TO_REVIEW'
  | 'DEPTH_LIMIT'
  | 'BACKEND_FAILED'
  | 'CANCELLED';

/** Codes of backend failures: what went wrong talking to the other agent. */
export type BackendErrorCode =
  | 'NOT_FOUND'
  | 'SPAWN_FAILED'
  | 'TIMEOUT'
  | 'CANCELLED'
  | 'EXIT_CODE'
  | 'REPORTED_ERROR'
  | 'EMPTY_ANSWER'
  | 'UNREACHABLE'
  | 'HTTP'
  | 'NO_MODEL';

/** What a backend adapter's run ends with: its value, or a failure with a BackendErrorCode. */
export type BackendResult<T> = Result<T, BackendErrorCode>;

/** Which backend failed and how, kept on the relay failure that wraps it. */
export interface BackendCause {
  readonly backend: string;
  readonly code: BackendErrorCode;
}

/** The one user-facing failure of the relay: validation, limits, depth, and wrapped backend failures. */
export interface RelayFailure extends Failure<RelayErrorCode> {
  /** The backend failure this one wraps, when it wraps one. */
  readonly cause?: BackendCause;
}

/** What the relay's steps end with: a value, or a RelayFailure. */
export type RelayOutcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: RelayFailure };

/** A failed RelayOutcome. */
export function relayFail(code: RelayErrorCode, message: string): { readonly ok: false; readonly error: RelayFailure } {
  return fail(code, message);
}

/** The successful outcome of a step that only checks. */
export const CHECKED: { readonly ok: true; readonly value: undefined } = ok(undefined);

/** Wraps a backend's failure as the relay's: cancellation keeps its own code, the rest is BACKEND_FAILED. */
export function wrapBackendFailure(backend: string, failure: Failure<BackendErrorCode>): { readonly ok: false; readonly error: RelayFailure } {
  const code = failure.code === 'CANCELLED' ? 'CANCELLED' : 'BACKEND_FAILED';
  return { ok: false, error: { code, message: failure.message, cause: { backend, code: failure.code } } };
}
