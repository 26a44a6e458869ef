/** Codes of HTTP model client failures. */
export type LlmErrorCode =
  | 'HTTP'
  | 'TIMEOUT'
  | 'CONNECTION'
  | 'CANCELLED'
  | 'EMPTY_STREAM'
  | 'RESPONSE_FAILED'
  | 'BAD_RESPONSE';

/** A failure of the HTTP model client; `retryable` says whether another attempt could help. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  constructor(
    readonly code: LlmErrorCode,
    message: string,
    readonly details: { readonly status?: number; readonly retryAfterMs?: number | null; readonly hint?: string } = {},
  ) {
    super(message);
  }

  /** Timeouts, dropped connections, 429 and 5xx may succeed on another attempt. */
  get retryable(): boolean {
    if (this.code === 'TIMEOUT' || this.code === 'CONNECTION') return true;
    const status = this.details.status;
    return this.code === 'HTTP' && status !== undefined && (status === 429 || status >= 500);
  }
}
