import { chatBody, type ChatDialect } from './chat-wire.js';
import { llmFail, llmFailure, type LlmFailure, type LlmResult } from './errors.js';
import { asArray, asNumber, asRecord, asString, tryParseJson, type JsonRecord } from './json.js';
import type { ChatRequest, ChatResponse, LlmEventSink, ToolCall, Usage } from './types.js';

const COMPLETIONS_DIALECT: ChatDialect = {
  toolCall: (c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } }),
  toolResult: (message) => ({ role: 'tool', tool_call_id: message.toolCallId, content: message.content }),
};

/** Translates a request to the body of POST {base}/chat/completions. */
export function completionsBody(request: ChatRequest): Record<string, unknown> {
  const body = chatBody(request, COMPLETIONS_DIALECT);
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) body.max_tokens = request.maxOutputTokens;
  if (request.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

/** Text of a content field that may be a string, null, or an array of parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return asArray(content)
    .map((part) => asString(asRecord(part)?.text) ?? '')
    .join('');
}

function usageOf(raw: unknown): Usage | null {
  const usage = asRecord(raw);
  if (!usage) return null;
  const input = asNumber(usage.prompt_tokens) ?? asNumber(usage.input_tokens) ?? 0;
  const output = asNumber(usage.completion_tokens) ?? asNumber(usage.output_tokens) ?? 0;
  return { inputTokens: input, outputTokens: output, totalTokens: asNumber(usage.total_tokens) ?? input + output };
}

function toolCallsOf(raw: unknown): ToolCall[] {
  return asArray(raw).flatMap((item) => {
    const call = asRecord(item);
    const fn = asRecord(call?.function);
    const name = asString(fn?.name);
    if (!call || !name) return [];
    const args = fn?.arguments;
    return [{ id: asString(call.id) ?? '', name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) }];
  });
}

/** Normalises a /chat/completions response body. */
export function normaliseCompletion(raw: unknown): LlmResult<ChatResponse> {
  const body = asRecord(raw);
  const choice = asRecord(asArray(body?.choices)[0]);
  const message = asRecord(choice?.message);
  if (!body || !message) return llmFail('BAD_RESPONSE', 'The /chat/completions response has no choices[0].message.');
  const reasoning = asString(message.reasoning_content) ?? asString(message.reasoning);
  return {
    ok: true,
    value: {
      id: asString(body.id),
      model: asString(body.model),
      message: { role: 'assistant', content: contentText(message.content), toolCalls: toolCallsOf(message.tool_calls), reasoning, extra: {} },
      finishReason: asString(choice?.finish_reason),
      usage: usageOf(body.usage),
    },
  };
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/** Accumulates streamed /chat/completions chunks (`data: {...}` … `data: [DONE]`). */
export class CompletionsStream {
  private content = '';
  private reasoning = '';
  private readonly calls = new Map<number, PartialCall>();
  private id: string | null = null;
  private model: string | null = null;
  private finishReason: string | null = null;
  private usage: Usage | null = null;
  private sawChunk = false;
  private sawDone = false;

  constructor(private readonly onEvent?: LlmEventSink) {}

  /** Takes one SSE data payload; returns the failure it reports (an error chunk, data that is not JSON), else null. */
  push(data: string): LlmFailure | null {
    if (data.trim() === '[DONE]') {
      this.sawDone = true;
      return null;
    }
    const chunk = parseChunk(data);
    if (!chunk) return llmFailure('BAD_RESPONSE', `The stream carried data that is not a JSON object: ${data.slice(0, 120)}`);
    const error = asRecord(chunk.error);
    if (error) return llmFailure('RESPONSE_FAILED', `The server reported an error mid-stream: ${asString(error.message) ?? JSON.stringify(error)}`);
    this.sawChunk = true;
    this.id ??= asString(chunk.id);
    this.model ??= asString(chunk.model);
    this.usage = usageOf(chunk.usage) ?? this.usage;
    const choice = asRecord(asArray(chunk.choices)[0]);
    if (!choice) return null;
    this.finishReason = asString(choice.finish_reason) ?? this.finishReason;
    const delta = asRecord(choice.delta);
    const text = contentText(delta?.content);
    if (text) {
      this.content += text;
      this.onEvent?.({ type: 'text-delta', text });
    }
    const thought = asString(delta?.reasoning_content) ?? asString(delta?.reasoning);
    if (thought) {
      this.reasoning += thought;
      this.onEvent?.({ type: 'reasoning-delta', text: thought });
    }
    for (const item of asArray(delta?.tool_calls)) {
      const call = asRecord(item);
      if (!call) continue;
      const index = asNumber(call.index) ?? this.calls.size;
      const fn = asRecord(call.function);
      const current = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
      current.id = asString(call.id) ?? current.id;
      current.name += asString(fn?.name) ?? '';
      current.arguments += asString(fn?.arguments) ?? '';
      this.calls.set(index, current);
    }
    return null;
  }

  /** The response the chunks add up to; fails when the stream carried nothing. */
  finish(): LlmResult<ChatResponse> {
    if (!this.sawChunk) return llmFail('EMPTY_STREAM', this.sawDone ? 'The stream ended with [DONE] and no content.' : 'The stream ended without any event.');
    const toolCalls = [...this.calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => ({ ...c }));
    return {
      ok: true,
      value: {
        id: this.id,
        model: this.model,
        message: { role: 'assistant', content: this.content, toolCalls, reasoning: this.reasoning || null, extra: {} },
        finishReason: this.finishReason,
        usage: this.usage,
      },
    };
  }
}

function parseChunk(data: string): JsonRecord | null {
  return asRecord(tryParseJson(data));
}
