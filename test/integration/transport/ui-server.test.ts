// `relay ui`'s server on a real port, over a real host and store: the launch-token trade, the
// gate (session, Origin, Host), refused frames, size limits, ordering, and the renderer's
// WebSocket client.
import { createServer } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createCredentials, LAUNCH_TOKEN_TTL_MS, serverProof, sessionIdOf, SESSION_TTL_MS } from '../../../src/cli/ui-credentials.js';
import { startUiServer, type UiServer } from '../../../src/cli/ui-server.js';
import { ok } from '../../../src/engine/result.js';
import type { RelayEngine } from '../../../src/engine/runtime/index.js';
import { openStore } from '../../../src/engine/store/index.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { createPageSession, FETCH_TIMEOUT_MS, SESSION_STORAGE_KEY, type FetchLike, type PageSession } from '../../../src/renderer/transport/session.js';
import { createSocketTransport, type SocketConstructor } from '../../../src/renderer/transport/socket-transport.js';
import { buildRelayApi } from '../../../src/shared/api.js';
import type { EventEnvelope } from '../../../src/shared/contract.js';
import type { ServerFrame } from '../../../src/shared/wire.js';
import { relayProject } from '../../helpers/project.js';
import { openSocket } from '../../helpers/socket.js';
import { httpRequest, launchToken, postTrade, refusalCode, sessionProtocols, socketUrl, tradeLink, type RawResponse, type Target } from '../../helpers/ui.js';
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
  return { host, server, asked, ws: socketUrl(server.origin), protocols: sessionProtocols(session) };
}

