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

/** The one user-facing failure type of the relay: validation, limits, depth, and wrapped backend failures. */
export class RelayError extends Error {
  override readonly name = 'RelayError';
  constructor(
    readonly code: RelayErrorCode,
    message: string,
    /** The backend failure this error wraps, when it wraps one. */
    override readonly cause?: BackendError,
  ) {
    super(message);
  }
}

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

/** A backend adapter's failure; relay() and reviewRelay() wrap it in a RelayError. */
export class BackendError extends Error {
  override readonly name: string = 'BackendError';
  constructor(
    readonly backend: string,
    readonly code: BackendErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A failure of the codex CLI. */
export class CodexBackendError extends BackendError {
  override readonly name = 'CodexBackendError';
  constructor(code: BackendErrorCode, message: string) {
    super('codex', code, message);
  }
}

/** A failure of the gemini CLI. */
export class GeminiBackendError extends BackendError {
  override readonly name = 'GeminiBackendError';
  constructor(code: BackendErrorCode, message: string) {
    super('gemini', code, message);
  }
}

/** A failure of the claude CLI. */
export class ClaudeBackendError extends BackendError {
  override readonly name = 'ClaudeBackendError';
  constructor(code: BackendErrorCode, message: string) {
    super('claude', code, message);
  }
}

/** A failure of the Ollama HTTP server. */
export class OllamaBackendError extends BackendError {
  override readonly name = 'OllamaBackendError';
  constructor(code: BackendErrorCode, message: string) {
    super('ollama', code, message);
  }
}

/** Wraps a backend failure as the relay-level error; cancellation keeps its own code. */
export function wrapBackendError(error: BackendError): RelayError {
  return new RelayError(error.code === 'CANCELLED' ? 'CANCELLED' : 'BACKEND_FAILED', error.message, error);
}
