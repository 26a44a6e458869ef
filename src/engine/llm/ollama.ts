import { chatBody, type ChatDialect } from './chat-wire.js';
import { llmFail, llmFailure, type LlmFailure, type LlmResult } from './errors.js';
import { asArray, asNumber, asRecord, asString, tryParseJson, type JsonRecord } from './json.js';
import type { ChatRequest, ChatResponse, LlmEventSink, ToolCall, Usage } from './types.js';

/** Ollama's default address. */
export const DEFAULT_OLLAMA_HOST = 'http://localhost:11434';

/**
 * The base URL for an OLLAMA_HOST value, which Ollama accepts as "host", "host:port" or a
 * full URL: a missing scheme becomes http, a missing host 127.0.0.1, a missing port 11434,
 * and 0.0.0.0 (a listen address) is dialled as 127.0.0.1.
 */
export function ollamaBaseUrl(raw: string | undefined): string {
  let value = raw?.trim();
  if (!value) return DEFAULT_OLLAMA_HOST;
  // Ollama reads a port alone (":11435") as that port on its default host.
  if (/^:\d+$/.test(value)) value = `127.0.0.1${value}`;
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  try {
    const url = new URL(hasScheme ? value : `http://${value}`);
    // Like Ollama itself: a bare host gets 11434; an explicit scheme keeps its own default port.
    if (!hasScheme && !/^[^/]*:\d+(\/|$)/.test(value)) url.port = '11434';
    if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return (hasScheme ? value : `http://${value}`).replace(/\/+$/, '');
  }
}

const OLLAMA_DIALECT: ChatDialect = {
  // Ollama takes arguments as an object, not as JSON text, and gives calls no ids.
  toolCall: (c) => ({ function: { name: c.name, arguments: asRecord(tryParseJson(c.arguments)) ?? {} } }),
  toolResult: (message) => ({ role: 'tool', content: message.content }),
};

/** Translates a request to the body of POST {host}/api/chat. */
export function ollamaBody(request: ChatRequest): Record<string, unknown> {
  const body = { ...chatBody(request, OLLAMA_DIALECT), stream: request.stream ?? false };
  const options: Record<string, unknown> = {};
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) options.num_predict = request.maxOutputTokens;
  return Object.keys(options).length > 0 ? { ...body, options } : body;
}

function toolCallsOf(raw: unknown, offset: number): ToolCall[] {
  return asArray(raw).flatMap((item, index) => {
    const fn = asRecord(asRecord(item)?.function);
    const name = asString(fn?.name);
    if (!name) return [];
    const args = fn?.arguments;
    // Ollama gives calls no ids; number them so tool results can refer back.
    return [{ id: asString(asRecord(item)?.id) ?? `call_${offset + index}`, name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) }];
  });
}

function usageOf(body: JsonRecord): Usage | null {
  const input = asNumber(body.prompt_eval_count);
  const output = asNumber(body.eval_count);
  if (input === null && output === null) return null;
  return { inputTokens: input ?? 0, outputTokens: output ?? 0, totalTokens: (input ?? 0) + (output ?? 0) };
}

function errorOf(body: JsonRecord): string | null {
  const error = body.error;
  return typeof error === 'string' ? error : asString(asRecord(error)?.message);
}

/** Normalises a non-streamed /api/chat reply. */
export function normaliseOllama(raw: unknown): LlmResult<ChatResponse> {
  const body = asRecord(raw);
  if (!body) return llmFail('BAD_RESPONSE', 'The /api/chat reply is not a JSON object.');
  const error = errorOf(body);
  if (error) return llmFail('RESPONSE_FAILED', `Ollama reported an error: ${error}`);
  const message = asRecord(body.message);
  if (!message) return llmFail('BAD_RESPONSE', 'The /api/chat reply has no message.');
  const thinking = asString(message.thinking);
  return {
    ok: true,
    value: {
      id: null,
      model: asString(body.model),
      message: { role: 'assistant', content: asString(message.content) ?? '', toolCalls: toolCallsOf(message.tool_calls, 0), reasoning: thinking || null, extra: {} },
      finishReason: asString(body.done_reason),
      usage: usageOf(body),
    },
  };
}

/** Accumulates Ollama's NDJSON stream: one `{message, done}` object per line. */
export class OllamaStream {
  private content = '';
  private thinking = '';
  private readonly calls: ToolCall[] = [];
  private model: string | null = null;
  private finishReason: string | null = null;
  private usage: Usage | null = null;
  private lines = 0;
  private done = false;

  constructor(private readonly onEvent?: LlmEventSink) {}

  /** Takes one parsed line; returns the failure it reports (an error line, a line that is not an object), else null. */
  push(value: unknown): LlmFailure | null {
    const body = asRecord(value);
    if (!body) return llmFailure('BAD_RESPONSE', 'The /api/chat stream carried a line that is not a JSON object.');
    const error = errorOf(body);
    if (error) return llmFailure('RESPONSE_FAILED', `Ollama reported an error: ${error}`);
    this.lines += 1;
    this.model ??= asString(body.model);
    const message = asRecord(body.message);
    const text = asString(message?.content) ?? '';
    if (text) {
      this.content += text;
      this.onEvent?.({ type: 'text-delta', text });
    }
    const thought = asString(message?.thinking) ?? '';
    if (thought) {
      this.thinking += thought;
      this.onEvent?.({ type: 'reasoning-delta', text: thought });
    }
    this.calls.push(...toolCallsOf(message?.tool_calls, this.calls.length));
    if (body.done === true) {
      this.done = true;
      this.finishReason = asString(body.done_reason);
      this.usage = usageOf(body);
    }
    return null;
  }

  /** The response the lines add up to; a stream with no line, or cut before `done`, is an error. */
  finish(): LlmResult<ChatResponse> {
    if (this.lines === 0) return llmFail('EMPTY_STREAM', 'Ollama ended the stream without any line.');
    if (!this.done) return llmFail('CONNECTION', 'Ollama ended the stream before its final (done) line.');
    return {
      ok: true,
      value: {
        id: null,
        model: this.model,
        message: { role: 'assistant', content: this.content, toolCalls: [...this.calls], reasoning: this.thinking || null, extra: {} },
        finishReason: this.finishReason,
        usage: this.usage,
      },
    };
  }
}