function get(target: Target, pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return httpRequest(target, { path: pathname, headers, method });
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
      const page = await get(server.origin, '/');
      expect(page.status).toBe(200);
      expect(page.body).toContain('<title>Relay Desk</title>');
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['set-cookie']).toBeUndefined();
      const asset = await get(server.origin, '/assets/app-1234.js');
      expect(asset).toMatchObject({ status: 200, body: 'console.log("app");' });
      expect(asset.headers['content-type']).toContain('text/javascript');
      expect((await get(server.origin, '/runs/some-client-route')).body).toContain('<title>Relay Desk</title>');
    });

    it('trades a launch link once for a session, and refuses the second trade with LAUNCH_TOKEN_USED', async () => {
      const { server } = await start();
      const link = server.launchLink();
      expect(link.url).toMatch(new RegExp(`^http://127\\.\\d+\\.\\d+\\.\\d+:${server.port}/#token=[A-Za-z0-9_-]{43}$`));
      let traded = false;
      void link.traded.then(() => (traded = true));
      const first = await postTrade(server.origin, launchToken(link.url));
      expect(first.status).toBe(200);
      expect(first.headers['set-cookie']).toBeUndefined();
      expect(first.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(first.body)).toMatchObject({ session: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
      await link.traded;
      expect(traded).toBe(true);
      const again = await postTrade(server.origin, launchToken(link.url));
      expect([again.status, refusalCode(again)]).toEqual([401, 'LAUNCH_TOKEN_USED']);
      const made = await postTrade(server.origin, 'A'.repeat(43));
      expect([made.status, refusalCode(made)]).toEqual([401, 'LAUNCH_TOKEN_UNKNOWN']);
    });

    it('refuses a trade without our Origin, with a foreign one, without JSON, or under another Host name', async () => {
      const { server } = await start();
      const token = launchToken(server.launchLink().url);
      const noOrigin = await postTrade(server.origin, token, { origin: null });
      expect([noOrigin.status, refusalCode(noOrigin)]).toEqual([403, 'ORIGIN_REQUIRED']);
      const foreign = await postTrade(server.origin, token, { origin: `http://127.0.0.1:${server.port + 1}` });
      expect([foreign.status, refusalCode(foreign)]).toEqual([403, 'ORIGIN_REFUSED']);
      const rebinding = await postTrade(server.origin, token, { headers: { host: `attacker.example:${server.port}` } });
      expect([rebinding.status, refusalCode(rebinding)]).toEqual([403, 'HOST_REFUSED']);
      const form = await httpRequest(server.origin, { path: '/api/session', method: 'POST', headers: { origin: server.origin, 'content-type': 'text/plain' }, body: JSON.stringify({ launchToken: token }) });
      expect([form.status, refusalCode(form)]).toEqual([415, 'CONTENT_TYPE_REFUSED']);
      // None of those used the token up: the page can still trade it.
      expect((await postTrade(server.origin, token)).status).toBe(200);
    });

    it('proves it knows a session (hello, given only its public id) or says it does not, and reads no cookie or Bearer header', async () => {
      const { server, protocols } = await start();
      const session = protocols[1]!.slice('relay-desk.session.'.length);
      const hello = (body: unknown, headers: Record<string, string> = {}) =>
        httpRequest(server.origin, { path: '/api/session/hello', method: 'POST', headers: { origin: server.origin, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const pageNonce = 'n'.repeat(43);
      const known = await hello({ sessionId: sessionIdOf(session), pageNonce });
      expect(known.status).toBe(200);
      expect(JSON.parse(known.body)).toEqual({ proof: serverProof(session, pageNonce) });
      // The proof is over the page's nonce: another nonce, another proof.
      expect(JSON.parse((await hello({ sessionId: sessionIdOf(session), pageNonce: 'm'.repeat(43) })).body).proof).not.toBe(serverProof(session, pageNonce));
      const unknown = await hello({ sessionId: sessionIdOf('x'.repeat(43)), pageNonce });
      expect([unknown.status, refusalCode(unknown)]).toEqual([401, 'SESSION_UNKNOWN']);
      // The secret itself is not a session id, and a secret in a header or cookie proves nothing here.
      const secretAsId = await hello({ sessionId: session, pageNonce }, { authorization: `Bearer ${session}`, cookie: `relay_ui_${server.port}=${session}` });
      expect([secretAsId.status, refusalCode(secretAsId)]).toEqual([401, 'SESSION_UNKNOWN']);
      const malformed = await hello({ sessionId: sessionIdOf(session), pageNonce: 'short' });
      expect([malformed.status, refusalCode(malformed)]).toEqual([400, 'BAD_REQUEST']);
      // The old Bearer check is gone.
      const check = await httpRequest(server.origin, { path: '/api/session/check', method: 'POST', headers: { origin: server.origin, authorization: `Bearer ${session}` } });
      expect([check.status, refusalCode(check)]).toEqual([404, 'NOT_FOUND']);
    });

    it('refuses a foreign Origin or Host, other methods, and paths outside the renderer', async () => {
      const { server } = await start();
      expect((await get(server.origin, '/', { origin: 'http://evil.example' })).status).toBe(403);
      expect((await get(server.origin, '/', { origin: `http://127.0.0.1:${server.port + 1}` })).status).toBe(403);
      const rebinding = await get(server.origin, '/', { host: `attacker.example:${server.port}` });
      expect([rebinding.status, refusalCode(rebinding)]).toEqual([403, 'HOST_REFUSED']);
      expect((await get(server.origin, '/', {}, 'POST')).status).toBe(405);
      expect((await get(server.origin, '/api/session', { origin: server.origin })).status).toBe(405);
      expect((await get(server.origin, '/%2e%2e/%2e%2e/%2e%2e/etc/hostname.txt')).status).toBe(404);
      expect((await get(server.origin, '/assets/missing.js')).status).toBe(404);
    });

    it('falls back to 127.0.0.1 where the random address is not a local one (macOS has only that one by default)', async () => {
      const { host, store } = bareHost();
      // 192.0.2.1 (TEST-NET) is on no interface here: binding it fails with EADDRNOTAVAIL, as 127.x.y.z does on macOS.
      const server = await startUiServer({ host, rendererDir: tempDir(), pickAddress: () => '192.0.2.1' });
      running.push(async () => {
        await server.close();
        await host.close();
        store.close();
      });
      expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
      expect((await postTrade(server.origin, launchToken(server.launchLink().url))).status).toBe(200);
      // An address given on purpose is never swapped for another.
      await expect(startUiServer({ host, rendererDir: tempDir(), address: '192.0.2.1' })).rejects.toMatchObject({ code: 'EADDRNOTAVAIL' });
    });

    it('binds to the loopback interface only', async () => {
      const { server } = await start();
      expect(server.origin).toMatch(new RegExp(`^http://127\\.\\d+\\.\\d+\\.\\d+:${server.port}$`));
      // Not on 127.0.0.1 (where this system has the whole 127/8), nor twice on the same address.
      const otherHost = bareHost();
      const other = await startUiServer({ host: otherHost.host, rendererDir: tempDir() });
      running.push(async () => {
        await other.close();
        await otherHost.host.close();
        otherHost.store.close();
      });
      expect(new URL(server.origin).hostname).not.toBe('127.0.0.1');
      expect(new URL(other.origin).hostname).not.toBe(new URL(server.origin).hostname);
      // Nothing answers for it on 127.0.0.1.
      await expect(httpRequest(server.port, { path: '/' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
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
      expect(await refusedUpgrade(socketUrl(server.origin, '/other'), { origin: server.origin, protocols })).toEqual([404, 'NOT_FOUND']);
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
      expect((await postTrade(server.origin, launchToken(inTime.url))).status).toBe(200);
      clock += 1;
      const refused = await postTrade(server.origin, launchToken(late.url));
      expect([refused.status, refusalCode(refused)]).toEqual([401, 'LAUNCH_TOKEN_EXPIRED']);
      expect(JSON.parse(refused.body).error.message).toContain('Press Enter in the terminal running `relay ui`');
      store.close();
    });

    it('serves a new address each run, and a server knows only its own sessions: a page of another run is never let in', async () => {
      const { host, store } = bareHost();
      running.push(async () => {
        await host.close();
        store.close();
      });
      const first = await startUiServer({ host, rendererDir: tempDir() });
      const page = nodePage(() => first.origin, first.launchLink().url);
      const { session } = await page.session.start();
      const { port, hostname: address } = new URL(first.origin);
      await first.close();
      // Nothing of it on disk (createCredentials takes no file), and a new address.
      const second = await startUiServer({ host, rendererDir: tempDir() });
      running.push(() => second.close());
      expect(second.origin).not.toBe(first.origin);
      // Even at the very same address (which only another program could take), the old secret is nothing to a new server, and it cannot prove it knows the page.
      await second.close();
      const sameAddress = await startUiServer({ host, rendererDir: tempDir(), address, port: Number(port) });
      running.push(() => sameAddress.close());
      expect(sameAddress.origin).toBe(first.origin);
      expect(await refusedUpgrade(socketUrl(sameAddress.origin), { origin: sameAddress.origin, protocols: sessionProtocols(session!) })).toEqual([401, 'SESSION_UNKNOWN']);
      expect(await page.session.probe()).toBe('unknown');
      // Only hellos went out: the secret itself was never sent again.
      expect(page.sent.filter((sent) => !sent.includes('/api/session/hello'))).toHaveLength(1); // the trade
      expect(page.sent.slice(1).join('\n')).not.toContain(session!);
    });

    it('forgets a session not connected for its lifetime, and proves nothing for it afterwards', async () => {
      let clock = 5_000_000;
      const credentials = createCredentials({ now: () => clock });
      const traded = credentials.trade(credentials.mintLaunchToken().token);
      if (!traded.ok) throw new Error('trade refused');
      const id = sessionIdOf(traded.value.secret);
      expect(credentials.verify(traded.value.secret)).toBe(true);
      expect(credentials.prove(id, 'n'.repeat(43))).toEqual({ ok: true, value: serverProof(traded.value.secret, 'n'.repeat(43)) });
      clock += SESSION_TTL_MS;
      expect(credentials.verify(traded.value.secret)).toBe(false);
      credentials.touch(traded.value.secret);
      expect(credentials.verify(traded.value.secret)).toBe(false);
      expect(credentials.prove(id, 'n'.repeat(43))).toMatchObject({ ok: false, error: { code: 'SESSION_UNKNOWN' } });
    });
  });

  describe('the page\'s session (renderer/transport/session.ts) against the real server', () => {
    it('takes the token out of the address bar, trades it, keeps the session in storage, reconnects after a dropped connection, and is told when another run answers', async () => {
      const { host, store } = bareHost();
      running.push(async () => {
        await host.close();
        store.close();
      });
      let server = await startUiServer({ host, rendererDir: tempDir() });
      const page = nodePage(() => server.origin, server.launchLink().url);
      const started = await page.session.start();
      expect(page.replaced).toEqual(['/']);
      expect(started.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(page.storage.get(SESSION_STORAGE_KEY)).toBe(started.session);
      // The same link again (pasted into another tab): used.
      const other = nodePage(() => server.origin, page.link);
      expect(await other.session.start()).toEqual({ session: null, reason: 'link-used' });
      // A reload: the stored session is used once the server proved it knows it.
      const reloaded = nodePage(() => server.origin, null);
      reloaded.storage.set(SESSION_STORAGE_KEY, started.session!);
      expect(await reloaded.session.start()).toEqual({ session: started.session });

      const statuses: string[] = [];
      const sockets: WebSocket[] = [];
      const transport = createSocketTransport({
        url: socketUrl(server.origin),
        WebSocket: browserLike(() => server.origin, sockets),
        protocols: () => sessionProtocols(page.session.secret()!),
        probe: page.session.probe,
        reconnectMs: 20,
        onStatus: (status) => void statuses.push(status),
      });
      const relay = buildRelayApi(transport);
      expect(await relay.listProjects({})).toEqual({ ok: true, value: [] });
      // The connection drops while the server runs: back by itself, once the server proved itself.
      sockets.at(-1)!.terminate();
      await until('the page to see the connection gone', () => statuses.includes('lost'));
      await until('the page to reconnect by itself', () => statuses.at(-1) === 'open');
      expect(await relay.listProjects({})).toEqual({ ok: true, value: [] });

      // Another server at the same address: it does not know the page, and the page says so.
      const { port, hostname: address } = new URL(server.origin);
      await server.close();
      server = await startUiServer({ host, rendererDir: tempDir(), address, port: Number(port) });
      running.push(() => server.close());
      await until('the page to learn it is unknown', () => statuses.at(-1) === 'session-unknown');
      // A reloaded tab of the old run is told too, and connects to nothing.
      const stale = nodePage(() => server.origin, null);
      stale.storage.set(SESSION_STORAGE_KEY, started.session!);
      expect(await stale.session.start()).toEqual({ session: null, reason: 'session-unknown' });
      transport.close();
    });

    it('sends nothing but a hello to an answer that cannot prove it knows the session, never connects to it, and gives up on one that never finishes answering', async () => {
      const { host, store } = bareHost();
      const server = await startUiServer({ host, rendererDir: tempDir() });
      const page = nodePage(() => server.origin, server.launchLink().url);
      const { session } = await page.session.start();
      const { port, hostname: address } = new URL(server.origin);
      await server.close();
      await host.close();
      store.close();
      // The squatter says yes to everything, in the shapes the page expects; the second request it never finishes.
      const heard: string[] = [];
      const squatter = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          heard.push(`${request.url} ${JSON.stringify(request.headers)} ${body}`);
          response.writeHead(200, { 'Content-Type': 'application/json' });
          if (heard.length === 2) response.write(' '); // and then nothing, ever
          else response.end(JSON.stringify({ proof: 'P'.repeat(43), session: 'S'.repeat(43) }));
        });
      });
      await new Promise<void>((resolve) => squatter.listen(Number(port), address, resolve));
      running.push(async () => {
        squatter.closeAllConnections();
        await new Promise<void>((resolve) => squatter.close(() => resolve()));
      });
      expect(await page.session.probe()).toBe('unknown');
      const started = Date.now();
      expect(await page.session.probe()).toBe('unreachable');
      expect(Date.now() - started).toBeGreaterThanOrEqual(FETCH_TIMEOUT_MS - 100);
      expect(page.session.secret()).toBe(session);
      expect(heard).toHaveLength(2);
      for (const request of heard) {
        expect(request.startsWith('/api/session/hello ')).toBe(true);
        expect(request).not.toContain(session!);
        expect(request.toLowerCase()).not.toContain('authorization');
      }
    }, 20_000);
  });
});

describe('a runtime restarted after a crash (its event log lost the tail the page saw)', () => {
  it('is recognised on reconnection: events count from its last one, so none of its new events is dropped as a replay', async () => {
    // One process's credentials over two runtimes: the page's session stays good, the runtime behind it changes.
    const credentials = createCredentials();
    const first = bareHost();
    let server = await startUiServer({ host: first.host, rendererDir: tempDir(), credentials });
    const page = nodePage(() => server.origin, server.launchLink().url);
    await page.session.start();
    const statuses: string[] = [];
    const restarts: number[] = [];
    const { port, hostname: address } = new URL(server.origin);
    const transport = createSocketTransport({
      url: socketUrl(server.origin),
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
    server = await startUiServer({ host: second.host, rendererDir: tempDir(), credentials, address, port: Number(port) });
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

/** A page's credentials as session.ts keeps them, in Node: real fetch (with the Origin a browser adds), real WebCrypto. */
function nodePage(origin: () => string, link: string | null): { session: PageSession; storage: Map<string, string>; replaced: string[]; sent: string[]; link: string } {
  const replaced: string[] = [];
  const sent: string[] = [];
  const storage = new Map<string, string>();
  const url = link === null ? null : new URL(link);
  const current = origin;
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
  return { session, storage, replaced, sent, link: link ?? '' };
}

/** The `ws` client with the Origin header a browser adds; each socket made is pushed to `made`. */
function browserLike(origin: () => string, made: WebSocket[] = []): SocketConstructor {
  return class extends WebSocket {
    constructor(url: string, offered?: string[]) {
      super(url, offered ?? [], { origin: origin() });
      made.push(this);
    }
  } as unknown as SocketConstructor;
}

/** A host over a fresh store, with no engines. */
function bareHost(): { host: Host; store: ReturnType<typeof openStore> } {
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  return { host: createHost({ store }), store };
}

