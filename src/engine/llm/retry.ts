/** Bounded exponential backoff for HTTP model calls. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 disables retrying. */
  readonly maxRetries: number;
  /** Wait before the first retry; doubled for each further one. */
  readonly baseDelayMs: number;
  /** Cap of a computed backoff wait. */
  readonly maxDelayMs: number;
  /** Cap of a wait the server asked for with Retry-After. */
  readonly maxRetryAfterMs: number;
}

/** Three retries after 0.5 s, 1 s, 2 s; a server's Retry-After is honoured up to a minute. */
export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** Merges a partial policy over the defaults, refusing negative or non-finite numbers. */
export function retryPolicy(partial: Partial<RetryPolicy> = {}): RetryPolicy {
  const pick = (value: number | undefined, fallback: number): number => (value !== undefined && Number.isFinite(value) && value >= 0 ? value : fallback);
  return {
    maxRetries: Math.floor(pick(partial.maxRetries, DEFAULT_RETRY.maxRetries)),
    baseDelayMs: pick(partial.baseDelayMs, DEFAULT_RETRY.baseDelayMs),
    maxDelayMs: pick(partial.maxDelayMs, DEFAULT_RETRY.maxDelayMs),
    maxRetryAfterMs: pick(partial.maxRetryAfterMs, DEFAULT_RETRY.maxRetryAfterMs),
  };
}

/**
 * A Retry-After header in milliseconds: either delta-seconds ("3", "1.5") or an HTTP date
 * (measured against `nowMs`). Null when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - nowMs);
}

/** The wait before retry number `retryIndex` (0 = first retry): the server's ask, else base·2ⁿ, both capped. */
export function backoffDelay(policy: RetryPolicy, retryIndex: number, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
}

/** Waits `ms`, ending early with the signal's abort (rejecting with an AbortError). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('Aborted', 'AbortError'));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
