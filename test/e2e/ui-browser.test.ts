// The built renderer in a real browser (Debian's chromium through playwright-core), served by
// `relay ui`'s server over a real host: window.relay works over the WebSocket exactly as the
// Electron preload's will. A missing chromium fails the run with the fix (see support/browser.ts).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCredentials } from '../../src/cli/ui-credentials.js';
import { startUiServer, type UiServer } from '../../src/cli/ui-server.js';
import { openStore, type Store } from '../../src/engine/store/index.js';
import { createHost, type Host } from '../../src/host/index.js';
import type { RelayApi } from '../../src/shared/api.js';
import { relayProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { launchBrowser, RENDERER_DIR, screenshot, type TestBrowser } from './support/browser.js';

// These run in the page, where the DOM exists; the test's tsconfig has no DOM types.
declare const window: { relay: RelayApi; seen: string[]; location: { hash: string; href: string }; sessionStorage: { getItem(key: string): string | null } };
declare const document: { querySelector(selector: string): unknown };

describe('relay ui in a real browser', () => {
  let store: Store;
  let host: Host;
  let server: UiServer;
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser();
    store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    host = createHost({ store });
    server = await startUiServer({ host, rendererDir: RENDERER_DIR });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    store?.close();
  });

  it('loads the page from a launch link, drops the token from the address bar, and talks to the host through window.relay', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const cookiesSet: string[] = [];
    page.on('response', (response) => {
      const cookie = response.headers()['set-cookie'];
      if (cookie) cookiesSet.push(cookie);
    });
    const link = server.launchLink();
    await page.goto(link.url);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    await link.traded;
    expect(page.url()).toBe(`${server.origin}/`);
    expect(await page.evaluate(() => window.location.href)).not.toContain('token');
    // The session lives in this tab's sessionStorage, never in a cookie.
    expect(await page.evaluate(() => window.sessionStorage.getItem('relay-desk.session'))).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookiesSet).toEqual([]);
    expect(await browser.context.cookies()).toEqual([]);

    await page.evaluate(() => {
      window.seen = [];
      window.relay.onEvent((envelope) => window.seen.push(envelope.event.type));
    });
    const root = relayProject({ projectId: 'in-browser' });
    const registered = await page.evaluate((folder) => window.relay.registerProject({ root: folder }), root);
    expect(registered).toMatchObject({ ok: true, value: { projectId: 'in-browser' } });
    await page.waitForFunction(() => window.seen.includes('project.registered'));

    expect(await page.evaluate(() => window.relay.listProjects({}))).toMatchObject({ ok: true, value: [{ projectId: 'in-browser' }] });
    expect(await page.evaluate(() => window.relay.applyPatch({ text: '', source: 'paste' }))).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await page.evaluate(() => Object.isFrozen(window.relay) && Object.getOwnPropertyDescriptor(window, 'relay')?.writable === false)).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('serves a minified bundle (electron-vite leaves renderer builds unminified unless told)', async () => {
    const page = await browser.newPage();
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.push(response.url());
    });
    await page.goto(server.launchLink().url);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    expect(scripts.length).toBeGreaterThan(0);
    for (const url of scripts) {
      const body = await (await page.context().request.get(url)).text();
      // Unminified, the bundle has a line every ~40 characters; minified, a handful of lines in all.
      expect(body.length / body.split('\n').length, url).toBeGreaterThan(2000);
    }
    await page.close();
  });

  it('says when relay ui stops and what to open; a new run is another address, and its link opens a page that shows what changed meanwhile', async () => {
    // Servers over the same host, stopped and started again as `relay ui` would be.
    let second = await startUiServer({ host, rendererDir: RENDERER_DIR, credentials: createCredentials() });
    const { origin } = second;
    const page = await browser.newPage();
    await page.goto(second.launchLink().url);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    const banner = page.getByRole('alert').filter({ hasText: 'Relay Desk has stopped' });
    expect(await banner.count()).toBe(0);

    await second.close();
    await banner.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await banner.innerText()).toContain('If it stopped, start it again and open the link it prints');
    await screenshot(page, 'connection-lost');
    // A project registered while the window was cut off shows up on the new run's page.
    const root = relayProject({ projectId: 'while-away' });
    expect((await host.call('registerProject', { root })).ok).toBe(true);

    second = await startUiServer({ host, rendererDir: RENDERER_DIR, credentials: createCredentials() });
    try {
      expect(second.origin).not.toBe(origin);
      // The old page stays on its address, still saying what to do.
      await page.waitForTimeout(1500);
      expect(await banner.count()).toBe(1);
      await page.goto(second.launchLink().url);
      await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
      expect(await banner.count()).toBe(0);
      await page.evaluate(() => {
        window.location.hash = '#/projects';
      });
      await page.getByText('while-away').first().waitFor({ state: 'visible', timeout: 10_000 });
    } finally {
      await second.close();
    }

    // Another server at the very same address (only another program could be there): it does not know the page, and the page says exactly what to do.
    const { hostname: address, port } = new URL(second.origin);
    second = await startUiServer({ host, rendererDir: RENDERER_DIR, credentials: createCredentials(), address, port: Number(port) });
    try {
      const unknown = page.getByRole('alert').filter({ hasText: 'Relay Desk does not know this page any more' });
      await unknown.waitFor({ state: 'visible', timeout: 20_000 });
      expect(await unknown.innerText()).toContain('Press Enter in the terminal running relay ui for a new link');
      await screenshot(page, 'connection-unknown-page');
    } finally {
      await page.close();
      await second.close();
    }
  });

  it('tells a page opened without a link, or with a used one, what to open — and gives it nothing', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.origin}/`);
    const banner = page.getByRole('alert').filter({ hasText: 'This page is not signed in to Relay Desk' });
    await banner.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await page.getByText('in-browser').count()).toBe(0);

    const link = server.launchLink();
    const first = await browser.newPage();
    await first.goto(link.url);
    await link.traded;
    const replay = await browser.newPage();
    await replay.goto(link.url);
    await replay.getByRole('alert').filter({ hasText: 'This link was already used' }).waitFor({ state: 'visible', timeout: 10_000 });
    for (const p of [page, first, replay]) await p.close();
  });
});
