// The built renderer in a real browser (Debian's chromium through playwright-core), served by
// `relay ui`'s server over a real host: window.relay works over the WebSocket exactly as the
// Electron preload's will. A missing chromium fails the run with the fix (see support/browser.ts).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUiServer, type UiServer } from '../../src/cli/ui-server.js';
import { openStore, type Store } from '../../src/engine/store/index.js';
import { createHost, type Host } from '../../src/host/index.js';
import type { RelayApi } from '../../src/shared/api.js';
import { relayProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { launchBrowser, RENDERER_DIR, screenshot, type TestBrowser } from './support/browser.js';

// These run in the page, where the DOM exists; the test's tsconfig has no DOM types.
declare const window: { relay: RelayApi; seen: string[]; location: { hash: string } };
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

  it('loads the page from the tokened URL and talks to the host through window.relay', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    expect(page.url()).toBe(`${server.origin}/`);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);

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
    await page.goto(server.url);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    expect(scripts.length).toBeGreaterThan(0);
    for (const url of scripts) {
      const body = await (await page.context().request.get(url)).text();
      // Unminified, the bundle has a line every ~40 characters; minified, a handful of lines in all.
      expect(body.length / body.split('\n').length, url).toBeGreaterThan(2000);
    }
    await page.close();
  });

  it('shows a banner while the server is gone, and drops it (refetching) once the server is back', async () => {
    // A second server over the same host, restarted on its port with its token, as `relay ui` would be.
    let second = await startUiServer({ host, rendererDir: RENDERER_DIR });
    const { port, token } = second;
    const page = await browser.newPage();
    await page.goto(second.url);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    const banner = page.getByRole('alert').filter({ hasText: 'Lost the connection to Relay Desk' });
    expect(await banner.count()).toBe(0);

    await second.close();
    await banner.waitFor({ state: 'visible', timeout: 10_000 });
    await screenshot(page, 'connection-lost');
    // A project registered while the window was cut off shows up once it reconnects.
    const root = relayProject({ projectId: 'while-away' });
    expect((await host.call('registerProject', { root })).ok).toBe(true);

    second = await startUiServer({ host, rendererDir: RENDERER_DIR, port, token });
    try {
      await banner.waitFor({ state: 'detached', timeout: 20_000 });
      await page.evaluate(() => {
        window.location.hash = '#/projects';
      });
      await page.getByText('while-away').first().waitFor({ state: 'visible', timeout: 10_000 });
    } finally {
      await page.close();
      await second.close();
    }
  });

  it('gives a page without the token nothing but a 401', async () => {
    // The profile holds the first test's cookie: forget it, as a browser that never had the URL would.
    await browser.context.clearCookies();
    const page = await browser.newPage();
    const response = await page.goto(`${server.origin}/`);
    expect(response?.status()).toBe(401);
    await page.close();
  });
});
