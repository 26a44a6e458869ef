import { assertNever } from '../result.js';
import { llmFail, llmFailure, type LlmFailure, type LlmResult } from './errors.js';
import { asArray, asNumber, asRecord, asString, tryParseJson, type JsonRecord } from './json.js';
import type { ChatMessage, ChatRequest, ChatResponse, LlmEventSink, ToolCall, Usage } from './types.js';

/**
 * Translates a request to the body of POST {base}/responses: system turns become
 * `instructions`, the other turns `input` items, tools the flat function-tool shape.
 */
export function responsesBody(request: ChatRequest): Record<string, unknown> {
  const instructions = request.messages.filter((m) => m.role === 'system').map((m) => m.content);
  const body: Record<string, unknown> = {
    model: request.model,
    input: request.messages.flatMap(inputItems),
  };
  if (instructions.length > 0) body.instructions = instructions.join('\n\n');
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ type: 'function', name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters }));
  }
  if (request.temperature !== undefined) body.temperature = request.temperature;
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (request.stream) body.stream = true;
  return body;
}

function inputItems(message: ChatMessage): Record<string, unknown>[] {
  switch (message.role) {
    case 'system':
      return [];
    case 'user':
      return [{ role: 'user', content: [{ type: 'input_text', text: message.content }] }];
    case 'assistant': {
      const items: Record<string, unknown>[] = [];
      if (message.content) items.push({ role: 'assistant', content: [{ type: 'output_text', text: message.content }] });
      for (const call of message.toolCalls ?? []) items.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments });
      return items;
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }];
    default:
      return assertNever(message);
  }
}

function usageOf(raw: unknown): Usage | null {
  const usage = asRecord(raw);
  if (!usage) return null;
  const input = asNumber(usage.input_tokens) ?? 0;
  const output = asNumber(usage.output_tokens) ?? 0;
  return { inputTokens: input, outputTokens: output, totalTokens: asNumber(usage.total_tokens) ?? input + output };
}

function textParts(parts: unknown, types: readonly string[]): string {
  return asArray(parts)
    .map((part) => {
      const p = asRecord(part);
      return p && types.includes(asString(p.type) ?? '') ? (asString(p.text) ?? '') : '';
    })
    .join('');
}

function failureMessage(response: JsonRecord | null, fallback: string): string {
  const error = asRecord(response?.error);
  return asString(error?.message) ?? asString(response?.message) ?? fallback;
}

/** Normalises a /responses response object (also the payload of `response.completed`). */
export function normaliseResponse(raw: unknown): LlmResult<ChatResponse> {
  const body = asRecord(raw);
  if (!body) return llmFail('BAD_RESPONSE', 'The /responses reply is not a JSON object.');
  if (asString(body.status) === 'failed') return llmFail('RESPONSE_FAILED', `The response failed: ${failureMessage(body, 'no reason given')}`);
  return { ok: true, value: responseOf(body) };
}

/** The response a /responses object (already known not to have failed) describes. */
function responseOf(body: JsonRecord): ChatResponse {
  let content = '';
  const toolCalls: ToolCall[] = [];
  const reasoningItems: unknown[] = [];
  const reasoningText: string[] = [];
  for (const entry of asArray(body.output)) {
    const item = asRecord(entry);
    switch (asString(item?.type)) {
      case 'message':
        content += textParts(item?.content, ['output_text', 'refusal']);
        break;
      case 'function_call':
        toolCalls.push({
          id: asString(item?.call_id) ?? asString(item?.id) ?? '',
          name: asString(item?.name) ?? '',
          arguments: asString(item?.arguments) ?? '{}',
        });
        break;
      case 'reasoning': {
        reasoningItems.push(entry);
        const text = textParts(item?.summary, ['summary_text']) || textParts(item?.content, ['reasoning_text']);
        if (text) reasoningText.push(text);
        break;
      }
      default:
        break; // web searches, file searches and the like carry nothing the client acts on
    }
  }
  if (!content) content = asString(body.output_text) ?? '';
  const incomplete = asString(asRecord(body.incomplete_details)?.reason);
  return {
    id: asString(body.id),
    model: asString(body.model),
    message: {
      role: 'assistant',
      content,
      toolCalls,
      reasoning: reasoningText.length > 0 ? reasoningText.join('\n') : null,
      extra: reasoningItems.length > 0 ? { reasoning: reasoningItems } : {},
    },
    finishReason: incomplete ?? asString(body.status),
    usage: usageOf(body.usage),
  };
}

