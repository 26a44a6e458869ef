import { CompletionsStream, completionsBody, normaliseCompletion } from './completions.js';
import { isRetryable, llmFail, llmFailure, type LlmFailure, type LlmResult } from './errors.js';
import { asRecord, asString, tryParseJson } from './json.js';
import { NdjsonParser } from './ndjson.js';
import { OllamaStream, normaliseOllama, ollamaBody } from './ollama.js';
import { ResponsesStream, normaliseResponse, responsesBody } from './responses.js';
import { abortableSleep, backoffDelay, parseRetryAfter, retryPolicy, type RetryPolicy } from './retry.js';
import { SseParser, type SseEvent } from './sse.js';
import type { ChatRequest, ChatResponse, LlmEventSink, LlmProtocol } from './types.js';

/** How to reach one model server. */
export interface ChatClientOptions {
  /** For completions/responses the API root (e.g. https://api.openai.com/v1); for ollama the host. */
  readonly baseUrl: string;
  readonly protocol: LlmProtocol;
  /** Sent as a bearer token; never logged or put in error messages. */
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The platform's fetch unless given. */
  readonly fetch?: typeof fetch;
  readonly retry?: Partial<RetryPolicy>;
  /** Per attempt: how long to wait for the response headers. Default 60 s. */
  readonly timeoutMs?: number;
  /** Per attempt: how long the body may stay silent between chunks. Default 120 s. */
  readonly idleTimeoutMs?: number;
  /** How to wait between retries (tests record the waits instead of sleeping). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock for Retry-After dates. */
  readonly now?: () => number;
}

/** Per-call options. */
export interface ChatCallOptions {
  /** Aborting cancels the request (and any wait between retries): the failure CANCELLED. */
  readonly signal?: AbortSignal;
  /** Receives text and reasoning deltas of a streamed request, and retry notices. */
  readonly onEvent?: LlmEventSink;
}

/** A client bound to one server and protocol. */
export interface ChatClient {
  /** The URL requests are posted to. */
  readonly endpoint: string;
  /** Sends one request, retrying what may succeed later; resolves with the normalised response or the failure. */
  chat(request: ChatRequest, options?: ChatCallOptions): Promise<LlmResult<ChatResponse>>;
}

/** One protocol's stream accumulator behind one shape: feeding returns the failure a chunk reports, else null. */
interface StreamSink {
  feed(text: string): LlmFailure | null;
  end(): LlmResult<ChatResponse>;
}

/** Pushes each parsed item into the accumulator until one reports a failure. */
function pushAll<T>(items: readonly T[], push: (item: T) => LlmFailure | null): LlmFailure | null {
  for (const item of items) {
    const failure = push(item);
    if (failure) return failure;
  }
  return null;
}

/** A protocol's accumulator: takes one parsed item, reports a failure, adds up to the response. */
interface Accumulator<T> {
  push(item: T): LlmFailure | null;
  finish(): LlmResult<ChatResponse>;
}

/** A body parser (SSE events, NDJSON values): what each chunk completed, or why it cannot be read. */
interface BodyParser<T> {
  feed(text: string): LlmResult<readonly T[]>;
  end(): LlmResult<readonly T[]>;
}

/** A body parser feeding a protocol's accumulator: the first failure of either ends the stream. */
function parsedSink<T>(parser: BodyParser<T>, accumulator: Accumulator<T>): StreamSink {
  const take = (items: LlmResult<readonly T[]>): LlmFailure | null => (items.ok ? pushAll(items.value, (item) => accumulator.push(item)) : items.error);
  return {
    feed: (text) => take(parser.feed(text)),
    end: () => {
      const failure = take(parser.end());
      return failure ? { ok: false, error: failure } : accumulator.finish();
    },
  };
}

