import { assertNever } from '../result.js';
import { CompletionsStream, completionsBody, normaliseCompletion } from './completions.js';
import { LlmError } from './errors.js';
import { asRecord, asString, tryParseJson } from './json.js';
import { NdjsonParser } from './ndjson.js';
import { OllamaStream, normaliseOllama, ollamaBody } from './ollama.js';
import { ResponsesStream, normaliseResponse, responsesBody } from './responses.js';
import { abortableSleep, backoffDelay, parseRetryAfter, retryPolicy, type RetryPolicy } from './retry.js';
import { SseParser } from './sse.js';
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
  /** Aborting cancels the request (and any wait between retries) with LlmError CANCELLED. */
  readonly signal?: AbortSignal;
  /** Receives text and reasoning deltas of a streamed request, and retry notices. */
  readonly onEvent?: LlmEventSink;
}

/** A client bound to one server and protocol. */
export interface ChatClient {
  /** The URL requests are posted to. */
  readonly endpoint: string;
  /** Sends one request, retrying what may succeed later; resolves with the normalised response. */
  chat(request: ChatRequest, options?: ChatCallOptions): Promise<ChatResponse>;
}

/** The endpoint path of each protocol. */
export function endpointFor(baseUrl: string, protocol: LlmProtocol): string {
  const base = baseUrl.replace(/\/+$/, '');
  switch (protocol) {
    case 'completions':
      return `${base}/chat/completions`;
    case 'responses':
      return `${base}/responses`;
    case 'ollama':
      return `${base}/api/chat`;
    default:
      return assertNever(protocol);
  }
}

/** The diagnostic added to a 404: the server may speak the other OpenAI protocol. */
export function notFoundHint(protocol: LlmProtocol): string {
  switch (protocol) {
    case 'responses':
      return 'the server may not implement /responses: try api = "completions"';
    case 'completions':
      return 'the server may not implement /chat/completions: try api = "responses"';
    case 'ollama':
      return 'check the model name (`ollama pull <model>`) and that OLLAMA_HOST points at Ollama itself';
    default:
      return assertNever(protocol);
  }
}

function requestBody(request: ChatRequest, protocol: LlmProtocol): Record<string, unknown> {
  switch (protocol) {
    case 'completions':
      return completionsBody(request);
    case 'responses':
      return responsesBody(request);
    case 'ollama':
      return ollamaBody(request);
    default:
      return assertNever(protocol);
  }
}

function normalise(raw: unknown, protocol: LlmProtocol): ChatResponse {
  switch (protocol) {
    case 'completions':
      return normaliseCompletion(raw);
    case 'responses':
      return normaliseResponse(raw);
    case 'ollama':
      return normaliseOllama(raw);
    default:
      return assertNever(protocol);
  }
}

