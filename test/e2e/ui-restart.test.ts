// `relay ui` stopped and started again, as real processes, with a real page open in chromium:
// the page says it stopped, then reconnects by itself on the same data folder (same address,
// its session remembered hashed in the folder), or says exactly what to open when it cannot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayApi } from '../../src/shared/api.js';
import { relayProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { startRelayUi, type RelayUiProcess } from '../helpers/ui.js';
import { launchBrowser, screenshot, type TestBrowser } from './support/browser.js';

declare const window: { relay: RelayApi };
declare const document: { querySelector(selector: string): unknown };

const PATH = process.env.PATH ?? '/usr/bin:/bin';

describe('relay ui restarting under an open page', () => {
  let browser: TestBrowser;
  const running: RelayUiProcess[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    for (const ui of running) if (ui.child.exitCode === null) await ui.stop();
  });

  it('says it stopped, reconnects by itself when started again on the same data folder, says what to open when it cannot, and keeps its session for the right one', async () => {
    const dataDir = tempDir('relay-restart-data-');
    const env = { PATH, HOME: tempDir('relay-restart-home-') };
    const first = await startRelayUi({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    running.push(first);
    const page = await browser.newPage();
    await page.goto(first.link);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);

    expect((await first.stop()).exitCode).toBe(0);
    const stopped = page.getByRole('alert').filter({ hasText: 'Relay Desk has stopped' });
    await stopped.waitFor({ state: 'visible', timeout: 20_000 });

    // Started again (no --port): it takes the same address, and knows the page.
    const second = await startRelayUi({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    running.push(second);
    expect(second.port).toBe(first.port);
    await stopped.waitFor({ state: 'detached', timeout: 30_000 });
    const root = relayProject({ projectId: 'after-restart' });
    expect(await page.evaluate((folder) => window.relay.registerProject({ root: folder }), root)).toMatchObject({ ok: true, value: { projectId: 'after-restart' } });
    expect((await second.stop()).exitCode).toBe(0);

    // Started on another data folder at that address: it cannot know the page, and the page says what to do.
    const stranger = await startRelayUi({ args: ['--data-dir', tempDir('relay-restart-other-'), '--port', String(first.port)], env, cwd: tempDir() });
    running.push(stranger);
    const unknown = page.getByRole('alert').filter({ hasText: 'Relay Desk does not know this page any more' });
    await unknown.waitFor({ state: 'visible', timeout: 30_000 });
    expect(await unknown.innerText()).toContain('open the link it prints');
    await screenshot(page, 'restart-unknown-page');
    expect((await stranger.stop()).exitCode).toBe(0);

    // The right data folder again: the page still holds its session and gets back in.
    const third = await startRelayUi({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    running.push(third);
    expect(third.port).toBe(first.port);
    await unknown.waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.evaluate(() => window.relay.listProjects({}))).toMatchObject({ ok: true, value: [{ projectId: 'after-restart' }] });
    await page.close();
  });
});
