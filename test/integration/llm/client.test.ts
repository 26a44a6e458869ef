import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createChatClient, type ChatClientOptions } from '../../../src/engine/llm/client.js';
import type { ChatRequest, LlmEvent } from '../../../src/engine/llm/types.js';
import { completionChunks, ollamaLines, startLlmServer, type LlmServer } from '../../helpers/llm-server.js';
import { fails, succeeds } from '../../helpers/result.js';

const ask: ChatRequest = { model: 'test-model', messages: [{ role: 'user', content: 'Say hello' }] };
const streamed: ChatRequest = { ...ask, stream: true };

/** A client whose retries wait 1 ms and whose requested waits are recorded. */
function client(server: LlmServer, options: Partial<ChatClientOptions> = {}): { client: ReturnType<typeof createChatClient>; waits: number[] } {
  const waits: number[] = [];
  const made = createChatClient({
    baseUrl: `${server.url}/v1`,
    protocol: 'completions',
    apiKey: 'sk-test-key-123456',
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 4 },
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...options,
  });
  return { client: made, waits };
}

describe('HTTP model client', () => {
  describe('/chat/completions', () => {
    it('posts the request with the bearer key and normalises the reply', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'json', body: { id: 'c1', model: 'test-model', choices: [{ message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } } });
      const response = await succeeds(client(server).client.chat(ask));
      expect(response.message.content).toBe('Hello!');
      expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 2, totalTokens: 5 });
      const [request] = server.requests;
      expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'test-model', messages: [{ role: 'user', content: 'Say hello' }] } });
      expect(request!.headers.authorization).toBe('Bearer sk-test-key-123456');
    });

    it('streams SSE deltas to the caller and returns the whole message', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'sse', events: completionChunks(['Hel', 'lo', ' world']) });
      const events: LlmEvent[] = [];
      const response = await succeeds(client(server).client.chat(streamed, { onEvent: (e) => events.push(e) }));
      expect(response.message.content).toBe('Hello world');
      expect(response.usage?.outputTokens).toBe(3);
      expect(events).toEqual([
        { type: 'text-delta', text: 'Hel' },
        { type: 'text-delta', text: 'lo' },
        { type: 'text-delta', text: ' world' },
      ]);
      expect(server.requests[0]!.body).toMatchObject({ stream: true });
    });

    it('delivers deltas of a slow stream as they arrive, not at the end', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'sse', events: completionChunks(['a', 'b', 'c', 'd']), delayMs: 80 });
      const started = Date.now();
      const seen: number[] = [];
      await succeeds(client(server).client.chat(streamed, { onEvent: () => seen.push(Date.now() - started) }));
      const total = Date.now() - started;
      expect(seen).toHaveLength(4);
      expect(seen[0]!).toBeLessThan(total - 150);
    });

    it('accepts a server that ignores stream: true and answers with one JSON document', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'json', body: { choices: [{ message: { content: 'whole' } }] } });
      expect((await succeeds(client(server).client.chat(streamed))).message.content).toBe('whole');
    });
  });

  describe('/responses', () => {
    it('streams and uses the response.completed payload', async () => {
      const server = await startLlmServer();
      server.script({
        kind: 'sse',
        events: [
          { type: 'response.created', response: { id: 'resp_1' } },
          { type: 'response.output_text.delta', delta: 'Hi' },
          { type: 'response.output_text.delta', delta: ' there' },
          { type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hi there' }] }], usage: { input_tokens: 2, output_tokens: 2, total_tokens: 4 } } },
        ],
      });
      const response = await succeeds(client(server, { protocol: 'responses' }).client.chat({ ...streamed, messages: [{ role: 'system', content: 'Be kind.' }, ...streamed.messages] }));
      expect(response.message.content).toBe('Hi there');
      expect(server.requests[0]).toMatchObject({ path: '/v1/responses', body: { instructions: 'Be kind.', input: [{ role: 'user' }] } });
    });

    it('fails with RESPONSE_FAILED on response.failed, and EMPTY_STREAM on an empty stream', async () => {
      const server = await startLlmServer();
      server.script(
        { kind: 'sse', events: [{ type: 'response.failed', response: { status: 'failed', error: { message: 'model overloaded' } } }] },
        { kind: 'sse', events: [] },
      );
      const { client: c } = client(server, { protocol: 'responses' });
      const failed = await fails(c.chat(streamed));
      expect(failed.code).toBe('RESPONSE_FAILED');
      expect(failed.message).toContain('model overloaded');
      expect((await fails(c.chat(streamed))).code).toBe('EMPTY_STREAM');
    });

    it('adds the protocol hint to a 404, without retrying', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'json', status: 404, body: { error: { message: 'Not Found' } } });
      const error = await fails(client(server, { protocol: 'responses' }).client.chat(ask));
      expect(error.code).toBe('HTTP');
      expect(error.details.status).toBe(404);
      expect(error.message).toContain('try api = "completions"');
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('retries', () => {
    it('honours Retry-After on 429, then succeeds', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'json', status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '2' } }, { kind: 'json', body: { choices: [{ message: { content: 'ok' } }] } });
      const events: LlmEvent[] = [];
      const { client: c, waits } = client(server);
      const response = await succeeds(c.chat(ask, { onEvent: (e) => events.push(e) }));
      expect(response.message.content).toBe('ok');
      expect(waits).toEqual([2000]);
      expect(events[0]).toMatchObject({ type: 'retry', attempt: 1, delayMs: 2000 });
      expect(server.requests).toHaveLength(2);
    });

    it('backs off exponentially on 5xx and gives up after the bounded number of retries', async () => {
      const server = await startLlmServer();
      server.fallback = () => ({ kind: 'text', status: 503, body: 'Service Unavailable' });
      const { client: c, waits } = client(server, { retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 100 } });
      const error = await fails(c.chat(ask));
      expect(error.code).toBe('HTTP');
      expect(error.details.status).toBe(503);
      expect(error.message).toContain('gave up after 4 attempts');
      expect(waits).toEqual([1, 2, 4]);
      expect(server.requests).toHaveLength(4);
    });

    it('waits on a real timer between attempts when no sleep is injected, then retries', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'text', status: 500, body: 'oops' }, { kind: 'json', body: { choices: [{ message: { content: 'ok' } }] } });
      const made = createChatClient({ baseUrl: `${server.url}/v1`, protocol: 'completions', retry: { baseDelayMs: 1 } });
      const retries: LlmEvent[] = [];
      expect((await succeeds(made.chat(ask, { onEvent: (e) => retries.push(e) }))).message.content).toBe('ok');
      expect(retries).toEqual([{ type: 'retry', attempt: 1, delayMs: 1, reason: expect.stringContaining('HTTP 500') }]);
      expect(server.requests).toHaveLength(2);
    });

    it('does not retry other client errors', async () => {
      const server = await startLlmServer();
      server.fallback = () => ({ kind: 'json', status: 400, body: { error: { message: 'bad model' } } });
      const error = await fails(client(server).client.chat(ask));
      expect(error.message).toBe(`HTTP 400 from ${server.url}/v1/chat/completions: bad model`);
      expect(server.requests).toHaveLength(1);
    });

    it('retries a dropped connection', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'drop' }, { kind: 'json', body: { choices: [{ message: { content: 'after drop' } }] } });
      expect((await succeeds(client(server).client.chat(ask))).message.content).toBe('after drop');
      expect(server.requests).toHaveLength(2);
    });

    it('retries a stream cut before any delta, but not one cut after deltas were delivered', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'sse', events: completionChunks(['x']), dropAfter: 0 }, { kind: 'sse', events: completionChunks(['fine']) });
      expect((await succeeds(client(server).client.chat(streamed))).message.content).toBe('fine');

      server.script({ kind: 'sse', events: completionChunks(['partial', 'rest']), dropAfter: 1 });
      const before = server.requests.length;
      const events: LlmEvent[] = [];
      const error = await fails(client(server).client.chat(streamed, { onEvent: (e) => events.push(e) }));
      expect(error.code).toBe('CONNECTION');
      expect(events).toEqual([{ type: 'text-delta', text: 'partial' }]);
      expect(server.requests.length - before).toBe(1);
    });

    it('retries a connection refused, then reports it', async () => {
      const closed = await new Promise<number>((resolve) => {
        const probe = createServer();
        probe.listen(0, '127.0.0.1', () => {
          const { port } = probe.address() as { port: number };
          probe.close(() => resolve(port));
        });
      });
      const waits: number[] = [];
      const made = createChatClient({ baseUrl: `http://127.0.0.1:${closed}/v1`, protocol: 'completions', retry: { maxRetries: 1, baseDelayMs: 1 }, sleep: async (ms) => void waits.push(ms) });
      const error = await fails(made.chat(ask));
      expect(error.code).toBe('CONNECTION');
      expect(error.message).toContain('ECONNREFUSED');
      expect(waits).toHaveLength(1);
    });

    it('times out a silent server (and retries the timeout)', async () => {
      const server = await startLlmServer();
      server.fallback = () => ({ kind: 'silent' });
      const { client: c, waits } = client(server, { timeoutMs: 100, retry: { maxRetries: 1, baseDelayMs: 1 } });
      const error = await fails(c.chat(ask));
      expect(error.code).toBe('TIMEOUT');
      expect(waits).toEqual([1]);
      expect(server.requests).toHaveLength(2);
    });

    it('times out a stream that goes quiet between chunks', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'sse', events: completionChunks(['a', 'b']), delayMs: 300 });
      const error = await fails(client(server, { idleTimeoutMs: 100, retry: { maxRetries: 0 } }).client.chat(streamed));
      expect(error.code).toBe('TIMEOUT');
    });
  });

  describe('cancellation', () => {
    it('aborts a slow stream with CANCELLED and does not retry', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'sse', events: completionChunks(['a', 'b', 'c', 'd', 'e']), delayMs: 100 });
      const controller = new AbortController();
      const call = client(server).client.chat(streamed, { signal: controller.signal, onEvent: () => controller.abort() });
      const error = await fails(call);
      expect(error.code).toBe('CANCELLED');
      expect(server.requests).toHaveLength(1);
    });

    it('stops waiting between retries when cancelled, sending nothing more', async () => {
      const server = await startLlmServer();
      server.fallback = () => ({ kind: 'text', status: 503, body: 'down' });
      const controller = new AbortController();
      // A ten-minute wait, on the real timer: only cancellation can end it within the test's timeout.
      const made = createChatClient({ baseUrl: `${server.url}/v1`, protocol: 'completions', retry: { baseDelayMs: 600_000, maxDelayMs: 600_000 } });
      // Cancelled once the wait has begun (the retry is announced just before it starts).
      const failure = await fails(made.chat(ask, { signal: controller.signal, onEvent: (e) => void (e.type === 'retry' && setImmediate(() => controller.abort())) }));
      expect(failure.code).toBe('CANCELLED');
      expect(server.requests).toHaveLength(1);
    });
  });

  describe('Ollama /api/chat', () => {
    it('streams NDJSON lines as deltas', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'ndjson', lines: ollamaLines(['Bon', 'jour']) });
      const events: LlmEvent[] = [];
      const made = createChatClient({ baseUrl: server.url, protocol: 'ollama' });
      const response = await succeeds(made.chat({ ...streamed, model: 'llama3.2' }, { onEvent: (e) => events.push(e) }));
      expect(response.message.content).toBe('Bonjour');
      expect(response.usage).toEqual({ inputTokens: 12, outputTokens: 2, totalTokens: 14 });
      expect(events).toHaveLength(2);
      expect(server.requests[0]).toMatchObject({ path: '/api/chat', body: { model: 'llama3.2', stream: true, messages: [{ role: 'user', content: 'Say hello' }] } });
      expect(server.requests[0]!.headers.authorization).toBeUndefined();
    });

    it('answers stream: false with one object', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'json', body: { model: 'llama3.2', message: { role: 'assistant', content: 'single' }, done: true } });
      expect((await succeeds(createChatClient({ baseUrl: server.url, protocol: 'ollama' }).chat(ask))).message.content).toBe('single');
    });

    it('reports an error line in the stream', async () => {
      const server = await startLlmServer();
      server.script({ kind: 'ndjson', lines: [{ error: 'model requires more system memory' }] });
      const error = await fails(createChatClient({ baseUrl: server.url, protocol: 'ollama' }).chat(streamed));
      expect(error.code).toBe('RESPONSE_FAILED');
      expect(error.message).toContain('more system memory');
    });
  });
});