/** The server's own words from an error body (OpenAI `{error:{message}}`, Ollama `{error}`), else the text. */
function errorDetail(body: string): string {
  const json = asRecord(tryParseJson(body));
  const error = json?.error;
  const message = typeof error === 'string' ? error : (asString(asRecord(error)?.message) ?? asString(json?.message));
  const text = (message ?? body).trim().replace(/\s+/g, ' ');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** What a non-2xx answer becomes: an HTTP error with Retry-After and, for 404, the protocol hint. */
export function httpError(status: number, body: string, retryAfterMs: number | null, url: string, protocol: LlmProtocol): LlmError {
  const detail = errorDetail(body);
  const hint = status === 404 ? notFoundHint(protocol) : undefined;
  const message = `HTTP ${status} from ${url}${detail ? `: ${detail}` : ''}${hint ? ` (hint: ${hint})` : ''}`;
  return new LlmError('HTTP', message, { status, retryAfterMs, ...(hint ? { hint } : {}) });
}

/** A short description of a network failure (undici hides the useful part in `cause`). */
function describeNetworkError(error: unknown): string {
  const err = error as { message?: string; cause?: { code?: string; message?: string } };
  const cause = err.cause;
  return [cause?.code, cause?.message ?? err.message].filter(Boolean).join(' ') || String(error);
}

/** One protocol's stream accumulator behind one shape. */
interface StreamSink {
  feed(text: string): void;
  end(): ChatResponse;
}

function streamSink(protocol: LlmProtocol, onEvent: LlmEventSink): StreamSink {
  switch (protocol) {
    case 'completions': {
      const sse = new SseParser();
      const acc = new CompletionsStream(onEvent);
      return {
        feed: (text) => sse.feed(text).forEach((e) => acc.push(e.data)),
        end: () => (sse.end().forEach((e) => acc.push(e.data)), acc.finish()),
      };
    }
    case 'responses': {
      const sse = new SseParser();
      const acc = new ResponsesStream(onEvent);
      return {
        feed: (text) => sse.feed(text).forEach((e) => acc.push(e.event, e.data)),
        end: () => (sse.end().forEach((e) => acc.push(e.event, e.data)), acc.finish()),
      };
    }
    case 'ollama': {
      const nd = new NdjsonParser();
      const acc = new OllamaStream(onEvent);
      return {
        feed: (text) => nd.feed(text).forEach((v) => acc.push(v)),
        end: () => (nd.end().forEach((v) => acc.push(v)), acc.finish()),
      };
    }
    default:
      return assertNever(protocol);
  }
}

/**
 * Creates a client for /chat/completions, /responses or Ollama's /api/chat over the
 * platform's fetch. Timeouts, dropped connections, 429 and 5xx are retried with bounded
 * exponential backoff (Retry-After honoured) — but never once a streamed answer has started
 * reaching the caller, since a retry would repeat what they already received.
 */
export function createChatClient(options: ChatClientOptions): ChatClient {
  const endpoint = endpointFor(options.baseUrl, options.protocol);
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

  async function attempt(request: ChatRequest, signal: AbortSignal | undefined, onEvent: LlmEventSink): Promise<ChatResponse> {
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
      const body = JSON.stringify(requestBody(request, options.protocol));
      const response = await doFetch(endpoint, { method: 'POST', headers, body, signal: controller.signal });
      arm(idleTimeoutMs);
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw httpError(response.status, text, parseRetryAfter(response.headers.get('retry-after'), now()), endpoint, options.protocol);
      }
      const contentType = response.headers.get('content-type') ?? '';
      // A server may ignore `stream: true` and answer with one JSON document.
      if (!request.stream || !response.body || (contentType.includes('application/json') && options.protocol !== 'ollama')) {
        const text = await response.text();
        const raw = tryParseJson(text);
        if (raw === null) throw new LlmError('BAD_RESPONSE', `The server's reply is not JSON: ${text.slice(0, 120)}`);
        return normalise(raw, options.protocol);
      }
      const sink = streamSink(options.protocol, onEvent);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        arm(idleTimeoutMs);
        sink.feed(decoder.decode(value, { stream: true }));
      }
      sink.feed(decoder.decode());
      return sink.end();
    } catch (error) {
      if (signal?.aborted) throw new LlmError('CANCELLED', 'The request was cancelled.');
      if (timedOut) throw new LlmError('TIMEOUT', `No answer from ${endpoint} within the time limit.`);
      if (error instanceof LlmError) throw error;
      throw new LlmError('CONNECTION', `The connection to ${endpoint} failed: ${describeNetworkError(error)}`);
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
        try {
          return await attempt(request, call.signal, sink);
        } catch (error) {
          const failure = error as LlmError;
          if (failure.code === 'CANCELLED' || !failure.retryable || delivered || retryIndex >= policy.maxRetries) {
            if (retryIndex === 0) throw failure;
            throw new LlmError(failure.code, `${failure.message} (gave up after ${retryIndex + 1} attempts)`, failure.details);
          }
          const delayMs = backoffDelay(policy, retryIndex, failure.details.retryAfterMs ?? null);
          call.onEvent?.({ type: 'retry', attempt: retryIndex + 1, delayMs, reason: failure.message });
          try {
            await sleep(delayMs, call.signal);
          } catch {
            throw new LlmError('CANCELLED', 'The request was cancelled.');
          }
          if (call.signal?.aborted) throw new LlmError('CANCELLED', 'The request was cancelled.');
        }
      }
    },
  };
}
