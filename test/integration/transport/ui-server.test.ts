// `relay ui`'s server on a real port, over a real host and store: the gate (token, Origin,
// Host), refused frames, size limits, ordering, and the renderer's WebSocket client.
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startUiServer, type UiServer } from '../../../src/cli/ui-server.js';
import { ok } from '../../../src/engine/result.js';
import type { RelayEngine } from '../../../src/engine/runtime/index.js';
import { openStore } from '../../../src/engine/store/index.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { createSocketTransport, type SocketConstructor } from '../../../src/renderer/transport/socket-transport.js';
import { buildRelayApi } from '../../../src/shared/api.js';
import type { EventEnvelope } from '../../../src/shared/contract.js';
import type { ServerFrame } from '../../../src/shared/wire.js';
import { relayProject } from '../../helpers/project.js';
import { openSocket } from '../../helpers/socket.js';
import { tempDir } from '../../helpers/temp.js';

interface Fixture {
  readonly host: Host;
  readonly server: UiServer;
  readonly asked: string[];
  readonly ws: string;
  readonly cookie: Record<string, string>;
}

const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of running.splice(0).reverse()) await stop();
});

async function start(): Promise<Fixture> {
  const asked: string[] = [];
  const relay: RelayEngine = {
    ask: async (_root, request) => {
      asked.push(request.prompt);
      return ok({ runId: `ask-${request.prompt}`, backend: 'fake', text: `answer ${request.prompt}`, usage: null });
    },
    review: async () => ok({ runId: 'review', backend: 'fake', text: 'ok', usage: null }),
  };
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  const host = createHost({ store, engines: { relay } });
  const rendererDir = tempDir('relay-renderer-');
  mkdirSync(path.join(rendererDir, 'assets'));
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Relay Desk</title><div id="root"></div>');
  writeFileSync(path.join(rendererDir, 'assets', 'app-1234.js'), 'console.log("app");');
  const server = await startUiServer({ host, rendererDir });
  running.push(async () => {
    await server.close();
    await host.close();
    store.close();
  });
  return { host, server, asked, ws: `ws://127.0.0.1:${server.port}/ws`, cookie: { cookie: `relay_ui_${server.port}=${server.token}` } };
}