/**
 * Accumulates a streamed /responses body: text and reasoning deltas as they come, finished
 * output items, and the `response.completed` / `response.done` payload when the server sends
 * one. Without that payload the deltas make the message; with neither the stream is an error.
 */
export class ResponsesStream {
  private text = '';
  private reasoning = '';
  private readonly items: unknown[] = [];
  private completed: ChatResponse | null = null;

  constructor(private readonly onEvent?: LlmEventSink) {}

  /** Takes one SSE event (its data payload, and its name when it has one); returns the failure it reports, else null. */
  push(data: string, eventName: string | null = null): LlmFailure | null {
    if (data.trim() === '[DONE]') return null;
    const payload = asRecord(tryParseJson(data));
    if (!payload) return llmFailure('BAD_RESPONSE', `The stream carried data that is not a JSON object: ${data.slice(0, 120)}`);
    const type = asString(payload.type) ?? eventName ?? '';
    switch (type) {
      case 'response.output_text.delta':
        this.addText(asString(payload.delta) ?? '');
        break;
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta': {
        const delta = asString(payload.delta) ?? '';
        if (delta) {
          this.reasoning += delta;
          this.onEvent?.({ type: 'reasoning-delta', text: delta });
        }
        break;
      }
      case 'response.output_item.done':
        if (payload.item !== undefined) this.items.push(payload.item);
        break;
      case 'response.completed':
      case 'response.done':
      case 'response.incomplete': {
        const completed = normaliseResponse(payload.response);
        if (!completed.ok) return completed.error;
        this.completed = completed.value;
        break;
      }
      case 'response.failed':
        return llmFailure('RESPONSE_FAILED', `The response failed: ${failureMessage(asRecord(payload.response), 'no reason given')}`);
      case 'error':
        return llmFailure('RESPONSE_FAILED', `The server reported an error mid-stream: ${failureMessage(payload, asString(payload.code) ?? 'unknown error')}`);
      default:
        break; // created, in_progress, content_part.added, argument deltas: nothing to keep
    }
    return null;
  }

  private addText(delta: string): void {
    if (!delta) return;
    this.text += delta;
    this.onEvent?.({ type: 'text-delta', text: delta });
  }

  /** The response the stream adds up to. */
  finish(): LlmResult<ChatResponse> {
    const fromItems = this.items.length > 0 ? responseOf({ output: this.items }) : null;
    if (this.completed) {
      // Some servers (the ChatGPT Codex backend among them) send `response.completed` with an
      // empty output list: the deltas and finished items are then the only record of the answer.
      const done = this.completed;
      const message = done.message;
      return {
        ok: true,
        value: {
          ...done,
          message: {
            ...message,
            content: message.content || this.text || fromItems?.message.content || '',
            toolCalls: message.toolCalls.length > 0 ? message.toolCalls : (fromItems?.message.toolCalls ?? []),
            reasoning: message.reasoning ?? (this.reasoning || fromItems?.message.reasoning || null),
            extra: Object.keys(message.extra).length > 0 ? message.extra : (fromItems?.message.extra ?? {}),
          },
        },
      };
    }
    const content = this.text || fromItems?.message.content || '';
    const toolCalls = fromItems?.message.toolCalls ?? [];
    if (!content && toolCalls.length === 0) return llmFail('EMPTY_STREAM', 'The stream ended without a completed response or any output text.');
    return {
      ok: true,
      value: {
        id: null,
        model: null,
        message: { role: 'assistant', content, toolCalls, reasoning: this.reasoning || fromItems?.message.reasoning || null, extra: fromItems?.message.extra ?? {} },
        finishReason: null,
        usage: null,
      },
    };
  }
}
