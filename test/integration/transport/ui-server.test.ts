// `relay ui`'s server on a real port, over a real host and store: the launch-token trade, the
// gate (session, Origin, Host), refused frames, size limits, ordering, and the renderer's
// WebSocket client.
import { createServer } from 'node:http';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createCredentials, hashSecret, LAUNCH_TOKEN_TTL_MS, proofOf, SESSION_TTL_MS } from '../../../src/cli/ui-credentials.js';
import { startUiServer, type UiServer } from '../../../src/cli/ui-server.js';
import { ok } from '../../../src/engine/result.js';
import type { RelayEngine } from '../../../src/engine/runtime/index.js';
import { openStore } from '../../../src/engine/store/index.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { createPageSession, SESSION_STORAGE_KEY, type FetchLike, type PageSession } from '../../../src/renderer/transport/session.js';
import { createSocketTransport, type SocketConstructor } from '../../../src/renderer/transport/socket-transport.js';
import { buildRelayApi } from '../../../src/shared/api.js';
import type { EventEnvelope } from '../../../src/shared/contract.js';
import { pageProofText, serverProofText, type ServerFrame } from '../../../src/shared/wire.js';
import { relayProject } from '../../helpers/project.js';
import { openSocket } from '../../helpers/socket.js';
import { httpRequest, launchToken, postTrade, refusalCode, sessionProtocols, tradeLink, type RawResponse } from '../../helpers/ui.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/wait.js';

interface Fixture {
  readonly host: Host;
  readonly server: UiServer;
  readonly asked: string[];
  readonly ws: string;
  /** The subprotocols of a page that traded a launch link for a session. */
  readonly protocols: string[];
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
  const session = await tradeLink(server.launchLink().url);
  return { host, server, asked, ws: `ws://127.0.0.1:${server.port}/ws`, protocols: sessionProtocols(session) };
}

function get(port: number, pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return httpRequest(port, { path: pathname, headers, method });
}

async function refusedUpgrade(url: string, options: Parameters<typeof openSocket>[1]): Promise<number | [number, string | null]> {
  const socket = openSocket(url, options);
  try {
    await socket.opened;
  } catch (error) {
    const { status, code } = error as { status?: number; code?: string | null };
    return [status ?? -1, code ?? null];
  }
  socket.ws.close();
  return 101;
}

