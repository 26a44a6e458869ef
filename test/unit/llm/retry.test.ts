import { describe, expect, it } from 'vitest';
import { endpointFor, httpError, notFoundHint } from '../../../src/engine/llm/client.js';
import { isRetryable, llmFailure } from '../../../src/engine/llm/errors.js';
import { abortableSleep, backoffDelay, DEFAULT_RETRY, parseRetryAfter, retryPolicy } from '../../../src/engine/llm/retry.js';

describe('retry policy', () => {
  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
  });

  it('doubles from the base up to the cap, and honours Retry-After up to its own cap', () => {
    const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 500, maxRetryAfterMs: 2000 });
    expect([0, 1, 2, 3, 4].map((i) => backoffDelay(policy, i, null))).toEqual([100, 200, 400, 500, 500]);
    expect(backoffDelay(policy, 0, 1500)).toBe(1500);
    expect(backoffDelay(policy, 0, 60_000)).toBe(2000);
  });

  it('falls back to defaults for missing or invalid numbers', () => {
    expect(retryPolicy({ maxRetries: -1, baseDelayMs: Number.NaN })).toEqual(DEFAULT_RETRY);
    expect(retryPolicy({ maxRetries: 0 }).maxRetries).toBe(0);
  });

  it('stops waiting when aborted', async () => {
    const controller = new AbortController();
    const waiting = abortableSleep(10_000, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow('Aborted');
  });
});

describe('errors and hints', () => {
  it('retries only timeouts, connection failures, 429 and 5xx', () => {
    expect(isRetryable(llmFailure('TIMEOUT', ''))).toBe(true);
    expect(isRetryable(llmFailure('CONNECTION', ''))).toBe(true);
    expect(isRetryable(llmFailure('HTTP', '', { status: 429 }))).toBe(true);
    expect(isRetryable(llmFailure('HTTP', '', { status: 503 }))).toBe(true);
    expect(isRetryable(llmFailure('HTTP', '', { status: 400 }))).toBe(false);
    expect(isRetryable(llmFailure('HTTP', '', { status: 404 }))).toBe(false);
    expect(isRetryable(llmFailure('CANCELLED', ''))).toBe(false);
    expect(isRetryable(llmFailure('EMPTY_STREAM', ''))).toBe(false);
  });

  it('suggests the other protocol on a 404', () => {
    expect(notFoundHint('responses')).toContain('api = "completions"');
    expect(notFoundHint('completions')).toContain('api = "responses"');
    const error = httpError(404, '{"error":{"message":"Not Found"}}', null, 'http://x/v1/responses', 'responses');
    expect(error.message).toBe('HTTP 404 from http://x/v1/responses: Not Found (hint: the server may not implement /responses: try api = "completions")');
    expect(error.details.hint).toBeDefined();
    expect(httpError(500, 'oops', null, 'u', 'completions').details.hint).toBeUndefined();
  });

  it('builds each protocol\'s endpoint from a base URL', () => {
    expect(endpointFor('https://api.example.com/v1/', 'completions')).toBe('https://api.example.com/v1/chat/completions');
    expect(endpointFor('https://api.example.com/v1', 'responses')).toBe('https://api.example.com/v1/responses');
    expect(endpointFor('http://localhost:11434', 'ollama')).toBe('http://localhost:11434/api/chat');
  });
});
