import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../../src/engine/relay/envelope.js';
import { relay, type RelayEvent, type RelayOptions } from '../../../src/engine/relay/index.js';
import { ollamaLines, startLlmServer, type LlmServer } from '../../helpers/llm-server.js';
import { fails, succeeds } from '../../helpers/result.js';
import { gitRepo } from '../../helpers/temp.js';

function askOllama(server: LlmServer | string, options: Partial<RelayOptions> = {}) {
  const host = typeof server === 'string' ? server : server.url;
  const { env, ...rest } = options;
  return relay({
    prompt: 'Explain the bug.',
    repoPath: options.repoPath ?? gitRepo(),
    backend: 'ollama',
    env: { OLLAMA_HOST: host, PHONE_A_FRIEND_DEPTH: '0', ...env },
    retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    ...rest,
  });
}

describe('relay() with the ollama backend', () => {
  it('posts the envelope to /api/chat and streams the answer as deltas', async () => {
    const server = await startLlmServer();
    server.script({ kind: 'ndjson', lines: ollamaLines(['The bug ', 'is here.']) });
    const repoPath = gitRepo();
    const events: RelayEvent[] = [];
    const result = await succeeds(askOllama(server, { repoPath, model: 'qwen2.5-coder', onEvent: (e) => events.push(e) }));
    expect(result.answer).toBe('The bug is here.');
    expect(events).toEqual([
      { type: 'delta', text: 'The bug ' },
      { type: 'delta', text: 'is here.' },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/chat',
      body: { model: 'qwen2.5-coder', stream: true, messages: [{ role: 'user', content: buildPrompt({ prompt: 'Explain the bug.', repoPath, contextText: '', diffText: '' }) }] },
    });
  });

  it('takes the model from OLLAMA_MODEL, else the first model the server lists', async () => {
    const server = await startLlmServer();
    server.script({ kind: 'ndjson', lines: ollamaLines(['a']) }, { kind: 'json', body: { models: [{ name: 'llama3.2:latest' }, { name: 'mistral' }] } }, { kind: 'ndjson', lines: ollamaLines(['b']) });
    await succeeds(askOllama(server, { env: { OLLAMA_MODEL: 'phi4' } }));
    await succeeds(askOllama(server));
    expect(server.requests.map((r) => r.path)).toEqual(['/api/chat', '/api/tags', '/api/chat']);
    expect((server.requests[0]!.body as { model: string }).model).toBe('phi4');
    expect((server.requests[2]!.body as { model: string }).model).toBe('llama3.2:latest');
  });

  it('says how to get a model when the server has none', async () => {
    const server = await startLlmServer();
    server.script({ kind: 'json', body: { models: [] } });
    const error = await fails(askOllama(server));
    expect(error.cause).toEqual({ backend: 'ollama', code: 'NO_MODEL' });
    expect(error.message).toContain('has no model to answer with');
  });

  it('reports a model the server does not know', async () => {
    const server = await startLlmServer();
    server.script({ kind: 'json', status: 404, body: { error: "model 'nope' not found, try pulling it first" } });
    const error = await fails(askOllama(server, { model: 'nope' }));
    expect(error.message).toBe(`Ollama refused the request: HTTP 404 from ${server.url}/api/chat: model 'nope' not found, try pulling it first (hint: check the model name (\`ollama pull <model>\`) and that OLLAMA_HOST points at Ollama itself)`);
  });

  it('retries a 503 with the injected backoff and warns about it', async () => {
    const server = await startLlmServer();
    server.script({ kind: 'text', status: 503, body: 'loading model' }, { kind: 'ndjson', lines: ollamaLines(['ok']) });
    const events: RelayEvent[] = [];
    const result = await succeeds(askOllama(server, { model: 'm', onEvent: (e) => events.push(e) }));
    expect(result.answer).toBe('ok');
    expect(events[0]).toEqual({ type: 'warning', text: expect.stringContaining('ollama: retry 1 in 1 ms') });
  });

  it('says Ollama is not reachable when nothing listens at OLLAMA_HOST', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: p } = probe.address() as { port: number };
        probe.close(() => resolve(p));
      });
    });
    const error = await fails(askOllama(`127.0.0.1:${port}`, { model: 'm' }));
    expect(error.cause?.code).toBe('UNREACHABLE');
    expect(error.message).toContain(`Ollama is not reachable at http://127.0.0.1:${port}`);
  });

  it('times out a server that does not answer', async () => {
    const server = await startLlmServer();
    server.fallback = () => ({ kind: 'silent' });
    const error = await fails(askOllama(server, { model: 'm', timeoutSeconds: 0.3 }));
    expect(error.message).toBe('ollama timed out after 0.3 seconds');
  });

  it('is cancelled by the signal mid-stream', async () => {
    const server = await startLlmServer();
    server.script({ kind: 'ndjson', lines: ollamaLines(['a', 'b', 'c', 'd']), delayMs: 100 });
    const controller = new AbortController();
    const error = await fails(askOllama(server, { model: 'm', signal: controller.signal, onEvent: () => controller.abort() }));
    expect(error.code).toBe('CANCELLED');
  });

  it('refuses a writing sandbox before sending anything', async () => {
    const server = await startLlmServer();
    expect((await fails(askOllama(server, { sandbox: 'workspace-write' }))).code).toBe('INVALID_SANDBOX');
    expect(server.requests).toEqual([]);
  });
});
