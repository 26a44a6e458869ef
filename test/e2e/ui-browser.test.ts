// The built renderer in a real browser (Debian's chromium through playwright-core), served by
// `relay ui`'s server over a real host: window.relay works over the WebSocket exactly as the
// Electron preload's will. Skipped, and says so, where chromium is not installed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUiServer, type UiServer } from '../../src/cli/ui-server.js';
import { openStore, type Store } from '../../src/engine/store/index.js';
import { createHost, type Host } from '../../src/host/index.js';
import type { RelayApi } from '../../src/shared/api.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { relayProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RENDERER = path.join(REPO_ROOT, 'out/renderer');
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`SKIPPED the browser test: no chromium at ${CHROMIUM} (set CHROMIUM_PATH).`);

// These run in the page, where the DOM exists; the test's tsconfig has no DOM types.
declare const window: { relay: RelayApi; seen: string[] };
declare const document: { getElementById(id: string): { dataset: Record<string, string | undefined> } | null };

describe.skipIf(!haveChromium)('relay ui in a real browser', () => {
  let store: Store;
  let host: Host;
  let server: UiServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(path.join(RENDERER, 'index.html'))) throw new Error('out/renderer is missing: run `npm run build` (npm test does it first).');
    store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    host = createHost({ store });
    server = await startUiServer({ host, rendererDir: RENDERER });
    // --no-sandbox: the test machines run as root, where chromium's sandbox refuses to start.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
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
    await page.waitForFunction(() => document.getElementById('root')?.dataset.projects === '0');

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

  it('gives a page without the token nothing but a 401', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${server.origin}/`);
    expect(response?.status()).toBe(401);
    await context.close();
  });
});