describe('relay ui server', () => {
  describe('HTTP', () => {
    it('serves the public renderer build without a secret, and sets no cookie', async () => {
      const { server } = await start();
      const page = await get(server.port, '/');
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>Relay Desk</title>');
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['set-cookie']).toBeUndefined();
      const asset = await get(server.port, '/assets/app-1234.js');
      expect(asset).toMatchObject({ status: 200, body: 'console.log("app");' });
      expect(asset.headers['content-type']).toContain('text/javascript');
      expect((await get(server.port, '/runs/some-client-route')).body).toContain('<title>Relay Desk</title>');
    });

    it('trades a launch link once for a session, and refuses the second trade with LAUNCH_TOKEN_USED', async () => {
      const { server } = await start();
      const link = server.launchLink();
      expect(link.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/#token=[A-Za-z0-9_-]{43}$`));
      let traded = false;
      void link.traded.then(() => (traded = true));
      const first = await postTrade(server.port, launchToken(link.url));
      expect(first.status).toBe(200);
      expect(first.headers['set-cookie']).toBeUndefined();
      expect(first.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(first.body)).toMatchObject({ session: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
      await link.traded;
      expect(traded).toBe(true);
      const again = await postTrade(server.port, launchToken(link.url));
      expect([again.status, refusalCode(again)]).toEqual([401, 'LAUNCH_TOKEN_USED']);
      const made = await postTrade(server.port, 'A'.repeat(43));
      expect([made.status, refusalCode(made)]).toEqual([401, 'LAUNCH_TOKEN_UNKNOWN']);
    });

    it('refuses a trade without our Origin, with a foreign one, without JSON, or under another Host name', async () => {
      const { server } = await start();
      const token = launchToken(server.launchLink().url);
      const noOrigin = await postTrade(server.port, token, { origin: null });
      expect([noOrigin.status, refusalCode(noOrigin)]).toEqual([403, 'ORIGIN_REQUIRED']);
      const foreign = await postTrade(server.port, token, { origin: `http://127.0.0.1:${server.port + 1}` });
      expect([foreign.status, refusalCode(foreign)]).toEqual([403, 'ORIGIN_REFUSED']);
      const rebinding = await postTrade(server.port, token, { headers: { host: `attacker.example:${server.port}` } });
      expect([rebinding.status, refusalCode(rebinding)]).toEqual([403, 'HOST_REFUSED']);
      const form = await httpRequest(server.port, { path: '/api/session', method: 'POST', headers: { origin: server.origin, 'content-type': 'text/plain' }, body: JSON.stringify({ launchToken: token }) });
      expect([form.status, refusalCode(form)]).toEqual([415, 'CONTENT_TYPE_REFUSED']);
      // None of those used the token up: the page can still trade it.
      expect((await postTrade(server.port, token)).status).toBe(200);
    });

    it('checks a session (200, with a fresh resume key) or refuses it (401 SESSION_UNKNOWN / SESSION_REQUIRED)', async () => {
      const { server, protocols } = await start();
      const session = protocols[1]!.slice('relay-desk.session.'.length);
      const check = (headers: Record<string, string>) => httpRequest(server.port, { path: '/api/session/check', method: 'POST', headers: { origin: server.origin, ...headers } });
      const known = await check({ authorization: `Bearer ${session}` });
      expect(known.status).toBe(200);
      expect(JSON.parse(known.body)).toEqual({ resume: { id: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
      const unknown = await check({ authorization: `Bearer ${'x'.repeat(43)}` });
      expect([unknown.status, refusalCode(unknown)]).toEqual([401, 'SESSION_UNKNOWN']);
      const none = await check({});
      expect([none.status, refusalCode(none)]).toEqual([401, 'SESSION_REQUIRED']);
      // A cookie carrying the session is not a session: cookies are never read.
      const cookie = await check({ cookie: `relay_ui_${server.port}=${session}; session=${session}` });
      expect([cookie.status, refusalCode(cookie)]).toEqual([401, 'SESSION_REQUIRED']);
    });

    it('refuses a foreign Origin or Host, other methods, and paths outside the renderer', async () => {
      const { server } = await start();
      expect((await get(server.port, '/', { origin: 'http://evil.example' })).status).toBe(403);
      expect((await get(server.port, '/', { origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
      const rebinding = await get(server.port, '/', { host: `attacker.example:${server.port}` });
      expect([rebinding.status, refusalCode(rebinding)]).toEqual([403, 'HOST_REFUSED']);
      expect((await get(server.port, '/', {}, 'POST')).status).toBe(405);
      expect((await get(server.port, '/api/session', { origin: server.origin })).status).toBe(405);
      expect((await get(server.port, '/%2e%2e/%2e%2e/%2e%2e/etc/hostname.txt')).status).toBe(404);
      expect((await get(server.port, '/assets/missing.js')).status).toBe(404);
    });

    it('binds to the loopback interface only', async () => {
      const { server } = await start();
      expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
    });
  });

  describe('WebSocket', () => {
    it('refuses the upgrade without a session, with a wrong one, from a foreign origin or with no origin, and runs nothing', async () => {
      const { host, server, ws, protocols } = await start();
      const before = host.runtime.lastSeq;
      const session = protocols[1]!.slice('relay-desk.session.'.length);
      expect(await refusedUpgrade(ws, { origin: server.origin, protocols: ['relay-desk.v1'] })).toEqual([401, 'SESSION_REQUIRED']);
      expect(await refusedUpgrade(ws, { origin: server.origin, protocols: sessionProtocols('nope') })).toEqual([401, 'SESSION_UNKNOWN']);
      // The old ways in are gone: a token in the query, a cookie.
      expect(await refusedUpgrade(`${ws}?token=${session}`, { origin: server.origin })).toEqual([401, 'SESSION_REQUIRED']);
      expect(await refusedUpgrade(ws, { origin: server.origin, headers: { cookie: `relay_ui_${server.port}=${session}` } })).toEqual([401, 'SESSION_REQUIRED']);
      expect(await refusedUpgrade(ws, { origin: 'http://evil.example', protocols })).toEqual([403, 'ORIGIN_REFUSED']);
      expect(await refusedUpgrade(ws, { protocols })).toEqual([403, 'ORIGIN_REQUIRED']);
      expect(await refusedUpgrade(ws, { origin: server.origin, protocols, headers: { host: `rebind.example:${server.port}` } })).toEqual([403, 'HOST_REFUSED']);
      expect(await refusedUpgrade(`ws://127.0.0.1:${server.port}/other`, { origin: server.origin, protocols })).toEqual([404, 'NOT_FOUND']);
      expect(host.runtime.lastSeq).toBe(before);
      expect(await refusedUpgrade(ws, { origin: server.origin, protocols })).toBe(101);
      // Not under the name localhost: a browser may reach ::1 for it, where another program can hold the same port number.
      expect(await refusedUpgrade(ws, { origin: `http://localhost:${server.port}`, protocols })).toEqual([403, 'ORIGIN_REFUSED']);
      expect(await refusedUpgrade(ws, { origin: server.origin, protocols, headers: { host: `localhost:${server.port}` } })).toEqual([403, 'HOST_REFUSED']);
    });

    it('answers with its own subprotocol only, never echoing the session', async () => {
      const { server, ws, protocols } = await start();
      const socket = openSocket(ws, { origin: server.origin, protocols });
      await socket.opened;
      expect(socket.ws.protocol).toBe('relay-desk.v1');
      socket.ws.close();
    });

    it('refuses malformed frames with a code and runs nothing', async () => {
      const { host, server, ws, protocols } = await start();
      const socket = openSocket(ws, { origin: server.origin, protocols });
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
      const { host, server, ws, protocols } = await start();
      relayProject({ projectId: 'big' });
      const socket = openSocket(ws, { origin: server.origin, protocols });
      await socket.opened;
      const before = host.runtime.lastSeq;
      socket.send({ id: 1, channel: 'applyPatch', input: { text: 'x'.repeat(9 * 1024 * 1024), source: 'paste', projectId: 'big' } });
      expect((await socket.closed).code).toBe(1009);
      expect(socket.frames.filter((f) => f.type === 'reply')).toEqual([]);
      expect(host.runtime.lastSeq).toBe(before);
    });

    it('handles a burst of 1,000 calls in order and streams their events', async () => {
      const { host, server, ws, protocols, asked } = await start();
      const root = relayProject({ projectId: 'burst' });
      expect((await host.call('registerProject', { root })).ok).toBe(true);
      const socket = openSocket(ws, { origin: server.origin, protocols });
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
      const { host, server, ws, protocols } = await start();
      // What a browser adds by itself (Origin), done by hand for the `ws` package.
      const BrowserLike = class extends WebSocket {
        constructor(url: string, offered?: string[]) {
          super(url, offered ?? [], { origin: server.origin });
        }
      } as unknown as SocketConstructor;
      const transport = createSocketTransport({ url: ws, WebSocket: BrowserLike, protocols: () => protocols });
      const relay = buildRelayApi(transport);
      const events: EventEnvelope[] = [];
      const stop = relay.onEvent((e) => events.push(e));
      expect(await relay.listProjects({})).toEqual({ ok: true, value: [] });
      expect(await relay.getRun({ runId: 'missing' })).toMatchObject({ ok: false, error: { code: 'RUN_NOT_FOUND' } });
      const root = relayProject({ projectId: 'client' });
      const registered = await relay.registerProject({ root });
      expect(registered).toMatchObject({ ok: true, value: { projectId: 'client' } });
      await until('the project.registered event', () => events.some((e) => e.event.type === 'project.registered'));
      stop();
      transport.close();
      expect(host.runtime.state().projects.map((p) => p.projectId)).toEqual(['client']);
    });
  });

  describe('credentials', () => {
    it('refuses a launch token left unused past its two minutes with LAUNCH_TOKEN_EXPIRED', async () => {
      let clock = 1_000_000;
      const { host, store } = bareHost();
      const server = await startUiServer({ host, rendererDir: tempDir(), credentials: createCredentials({ now: () => clock }) });
      running.push(() => server.close());
      const late = server.launchLink();
      const inTime = server.launchLink();
      clock += LAUNCH_TOKEN_TTL_MS - 1;
      expect((await postTrade(server.port, launchToken(inTime.url))).status).toBe(200);
      clock += 1;
      const refused = await postTrade(server.port, launchToken(late.url));
      expect([refused.status, refusalCode(refused)]).toEqual([401, 'LAUNCH_TOKEN_EXPIRED']);
      expect(JSON.parse(refused.body).error.message).toContain('Press Enter in the terminal running `relay ui`');
      store.close();
    });

    it('a session dies with its process; after a restart on the same data folder a page gets back in only by proving its resume key, which never leaves it (0600 file, no session on disk)', async () => {
      const dataDir = tempDir();
      const file = path.join(dataDir, 'ui-sessions.json');
      const { host, store } = bareHost();
      running.push(async () => {
        await host.close();
        store.close();
      });
      const first = await startUiServer({ host, rendererDir: tempDir(), credentials: createCredentials({ file }) });
      const page = nodePage(() => first.origin, first.launchLink().url);
      const { session } = await page.session.start();
      const port = first.port;
      await first.close();
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const onDisk = readFileSync(file, 'utf8');
      // No session is kept on disk (the keys name theirs by hash, to live as long as it is used).
      expect(onDisk).not.toContain(session!);

      const credentials = createCredentials({ file });
      expect(credentials.lastPort).toBe(port);
      const second = await startUiServer({ host, rendererDir: tempDir(), credentials, preferredPort: credentials.lastPort });
      running.push(() => second.close());
      expect(second.port).toBe(port);
      // The old secret is nothing to the new process…
      expect(await refusedUpgrade(`ws://127.0.0.1:${port}/ws`, { origin: second.origin, protocols: sessionProtocols(session!) })).toEqual([401, 'SESSION_UNKNOWN']);
      // …the page's proof is: a new session, stored, and a new key.
      expect(await page.session.probe()).toBe('valid');
      const resumed = page.session.secret()!;
      expect(resumed).not.toBe(session);
      expect(page.storage.get(SESSION_STORAGE_KEY)).toBe(resumed);
      expect(await refusedUpgrade(`ws://127.0.0.1:${port}/ws`, { origin: second.origin, protocols: sessionProtocols(resumed) })).toBe(101);
      // Every request the page made for it carried neither its session nor its key.
      const key = (JSON.parse(onDisk) as { resumeKeys: Array<{ key: string }> }).resumeKeys[0]!.key;
      expect(page.sent.join('\n')).not.toContain(key);
      expect(page.sent.filter((sent) => sent.includes('/api/session/hello') || sent.includes('/api/session/resume')).join('\n')).not.toContain(session!);

      // Another data folder knows nothing of that page, and cannot prove it does.
      const stranger = await startUiServer({ host, rendererDir: tempDir(), credentials: createCredentials({ file: path.join(tempDir(), 'ui-sessions.json') }) });
      running.push(() => stranger.close());
      page.moveTo(() => stranger.origin);
      expect(await page.session.probe()).toBe('unknown');
    });

    it('a resume key resumes once, only with the right proof, and only within its challenge', async () => {
      let clock = 7_000_000;
      const credentials = createCredentials({ now: () => clock });
      const traded = credentials.trade(credentials.mintLaunchToken().token);
      if (!traded.ok) throw new Error('trade refused');
      const { id, key } = traded.value.resume;
      const pageNonce = 'p'.repeat(43);
      const hello = credentials.hello(id, pageNonce);
      if (!hello.ok) throw new Error('hello refused');
      expect(hello.value.proof).toBe(proofOf(key, serverProofText(pageNonce, hello.value.serverNonce)));
      // The server's own proof, sent back, is not the page's: the texts differ.
      expect(credentials.resume(hello.value.serverNonce, hello.value.proof)).toMatchObject({ ok: false, error: { code: 'RESUME_REFUSED' } });
      // A challenge is answered once, right or wrong.
      expect(credentials.resume(hello.value.serverNonce, proofOf(key, pageProofText(hello.value.serverNonce, pageNonce)))).toMatchObject({ ok: false, error: { code: 'RESUME_UNKNOWN' } });
      const late = credentials.hello(id, pageNonce);
      if (!late.ok) throw new Error('hello refused');
      clock += 30_001;
      expect(credentials.resume(late.value.serverNonce, proofOf(key, pageProofText(late.value.serverNonce, pageNonce)))).toMatchObject({ ok: false, error: { code: 'RESUME_UNKNOWN' } });
      const good = credentials.hello(id, pageNonce);
      if (!good.ok) throw new Error('hello refused');
      const resumed = credentials.resume(good.value.serverNonce, proofOf(key, pageProofText(good.value.serverNonce, pageNonce)));
      expect(resumed.ok).toBe(true);
      if (resumed.ok) expect(credentials.verify(resumed.value.secret)).toBe(true);
      // Spent.
      expect(credentials.hello(id, pageNonce)).toMatchObject({ ok: false, error: { code: 'RESUME_UNKNOWN' } });
      expect(credentials.hello('u'.repeat(43), pageNonce)).toMatchObject({ ok: false, error: { code: 'RESUME_UNKNOWN' } });
    });

    it('a remembered port taken by another program: the server moves, says so, and no page of the old address gets in (a squatter who heard one gains nothing)', async () => {
      const file = path.join(tempDir(), 'ui-sessions.json');
      const { host, store } = bareHost();
      const first = await startUiServer({ host, rendererDir: tempDir(), credentials: createCredentials({ file }) });
      const page = nodePage(() => first.origin, first.launchLink().url);
      const { session } = await page.session.start();
      const port = first.port;
      await first.close();
      // Another program takes the address (and hears whatever the page sends there).
      const squatter = createServer((_request, response) => response.end('squatting'));
      await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
      running.push(() => new Promise<void>((resolve) => squatter.close(() => resolve())));

      const credentials = createCredentials({ file });
      const moved = await startUiServer({ host, rendererDir: tempDir(), credentials, preferredPort: credentials.lastPort });
      running.push(async () => {
        await moved.close();
        await host.close();
        store.close();
      });
      expect(moved.port).not.toBe(port);
      expect(moved.movedFrom).toBe(port);
      expect(await refusedUpgrade(`ws://127.0.0.1:${moved.port}/ws`, { origin: moved.origin, protocols: sessionProtocols(session!) })).toEqual([401, 'SESSION_UNKNOWN']);
      // Even carried over by hand, the page's key is forgotten at the new address.
      page.moveTo(() => moved.origin);
      expect(await page.session.probe()).toBe('unknown');
      expect(readFileSync(file, 'utf8')).toContain('"resumeKeys":[]');
      // A new link works as always.
      const fresh = await tradeLink(moved.launchLink().url);
      expect(await refusedUpgrade(`ws://127.0.0.1:${moved.port}/ws`, { origin: moved.origin, protocols: sessionProtocols(fresh) })).toBe(101);
    });

    it('forgets a session not connected for its lifetime, and reads a hostile sessions file as no sessions', async () => {
      let clock = 5_000_000;
      const file = path.join(tempDir(), 'ui-sessions.json');
      const credentials = createCredentials({ file, now: () => clock });
      const traded = credentials.trade(credentials.mintLaunchToken().token);
      if (!traded.ok) throw new Error('trade refused');
      expect(credentials.verify(traded.value.secret)).toBe(true);
      clock += SESSION_TTL_MS;
      expect(credentials.verify(traded.value.secret)).toBe(false);
      credentials.touch(traded.value.secret);
      expect(credentials.verify(traded.value.secret)).toBe(false);

      for (const hostile of ['{', JSON.stringify({ version: 2, port: 'x', resumeKeys: [] }), JSON.stringify({ version: 2, port: null, resumeKeys: [{ id: 'zz', key: 'k', session: 'zz', expiresAt: 1 }] })]) {
        writeFileSync(file, hostile);
        const read = createCredentials({ file, now: () => clock });
        expect(read.lastPort).toBeNull();
        expect(read.verify('anything')).toBe(false);
        expect(read.hello('zz', 'p'.repeat(43)).ok).toBe(false);
      }
      // An earlier version's file: its port is kept, its sessions (bound to their process) are not.
      writeFileSync(file, JSON.stringify({ version: 1, port: 4321, sessions: [{ hash: hashSecret(traded.value.secret), expiresAt: clock + 1000 }] }));
      const earlier = createCredentials({ file, now: () => clock });
      expect(earlier.lastPort).toBe(4321);
      expect(earlier.verify(traded.value.secret)).toBe(false);
    });
  });

  describe('the page\'s session (renderer/transport/session.ts) against the real server', () => {
    it('takes the token out of the address bar, trades it, keeps the session in storage and the key in memory, and reconnects after a restart', async () => {
      const file = path.join(tempDir(), 'ui-sessions.json');
      const { host, store } = bareHost();
      running.push(async () => {
        await host.close();
        store.close();
      });
      let server = await startUiServer({ host, rendererDir: tempDir(), credentials: createCredentials({ file }) });
      const page = nodePage(() => server.origin, server.launchLink().url);
      const started = await page.session.start();
      expect(page.replaced).toEqual(['/']);
      expect(started.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(page.storage.get(SESSION_STORAGE_KEY)).toBe(started.session);
      // The same link again (pasted into another tab): used.
      const other = nodePage(() => server.origin, page.link);
      expect(await other.session.start()).toEqual({ session: null, reason: 'link-used' });
      // A reload: the stored session is checked, and the reloaded page gets a key of its own.
      const reloaded = nodePage(() => server.origin, null);
      reloaded.storage.set(SESSION_STORAGE_KEY, started.session!);
      expect(await reloaded.session.start()).toEqual({ session: started.session });

      const statuses: string[] = [];
      const transport = createSocketTransport({
        url: `ws://127.0.0.1:${server.port}/ws`,
        WebSocket: browserLike(() => server.origin),
        protocols: () => sessionProtocols(page.session.secret()!),
        probe: page.session.probe,
        reconnectMs: 20,
        onStatus: (status) => void statuses.push(status),
      });
      const relay = buildRelayApi(transport);
      expect(await relay.listProjects({})).toEqual({ ok: true, value: [] });

      const port = server.port;
      await server.close();
      await until('the page to see the server gone', () => statuses.at(-1) === 'lost');
      server = await startUiServer({ host, rendererDir: tempDir(), credentials: createCredentials({ file }), preferredPort: port });
      expect(server.port).toBe(port);
      await until('the page to reconnect by itself', () => statuses.at(-1) === 'open');
      expect(await relay.listProjects({})).toEqual({ ok: true, value: [] });
      // The reloaded page's own key works as well (after its restart it proves itself too).
      expect(await reloaded.session.probe()).toBe('valid');

      // Restarted on another data folder at the same address: the page is told it is unknown.
      await server.close();
      server = await startUiServer({ host, rendererDir: tempDir(), credentials: createCredentials({ file: path.join(tempDir(), 'ui-sessions.json') }), preferredPort: port });
      running.push(() => server.close());
      await until('the page to learn it is unknown', () => statuses.at(-1) === 'session-unknown');
      transport.close();
    });

    it('sends nothing but a hello to an answer that cannot prove it knows the key, and never connects to it', async () => {
      const { host, store } = bareHost();
      const server = await startUiServer({ host, rendererDir: tempDir(), credentials: createCredentials() });
      const page = nodePage(() => server.origin, server.launchLink().url);
      const { session } = await page.session.start();
      const port = server.port;
      await server.close();
      await host.close();
      store.close();
      // The squatter says yes to everything, in the shapes the page expects.
      const heard: string[] = [];
      const squatter = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          heard.push(`${request.url} ${JSON.stringify(request.headers)} ${body}`);
          response.writeHead(200, { 'Content-Type': 'application/json' });
          response.end(JSON.stringify({ serverNonce: 'N'.repeat(43), proof: 'P'.repeat(43), session: 'S'.repeat(43), resume: { id: 'I'.repeat(43), key: 'K'.repeat(43) } }));
        });
      });
      await new Promise<void>((resolve) => squatter.listen(port, '127.0.0.1', resolve));
      running.push(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
      expect(await page.session.probe()).toBe('unknown');
      expect(await page.session.probe()).toBe('unknown');
      expect(page.session.secret()).toBe(session);
      expect(heard).toHaveLength(2);
      for (const request of heard) {
        expect(request.startsWith('/api/session/hello ')).toBe(true);
        expect(request).not.toContain(session!);
        expect(request).not.toContain('authorization');
      }
    });
  });
});

describe('a runtime restarted after a crash (its event log lost the tail the page saw)', () => {
  it('is recognised on reconnection: events count from its last one, so none of its new events is dropped as a replay', async () => {
    const file = path.join(tempDir(), 'ui-sessions.json');
    const first = bareHost();
    let server = await startUiServer({ host: first.host, rendererDir: tempDir(), credentials: createCredentials({ file }) });
    const page = nodePage(() => server.origin, server.launchLink().url);
    await page.session.start();
    const statuses: string[] = [];
    const restarts: number[] = [];
    const port = server.port;
    const transport = createSocketTransport({
      url: `ws://127.0.0.1:${port}/ws`,
      WebSocket: browserLike(() => server.origin),
      protocols: () => sessionProtocols(page.session.secret()!),
      probe: page.session.probe,
      reconnectMs: 20,
      onStatus: (status) => void statuses.push(status),
      onRuntimeRestart: (seq) => void restarts.push(seq),
    });
    const relay = buildRelayApi(transport);
    const events: EventEnvelope[] = [];
    relay.onEvent((e) => events.push(e));
    // Many events the page sees (five projects registered) …
    for (let i = 0; i < 5; i += 1) expect((await relay.registerProject({ root: relayProject({ projectId: `seen-${i}` }) })).ok).toBe(true);
    await until('the page to see them', () => (events.filter((e) => e.event.type === 'project.registered').length === 5 ? true : undefined));
    const seen = events.at(-1)!.seq;
    await server.close();
    await first.host.close();
    first.store.close();
    await until('the page to see the server gone', () => (statuses.at(-1) === 'lost' ? true : undefined));
    // … and a runtime over a store that kept none of them (as after a crash lost the log's tail).
    const second = bareHost();
    server = await startUiServer({ host: second.host, rendererDir: tempDir(), credentials: createCredentials({ file }), preferredPort: port });
    running.push(async () => {
      transport.close();
      await server.close();
      await second.host.close();
      second.store.close();
    });
    await until('the page to reconnect', () => (statuses.at(-1) === 'open' ? true : undefined));
    await until('the restart to be recognised', () => (restarts.length === 1 ? true : undefined));
    expect(restarts[0]).toBeLessThan(seen);
    expect((await relay.registerProject({ root: relayProject({ projectId: 'after-crash' }) })).ok).toBe(true);
    await until('the new runtime’s event to reach the page', () => (events.some((e) => e.event.type === 'project.registered' && e.event.projectId === 'after-crash') ? true : undefined));
  });
});

/**
 * A page's credentials as session.ts keeps them, in Node: real fetch (with the Origin a browser
 * adds), real WebCrypto. `moveTo` points the same page (its memory and storage) at another server,
 * as if that server had taken its address.
 */
function nodePage(origin: () => string, link: string | null): { session: PageSession; storage: Map<string, string>; replaced: string[]; sent: string[]; link: string; moveTo(next: () => string): void } {
  const replaced: string[] = [];
  const sent: string[] = [];
  const storage = new Map<string, string>();
  const url = link === null ? null : new URL(link);
  let current = origin;
  const fetchFn = ((target: string, init: RequestInit & { headers: Record<string, string> }) => {
    sent.push(`${target} ${JSON.stringify(init.headers)} ${String(init.body ?? '')}`);
    return fetch(target, { ...init, headers: { ...init.headers, origin: current() } });
  }) as FetchLike;
  const session = createPageSession({
    location: { hash: url?.hash ?? '', pathname: '/', search: '' },
    history: { replaceState: (_d: unknown, _u: string, next: string) => void replaced.push(next) },
    storage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) },
    fetch: fetchFn,
    get base() {
      return current();
    },
  });
  return { session, storage, replaced, sent, link: link ?? '', moveTo: (next) => (current = next) };
}

/** The `ws` client with the Origin header a browser adds. */
function browserLike(origin: () => string): SocketConstructor {
  return class extends WebSocket {
    constructor(url: string, offered?: string[]) {
      super(url, offered ?? [], { origin: origin() });
    }
  } as unknown as SocketConstructor;
}

/** A host over a fresh store, with no engines. */
function bareHost(): { host: Host; store: ReturnType<typeof openStore> } {
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  return { host: createHost({ store }), store };
}