/** A raw HTTP GET (no redirects followed, any Host header) returning status, headers and body. */
function get(port: number, pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: pathname, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

async function refusedUpgrade(url: string, options: Parameters<typeof openSocket>[1]): Promise<number> {
  const socket = openSocket(url, options);
  try {
    await socket.opened;
  } catch (error) {
    return (error as { status?: number }).status ?? -1;
  }
  socket.ws.close();
  return 101;
}

describe('relay ui server', () => {
  describe('HTTP', () => {
    it('answers 401 without the token and 401 with a wrong one', async () => {
      const { server } = await start();
      const none = await get(server.port, '/');
      expect(none.status).toBe(401);
      expect(none.body).toContain('token');
      expect((await get(server.port, '/?token=wrong')).status).toBe(401);
      expect((await get(server.port, '/assets/app-1234.js', { cookie: `relay_ui_${server.port}=wrong` })).status).toBe(401);
    });

    it('trades the token in the URL for an HttpOnly cookie and then serves the renderer', async () => {
      const { server, cookie } = await start();
      const first = await get(server.port, `/?token=${server.token}`);
      expect(first.status).toBe(303);
      expect(first.headers.location).toBe('/');
      expect(String(first.headers['set-cookie'])).toMatch(new RegExp(`^relay_ui_${server.port}=${server.token}; HttpOnly; SameSite=Strict; Path=/`));
      const page = await get(server.port, '/', cookie);
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>Relay Desk</title>');
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      const asset = await get(server.port, '/assets/app-1234.js', cookie);
      expect(asset).toMatchObject({ status: 200, body: 'console.log("app");' });
      expect(asset.headers['content-type']).toContain('text/javascript');
      expect((await get(server.port, '/runs/some-client-route', cookie)).body).toContain('<title>Relay Desk</title>');
    });

    it('refuses a foreign Origin or Host, other methods, and paths outside the renderer', async () => {
      const { server, cookie } = await start();
      expect((await get(server.port, '/', { ...cookie, origin: 'http://evil.example' })).status).toBe(403);
      expect((await get(server.port, '/', { ...cookie, origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
      expect((await get(server.port, '/', { ...cookie, host: `attacker.example:${server.port}` })).status).toBe(403);
      expect((await get(server.port, '/', cookie, 'POST')).status).toBe(405);
      expect((await get(server.port, '/%2e%2e/%2e%2e/%2e%2e/etc/hostname.txt', cookie)).status).toBe(404);
      expect((await get(server.port, '/assets/missing.js', cookie)).status).toBe(404);
    });

    it('binds to the loopback interface only', async () => {
      const { server } = await start();
      expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{43}$`));
    });
  });

  describe('WebSocket', () => {
    it('refuses the upgrade without the token, with a wrong one, from a foreign origin or with no origin, and runs nothing', async () => {
      const { host, server, ws, cookie } = await start();
      const before = host.runtime.lastSeq;
      expect(await refusedUpgrade(ws, { origin: server.origin })).toBe(401);
      expect(await refusedUpgrade(`${ws}?token=nope`, { origin: server.origin })).toBe(401);
      expect(await refusedUpgrade(ws, { origin: 'http://evil.example', headers: cookie })).toBe(403);
      expect(await refusedUpgrade(ws, { headers: cookie })).toBe(403);
      expect(await refusedUpgrade(`ws://127.0.0.1:${server.port}/other?token=${server.token}`, { origin: server.origin })).toBe(403);
      expect(host.runtime.lastSeq).toBe(before);
      expect(await refusedUpgrade(`${ws}?token=${server.token}`, { origin: server.origin })).toBe(101);
      expect(await refusedUpgrade(ws, { origin: `http://localhost:${server.port}`, headers: cookie })).toBe(101);
    });

    it('refuses malformed frames with a code and runs nothing', async () => {
      const { host, server, ws, cookie } = await start();
      const socket = openSocket(ws, { origin: server.origin, headers: cookie });
      await socket.opened;
      const before = host.runtime.lastSeq;
      socket.send('{ not json');
      socket.send({ channel: 'listProjects' });
      socket.send({ id: 7, channel: 'listProjects', input: {}, extra: true });
      socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      socket.send({ id: 8, channel: 'deleteEverything', input: {} });
      socket.send({ id: 9, channel: 'applyPatch', input: { text: 42, source: 'clipboard' } });
      await socket.next((f) => f.type === 'reply' && f.id === 9);
      const refused = socket.frames.filter((f): f is Extract<ServerFrame, { type: 'refused' }> => f.type === 'refused');
      expect(refused.map((f) => [f.id, f.error.code])).toEqual([
        [null, 'MALFORMED_MESSAGE'],
        [null, 'MALFORMED_MESSAGE'],
        [7, 'MALFORMED_MESSAGE'],
        [null, 'MALFORMED_MESSAGE'],
      ]);
      const replies = socket.frames.filter((f): f is Extract<ServerFrame, { type: 'reply' }> => f.type === 'reply');
      expect(replies.map((f) => [f.id, f.reply.ok ? 'ok' : f.reply.error.code])).toEqual([
        [8, 'UNKNOWN_CHANNEL'],
        [9, 'INVALID_INPUT'],
      ]);
      expect(host.runtime.lastSeq).toBe(before);
      socket.ws.close();
    });

    it('closes the socket with 1009 on an oversized message and runs nothing', async () => {
      const { host, server, ws, cookie } = await start();
      relayProject({ projectId: 'big' });
      const socket = openSocket(ws, { origin: server.origin, headers: cookie });
      await socket.opened;
      const before = host.runtime.lastSeq;
      socket.send({ id: 1, channel: 'applyPatch', input: { text: 'x'.repeat(9 * 1024 * 1024), source: 'paste', projectId: 'big' } });
      expect((await socket.closed).code).toBe(1009);
      expect(socket.frames.filter((f) => f.type === 'reply')).toEqual([]);
      expect(host.runtime.lastSeq).toBe(before);
    });

    it('handles a burst of 1,000 calls in order and streams their events', async () => {
      const { host, server, ws, cookie, asked } = await start();
      const root = relayProject({ projectId: 'burst' });
      expect((await host.call('registerProject', { root })).ok).toBe(true);
      const socket = openSocket(ws, { origin: server.origin, headers: cookie });
      await socket.opened;
      for (let i = 0; i < 1000; i += 1) socket.send({ id: i, channel: 'ask', input: { projectId: 'burst', prompt: String(i) } });
      await socket.next((f) => f.type === 'reply' && f.id === 999, 20_000);
      const replies = socket.frames.filter((f): f is Extract<ServerFrame, { type: 'reply' }> => f.type === 'reply');
      expect(replies.map((f) => f.id)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
      expect(replies.every((f) => f.reply.ok)).toBe(true);
      const lastTask = (replies[999]!.reply as { value: { taskId: string } }).value.taskId;
      await socket.next((f) => f.type === 'event' && f.envelope.event.type === 'task.completed' && f.envelope.event.taskId === lastTask, 20_000);
      expect(asked).toEqual(Array.from({ length: 1000 }, (_, i) => String(i)));
      const events = socket.frames.filter((f): f is Extract<ServerFrame, { type: 'event' }> => f.type === 'event').map((f) => f.envelope);
      const seqs = events.map((e) => e.seq);
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(events.filter((e) => e.event.type === 'task.queued').map((e) => (e.event as { title: string }).title)).toEqual(Array.from({ length: 1000 }, (_, i) => `Ask: ${i}`));
      socket.ws.close();
    });
  });

  describe('the renderer\'s client (window.relay over the socket)', () => {
    it('calls channels, unwraps nothing, and delivers events to onEvent', async () => {
      const { host, server, ws } = await start();
      // What a browser does with its cookie and Origin, done by hand for the `ws` package.
      const BrowserLike = class extends WebSocket {
        constructor(url: string) {
          super(url, { origin: server.origin, headers: { cookie: `relay_ui_${server.port}=${server.token}` } });
        }
      } as unknown as SocketConstructor;
      const transport = createSocketTransport({ url: ws, WebSocket: BrowserLike });
      const relay = buildRelayApi(transport);
      const events: EventEnvelope[] = [];
      const stop = relay.onEvent((e) => events.push(e));
      expect(await relay.listProjects({})).toEqual({ ok: true, value: [] });
      expect(await relay.getRun({ runId: 'missing' })).toMatchObject({ ok: false, error: { code: 'RUN_NOT_FOUND' } });
      const root = relayProject({ projectId: 'client' });
      const registered = await relay.registerProject({ root });
      expect(registered).toMatchObject({ ok: true, value: { projectId: 'client' } });
      await new Promise((r) => setTimeout(r, 50));
      expect(events.map((e) => e.event.type)).toContain('project.registered');
      stop();
      transport.close();
      expect(host.runtime.state().projects.map((p) => p.projectId)).toEqual(['client']);
    });
  });
});