/** An event stream feeding an accumulator of SSE payloads (an event stream has no unreadable chunk). */
function sseSink(accumulator: { push(data: string, eventName: string | null): LlmFailure | null; finish(): LlmResult<ChatResponse> }): StreamSink {
  const sse = new SseParser();
  const parser: BodyParser<SseEvent> = { feed: (text) => ({ ok: true, value: sse.feed(text) }), end: () => ({ ok: true, value: sse.end() }) };
  return parsedSink(parser, { push: (event) => accumulator.push(event.data, event.event), finish: () => accumulator.finish() });
}

/** One wire protocol: where it posts, how it writes a request and reads a reply or a stream. */
interface ProtocolDialect {
  /** Appended to the base URL. */
  readonly path: string;
  /** The diagnostic added to a 404. */
  readonly notFoundHint: string;
  readonly body: (request: ChatRequest) => Record<string, unknown>;
  readonly normalise: (raw: unknown) => LlmResult<ChatResponse>;
  readonly stream: (onEvent: LlmEventSink) => StreamSink;
}

// One row per protocol. A 404 hint names the other OpenAI protocol: servers often speak only one.
const DIALECTS: Readonly<Record<LlmProtocol, ProtocolDialect>> = {
  completions: { path: '/chat/completions', notFoundHint: 'the server may not implement /chat/completions: try api = "responses"', body: completionsBody, normalise: normaliseCompletion, stream: (onEvent) => sseSink(new CompletionsStream(onEvent)) },
  responses: { path: '/responses', notFoundHint: 'the server may not implement /responses: try api = "completions"', body: responsesBody, normalise: normaliseResponse, stream: (onEvent) => sseSink(new ResponsesStream(onEvent)) },
  ollama: { path: '/api/chat', notFoundHint: 'check the model name (`ollama pull <model>`) and that OLLAMA_HOST points at Ollama itself', body: ollamaBody, normalise: normaliseOllama, stream: (onEvent) => parsedSink<unknown>(new NdjsonParser(), new OllamaStream(onEvent)) },
};

/** The URL a protocol's requests are posted to. */
export function endpointFor(baseUrl: string, protocol: LlmProtocol): string {
  return `${baseUrl.replace(/\/+$/, '')}${DIALECTS[protocol].path}`;
}

/** The diagnostic added to a 404: the server may speak the other OpenAI protocol, or lack the model. */
export function notFoundHint(protocol: LlmProtocol): string {
  return DIALECTS[protocol].notFoundHint;
}

