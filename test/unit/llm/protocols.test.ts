import { describe, expect, it } from 'vitest';
import { CompletionsStream, completionsBody, normaliseCompletion } from '../../../src/engine/llm/completions.js';
import type { LlmFailure, LlmResult } from '../../../src/engine/llm/errors.js';
import { normaliseOllama, ollamaBaseUrl, ollamaBody, OllamaStream } from '../../../src/engine/llm/ollama.js';
import { normaliseResponse, responsesBody, ResponsesStream } from '../../../src/engine/llm/responses.js';
import type { ChatRequest, LlmEvent } from '../../../src/engine/llm/types.js';
import { failureOf, valueOf } from '../../helpers/result.js';

const request: ChatRequest = {
  model: 'm',
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Weather in Paris?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' }] },
    { role: 'tool', toolCallId: 'call_1', content: '18°C' },
  ],
  tools: [{ name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
  temperature: 0.2,
  maxOutputTokens: 100,
  stream: true,
};

/** The failure a step reports: a failed result, or the failure a stream's push returns. */
function errorOf(outcome: LlmResult<unknown> | LlmFailure | null): LlmFailure {
  if (outcome === null || 'ok' in outcome) return failureOf(outcome ?? { ok: true, value: null });
  return outcome;
}

describe('/chat/completions', () => {
  it('sends the request in the chat shape', () => {
    expect(completionsBody(request)).toEqual({
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: '', tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: '18°C' },
      ],
      tools: [{ type: 'function', function: { name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      temperature: 0.2,
      max_tokens: 100,
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('normalises a response with tool calls and usage', () => {
    const response = valueOf(normaliseCompletion({
      id: 'c1',
      model: 'gpt',
      choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{"city":"Oslo"}' } }] }, finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }));
    expect(response).toEqual({
      id: 'c1',
      model: 'gpt',
      message: { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'weather', arguments: '{"city":"Oslo"}' }], reasoning: null, extra: {} },
      finishReason: 'tool_calls',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    });
    expect(errorOf(normaliseCompletion({ choices: [] })).code).toBe('BAD_RESPONSE');
  });

  it('accumulates streamed text and tool-call argument deltas by index', () => {
    const events: LlmEvent[] = [];
    const stream = new CompletionsStream((e) => events.push(e));
    stream.push(JSON.stringify({ id: 'c', model: 'gpt', choices: [{ delta: { role: 'assistant', content: 'Hel' } }] }));
    stream.push(JSON.stringify({ choices: [{ delta: { content: 'lo' } }] }));
    stream.push(JSON.stringify({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'weather', arguments: '{"ci' } }] } }] }));
    stream.push(JSON.stringify({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: 'ty":"Rome"}' } }] }, finish_reason: 'tool_calls' }] }));
    stream.push(JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }));
    stream.push('[DONE]');
    const response = valueOf(stream.finish());
    expect(response.message.content).toBe('Hello');
    expect(response.message.toolCalls).toEqual([{ id: 'call_1', name: 'weather', arguments: '{"city":"Rome"}' }]);
    expect(response.finishReason).toBe('tool_calls');
    expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 4, totalTokens: 7 });
    expect(events).toEqual([{ type: 'text-delta', text: 'Hel' }, { type: 'text-delta', text: 'lo' }]);
  });

  it('fails on an empty stream and on an error chunk', () => {
    expect(errorOf(new CompletionsStream().finish()).code).toBe('EMPTY_STREAM');
    const done = new CompletionsStream();
    done.push('[DONE]');
    expect(errorOf(done.finish()).code).toBe('EMPTY_STREAM');
    expect(errorOf(new CompletionsStream().push('{"error":{"message":"overloaded"}}')).code).toBe('RESPONSE_FAILED');
  });
});

