import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll } from 'vitest';

/** One request the server received. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

/** What the server does with one request. */
export type Reply =
  | { readonly kind: 'json'; readonly status?: number; readonly body: unknown; readonly headers?: Record<string, string> }
  | { readonly kind: 'text'; readonly status: number; readonly body: string; readonly headers?: Record<string, string> }
  /** Server-sent events: each item is written as one `data:` block (strings are sent as raw blocks). */
  | { readonly kind: 'sse'; readonly events: ReadonlyArray<unknown>; readonly delayMs?: number; readonly dropAfter?: number }
  /** Ollama's NDJSON stream: one JSON value per line. */
  | { readonly kind: 'ndjson'; readonly lines: ReadonlyArray<unknown>; readonly delayMs?: number; readonly dropAfter?: number }
  /** Closes the connection without answering. */
  | { readonly kind: 'drop' }
  /** Accepts the request and never answers. */
  | { readonly kind: 'silent' };

/** A loopback HTTP server speaking the OpenAI-compatible and Ollama protocols from a script. */
export interface LlmServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Replies used in order, one per request; after they run out, `fallback` answers. */
  script(...replies: Reply[]): void;
  fallback: (request: ReceivedRequest) => Reply;
  close(): Promise<void>;
}

const servers: LlmServer[] = [];
afterAll(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An SSE block for one event: objects become `data: <json>` (with `event:` from their type), strings are sent raw. */
export function sseBlock(event: unknown): string {
  if (typeof event === 'string') return event;
  const type = (event as { type?: unknown }).type;
  const name = typeof type === 'string' ? `event: ${type}\n` : '';
  return `${name}data: ${JSON.stringify(event)}\n\n`;
}

function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(text ? JSON.parse(text) : null);
      } catch {
        resolve(text);
      }
    });
  });
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function stream(response: ServerResponse, contentType: string, pieces: readonly string[], delayMs: number, dropAfter: number | undefined): Promise<void> {
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache' });
  response.flushHeaders();
  for (let i = 0; i < pieces.length; i += 1) {
    if (dropAfter !== undefined && i >= dropAfter) {
      // Let what was written reach the client before the connection dies.
      await wait(Math.max(delayMs, 30));
      response.socket?.destroy();
      return;
    }
    if (delayMs > 0) await wait(delayMs);
    if (response.destroyed) return;
    response.write(pieces[i]);
  }
  if (dropAfter !== undefined && dropAfter >= pieces.length) {
    await wait(Math.max(delayMs, 30));
    response.socket?.destroy();
    return;
  }
  response.end();
}

/** Starts a server on 127.0.0.1 with a random port; closed after the test file. */
export async function startLlmServer(): Promise<LlmServer> {
  const queue: Reply[] = [];
  const sockets = new Set<Socket>();
  const requests: ReceivedRequest[] = [];
  let baseUrl = '';
  const api: LlmServer = {
    get url() {
      return baseUrl;
    },
    requests,
    script: (...replies) => {
      queue.push(...replies);
    },
    fallback: () => ({ kind: 'json', status: 404, body: { error: 'no scripted reply' } }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const received: ReceivedRequest = { method: request.method ?? 'GET', path: request.url ?? '/', headers: request.headers, body };
    requests.push(received);
    const reply = queue.shift() ?? api.fallback(received);
    switch (reply.kind) {
      case 'json':
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(JSON.stringify(reply.body));
        return;
      case 'text':
        response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
        response.end(reply.body);
        return;
      case 'sse':
        await stream(response, 'text/event-stream', reply.events.map(sseBlock), reply.delayMs ?? 0, reply.dropAfter);
        return;
      case 'ndjson':
        await stream(response, 'application/x-ndjson', reply.lines.map((l) => `${JSON.stringify(l)}\n`), reply.delayMs ?? 0, reply.dropAfter);
        return;
      case 'drop':
        request.socket.destroy();
        return;
      case 'silent':
        return;
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  servers.push(api);
  return api;
}

/** Ollama stream lines for an answer split into pieces. */
export function ollamaLines(pieces: readonly string[], model = 'llama3.2'): unknown[] {
  return [
    ...pieces.map((content) => ({ model, created_at: '2026-01-01T00:00:00Z', message: { role: 'assistant', content }, done: false })),
    { model, created_at: '2026-01-01T00:00:01Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 12, eval_count: pieces.length },
  ];
}

/** /chat/completions stream chunks for an answer split into pieces, ending with usage and [DONE]. */
export function completionChunks(pieces: readonly string[]): unknown[] {
  return [
    ...pieces.map((content, i) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-test', choices: [{ index: 0, delta: i === 0 ? { role: 'assistant', content } : { content }, finish_reason: null }] })),
    { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-test', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-test', choices: [], usage: { prompt_tokens: 5, completion_tokens: pieces.length, total_tokens: 5 + pieces.length } },
    'data: [DONE]\n\n',
  ];
}