/** The server's own words from an error body (OpenAI `{error:{message}}`, Ollama `{error}`), else the text. */
function errorDetail(body: string): string {
  const json = asRecord(tryParseJson(body));
  const error = json?.error;
  const message = typeof error === 'string' ? error : (asString(asRecord(error)?.message) ?? asString(json?.message));
  const text = (message ?? body).trim().replace(/\s+/g, ' ');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** What a non-2xx answer becomes: an HTTP failure with Retry-After and, for 404, the protocol hint. */
export function httpError(status: number, body: string, retryAfterMs: number | null, url: string, protocol: LlmProtocol): LlmFailure {
  const detail = errorDetail(body);
  const hint = status === 404 ? notFoundHint(protocol) : undefined;
  const message = `HTTP ${status} from ${url}${detail ? `: ${detail}` : ''}${hint ? ` (hint: ${hint})` : ''}`;
  return llmFailure('HTTP', message, { status, retryAfterMs, ...(hint ? { hint } : {}) });
}

/** A short description of a network failure (undici hides the useful part in `cause`). */
function describeNetworkError(error: unknown): string {
  const err = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = err.cause;
  return [cause?.code, cause?.message ?? err.message].filter(Boolean).join(' ') || String(error);
}

/**
 * Creates a client for /chat/completions, /responses or Ollama's /api/chat over the
 * platform's fetch. Timeouts, dropped connections, 429 and 5xx are retried with bounded
 * exponential backoff (Retry-After honoured) — but never once a streamed answer has started
 * reaching the caller, since a retry would repeat what they already received. Every expected
 * failure is a value (LlmFailure); only a bug throws.
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const endpoint = endpointFor(options.baseUrl, options.protocol);
  const dialect = DIALECTS[options.protocol];
  const policy = retryPolicy(options.retry);
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
    ...options.headers,
  };
  const cancelled = (): { readonly ok: false; readonly error: LlmFailure } => llmFail('CANCELLED', 'The request was cancelled.');

  /** Reads the response: one JSON document, or the stream through the protocol's accumulator. */
  async function readResponse(response: Response, request: ChatRequest, onEvent: LlmEventSink, rearm: () => void): Promise<LlmResult<ChatResponse>> {
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      return { ok: false, error: httpError(response.status, text, parseRetryAfter(response.headers.get('retry-after'), now()), endpoint, options.protocol) };
    }
    const contentType = response.headers.get('content-type') ?? '';
    // A server may ignore `stream: true` and answer with one JSON document.
    if (!request.stream || !response.body || (contentType.includes('application/json') && options.protocol !== 'ollama')) {
      const text = await response.text();
      const raw = tryParseJson(text);
      if (raw === null) return llmFail('BAD_RESPONSE', `The server's reply is not JSON: ${text.slice(0, 120)}`);
      return dialect.normalise(raw);
    }
    const sink = dialect.stream(onEvent);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rearm();
      const failure = sink.feed(decoder.decode(value, { stream: true }));
      if (failure) return { ok: false, error: failure };
    }
    const failure = sink.feed(decoder.decode());
    return failure ? { ok: false, error: failure } : sink.end();
  }

  async function attempt(request: ChatRequest, signal: AbortSignal | undefined, onEvent: LlmEventSink): Promise<LlmResult<ChatResponse>> {
    const controller = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, ms);
    };
    const onAbort = (): void => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      arm(timeoutMs);
      const body = JSON.stringify(dialect.body(request));
      const response = await doFetch(endpoint, { method: 'POST', headers, body, signal: controller.signal });
      arm(idleTimeoutMs);
      const result = await readResponse(response, request, onEvent, () => arm(idleTimeoutMs));
      // A failure read from a body cut by our own abort is the abort's, not the body's.
      if (!result.ok && signal?.aborted) return cancelled();
      return result;
    } catch (error) {
      // fetch and the body reader report the network (and our aborts) by throwing: those are expected.
      if (signal?.aborted) return cancelled();
      if (timedOut) return llmFail('TIMEOUT', `No answer from ${endpoint} within the time limit.`);
      return llmFail('CONNECTION', `The connection to ${endpoint} failed: ${describeNetworkError(error)}`);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      controller.abort(); // releases a body we did not read to the end
    }
  }

  return {
    endpoint,
    async chat(request, call = {}) {
      for (let retryIndex = 0; ; retryIndex += 1) {
        let delivered = false;
        const sink: LlmEventSink = (event) => {
          delivered = true;
          call.onEvent?.(event);
        };
        const outcome = await attempt(request, call.signal, sink);
        if (outcome.ok) return outcome;
        const failure = outcome.error;
        if (failure.code === 'CANCELLED' || !isRetryable(failure) || delivered || retryIndex >= policy.maxRetries) {
          if (retryIndex === 0) return outcome;
          return llmFail(failure.code, `${failure.message} (gave up after ${retryIndex + 1} attempts)`, failure.details);
        }
        const delayMs = backoffDelay(policy, retryIndex, failure.details.retryAfterMs ?? null);
        call.onEvent?.({ type: 'retry', attempt: retryIndex + 1, delayMs, reason: failure.message });
        try {
          await sleep(delayMs, call.signal);
        } catch {
          // abortableSleep rejects when the signal aborts: that is the caller cancelling.
          return cancelled();
        }
        if (call.signal?.aborted) return cancelled();
      }
    },
  };
}