describe('/responses', () => {
  it('moves system turns to instructions, other turns to input items, tools to the flat shape', () => {
    expect(responsesBody(request)).toEqual({
      model: 'm',
      instructions: 'Be brief.',
      input: [
        { role: 'user', content: [{ type: 'input_text', text: 'Weather in Paris?' }] },
        { type: 'function_call', call_id: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18°C' },
      ],
      tools: [{ type: 'function', name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      temperature: 0.2,
      max_output_tokens: 100,
      stream: true,
    });
  });

  it('normalises output text, function calls, usage, and keeps reasoning payloads in extra', () => {
    const reasoning = { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Check the tool.' }], encrypted_content: 'opaque' };
    const response = valueOf(normaliseResponse({
      id: 'resp_1',
      model: 'gpt-5',
      status: 'completed',
      output: [
        reasoning,
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Calling ' }, { type: 'output_text', text: 'the tool.' }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_7', name: 'weather', arguments: '{"city":"Lima"}' },
      ],
      usage: { input_tokens: 20, output_tokens: 8, total_tokens: 28 },
    }));
    expect(response).toEqual({
      id: 'resp_1',
      model: 'gpt-5',
      message: { role: 'assistant', content: 'Calling the tool.', toolCalls: [{ id: 'call_7', name: 'weather', arguments: '{"city":"Lima"}' }], reasoning: 'Check the tool.', extra: { reasoning: [reasoning] } },
      finishReason: 'completed',
      usage: { inputTokens: 20, outputTokens: 8, totalTokens: 28 },
    });
  });

  it('refuses a failed response', () => {
    expect(errorOf(normaliseResponse({ status: 'failed', error: { message: 'rate limited' } })).message).toContain('rate limited');
  });

  describe('ResponsesStream', () => {
    it('uses the response.completed payload when present, streaming deltas meanwhile', () => {
      const events: LlmEvent[] = [];
      const stream = new ResponsesStream((e) => events.push(e));
      stream.push(JSON.stringify({ type: 'response.created', response: { id: 'r' } }), 'response.created');
      stream.push(JSON.stringify({ type: 'response.reasoning_summary_text.delta', delta: 'Think' }));
      stream.push(JSON.stringify({ type: 'response.output_text.delta', delta: 'Hi' }));
      stream.push(JSON.stringify({ type: 'response.completed', response: { id: 'r', model: 'gpt-5', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hi there' }] }] } }));
      const response = valueOf(stream.finish());
      expect(response.message.content).toBe('Hi there');
      expect(response.id).toBe('r');
      expect(events).toEqual([{ type: 'reasoning-delta', text: 'Think' }, { type: 'text-delta', text: 'Hi' }]);
    });

    it('accepts response.done, and fills an empty completed payload from deltas and finished items', () => {
      const stream = new ResponsesStream();
      stream.push(JSON.stringify({ type: 'response.output_text.delta', delta: 'Answer' }));
      stream.push(JSON.stringify({ type: 'response.output_item.done', item: { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' } }));
      stream.push(JSON.stringify({ type: 'response.done', response: { id: 'r2', status: 'completed', output: [], usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } } }));
      const response = valueOf(stream.finish());
      expect(response.message.content).toBe('Answer');
      expect(response.message.toolCalls).toEqual([{ id: 'c1', name: 'f', arguments: '{}' }]);
      expect(response.usage).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3 });
    });

    it('falls back to the deltas when no completed event arrives', () => {
      const stream = new ResponsesStream();
      stream.push('{"type":"response.output_text.delta","delta":"part 1, "}', 'response.output_text.delta');
      stream.push('{"type":"response.output_text.delta","delta":"part 2"}', 'response.output_text.delta');
      expect(valueOf(stream.finish()).message.content).toBe('part 1, part 2');
    });

    it('errors on an empty stream, on response.failed and on an error event', () => {
      expect(errorOf(new ResponsesStream().finish()).code).toBe('EMPTY_STREAM');
      const failed = errorOf(new ResponsesStream().push(JSON.stringify({ type: 'response.failed', response: { status: 'failed', error: { code: 'server_error', message: 'The model crashed' } } })));
      expect(failed.code).toBe('RESPONSE_FAILED');
      expect(failed.message).toContain('The model crashed');
      expect(errorOf(new ResponsesStream().push(JSON.stringify({ type: 'error', message: 'bad key' }), 'error')).message).toContain('bad key');
    });
  });
});

describe('Ollama /api/chat', () => {
  it('sends messages, tools (arguments as objects) and options', () => {
    expect(ollamaBody(request)).toEqual({
      model: 'm',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Weather in Paris?' },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'weather', arguments: { city: 'Paris' } } }] },
        { role: 'tool', content: '18°C' },
      ],
      tools: [{ type: 'function', function: { name: 'weather', description: 'Current weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }],
      options: { temperature: 0.2, num_predict: 100 },
    });
  });

  it('normalises one reply and refuses an error reply', () => {
    const response = valueOf(normaliseOllama({ model: 'llama3.2', message: { role: 'assistant', content: 'ok', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] }, done: true, done_reason: 'stop', prompt_eval_count: 4, eval_count: 2 }));
    expect(response.message).toEqual({ role: 'assistant', content: 'ok', toolCalls: [{ id: 'call_0', name: 'f', arguments: '{"a":1}' }], reasoning: null, extra: {} });
    expect(response.usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: 6 });
    expect(errorOf(normaliseOllama({ error: 'model "x" not found' })).message).toContain('model "x" not found');
  });

  it('accumulates the NDJSON stream, and needs the final done line', () => {
    const events: LlmEvent[] = [];
    const stream = new OllamaStream((e) => events.push(e));
    stream.push({ model: 'llama3.2', message: { role: 'assistant', content: 'Hel' }, done: false });
    stream.push({ model: 'llama3.2', message: { role: 'assistant', content: 'lo' }, done: false });
    stream.push({ model: 'llama3.2', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', eval_count: 2 });
    expect(valueOf(stream.finish()).message.content).toBe('Hello');
    expect(events.map((e) => (e.type === 'text-delta' ? e.text : ''))).toEqual(['Hel', 'lo']);
    const cut = new OllamaStream();
    cut.push({ message: { content: 'Hel' }, done: false });
    expect(errorOf(cut.finish()).code).toBe('CONNECTION');
    expect(errorOf(new OllamaStream().finish()).code).toBe('EMPTY_STREAM');
    expect(errorOf(new OllamaStream().push({ error: 'out of memory' })).code).toBe('RESPONSE_FAILED');
  });

  it.each([
    [undefined, 'http://localhost:11434'],
    ['', 'http://localhost:11434'],
    ['127.0.0.1', 'http://127.0.0.1:11434'],
    ['0.0.0.0', 'http://127.0.0.1:11434'],
    [':11435', 'http://127.0.0.1:11435'],
    ['gpu-box:8080', 'http://gpu-box:8080'],
    ['localhost:80', 'http://localhost'],
    ['http://gpu-box:11434/', 'http://gpu-box:11434'],
    ['https://ollama.example.com', 'https://ollama.example.com'],
  ])('reads OLLAMA_HOST %j as %s', (raw, url) => {
    expect(ollamaBaseUrl(raw)).toBe(url);
  });
});
