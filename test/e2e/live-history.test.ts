// Live history in a real browser through `relay ui` (a real process): runs made with the CLIs
// while the page is open appear in it without a reload — a `relay apply` and a `relais run` (the
// fake Claude on disk) within 2 s of the command's end, waiting on the DOM, never a fixed sleep —
// a deep link to a CLI-made tick opens at once, and an apply SIGKILLed mid-way becomes a
// rolled-back run with its diff (and a notice) once the next command has recovered it.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultRelayConfig, writeRelayConfig } from '../../src/engine/patch/config.js';
import type { RelayApi } from '../../src/shared/api.js';
import { relay } from '../helpers/cli.js';
import { answer, relayProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { startRelayUi, type RelayUiProcess } from '../helpers/ui.js';
import { builderDoes, EDIT_A, makeTask, TickRepo } from '../integration/tick/harness.js';
import { launchBrowser, screenshot, type TestBrowser } from './support/browser.js';
import { STATE_TIMEOUT_MS, visible } from './support/pages.js';
import { step } from './support/steps.js';
import { signInWithPrintedUrl } from './support/ui-login.js';

declare const window: { relay: RelayApi; location: { hash: string } };

/** How soon a run made elsewhere must be on the open page (issue 17: "within 2 s"), from the end of the command that made it. */
const LIVE_MS = 2_000;

describe('live history in the open window', () => {
  let browser: TestBrowser;
  let ui: RelayUiProcess;
  const dataDir = tempDir('relay-live-data-');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tempDir('relay-live-home-') };
  let page: Page;
  /** A second open window, for deep links. */
  let other: Page;
  const project = relayProject({ projectId: 'live', files: { 'src/a.ts': 'export const a = 1;\n' } });
  const ticks = new TickRepo();

  beforeAll(async () => {
    browser = await launchBrowser();
    ui = await startRelayUi({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    page = await browser.newPage();
    await signInWithPrintedUrl(page, ui.link);
    writeRelayConfig(ticks.root, defaultRelayConfig('ticks'));
    ticks.commit('relay init');
    for (const root of [project, ticks.root]) {
      expect(await page.evaluate((folder) => window.relay.registerProject({ root: folder }), root)).toMatchObject({ ok: true });
    }
    await page.evaluate(() => {
      window.location.hash = '#/history';
    });
    await visible(page.locator('main h1'));
    other = await browser.newPage();
    await signInWithPrintedUrl(other, await ui.newLink());
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (ui?.child.exitCode === null) await ui.stop();
  });

  const row = (runId: string) => page.locator(`a.run-row[data-run-id="${runId}"]`);

  it('shows a relay apply made in a terminal within 2 s, without a reload', async () => {
    const uuid = '7d0c6a52-0000-4000-8000-0000000a9915';
    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer({ projectId: 'live', files: { 'src/a.ts': 'export const a = 2;\n' }, uuid, message: 'Bump a from the CLI' }));
    const loads = await page.evaluate(() => (performance.getEntriesByType('navigation') as unknown[]).length);
    await step('relay apply in a terminal', async () => {
      expect((await relay(['apply', file, '--yes'], { cwd: project })).exitCode).toBe(0);
    });
    await step('the run appears in the open History', async () => {
      await row(`live:patch:${uuid}`).waitFor({ state: 'visible', timeout: LIVE_MS });
    });
    expect(await row(`live:patch:${uuid}`).innerText()).toContain('Bump a from the CLI');
    expect(await page.evaluate(() => (performance.getEntriesByType('navigation') as unknown[]).length)).toBe(loads);
  });

  it('shows a relais run (the fake Claude) within 2 s, and its deep link opens at once', async () => {
    ticks.scenario({ orchestrator: [{ result: makeTask() }], builder: [builderDoes(EDIT_A)] });
    const run = await step('relais run in a terminal', () => ticks.run());
    expect(run.result).toMatchObject({ verdict: 'success' });
    const runId = `ticks:tick:${String(run.result.runId)}`;
    // Both at once, the moment the command has ended: the row in History, and the run's deep link
    // in the other window (which may be opened before the run is indexed: it reads the file).
    await Promise.all([
      step('the tick appears in the open History', async () => {
        await row(runId).waitFor({ state: 'visible', timeout: LIVE_MS });
      }),
      step('its deep link opens at once in the other window', async () => {
        await other.evaluate((hash) => {
          window.location.hash = hash;
        }, `#/runs/${encodeURIComponent(runId)}`);
        await visible(other.locator('.run-header'));
        expect(await other.locator('.run-header').innerText()).toContain('Change the value of a.');
        expect(await other.getByText('RUN_NOT_FOUND').count()).toBe(0);
      }),
    ]);
  });

  it('turns a SIGKILLed relay apply into a rolled-back run with its diff, and says so, once the next command recovers it', async () => {
    const uuid = '7d0c6a52-0000-4000-8000-00000000dead';
    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer({ projectId: 'live', files: { 'src/a.ts': 'export const a = 3;\n', 'src/b.ts': 'export const b = 1;\n' }, uuid, message: 'Killed half way' }));
    await step('relay apply killed once every file is written', async () => {
      const killed = await relay(['apply', file, '--yes'], { cwd: project, env: { RELAY_FAULT: 'all-written' } });
      expect(killed.exitCode).not.toBe(0);
    });
    await step('the next relay command recovers it', async () => {
      expect((await relay(['log'], { cwd: project })).stderr).toContain('interrupted transaction');
    });
    const rolledBack = row(`live:patch:${uuid}`).filter({ hasText: 'rolled-back' });
    await step('the rolled-back run appears', async () => {
      await rolledBack.waitFor({ state: 'visible', timeout: LIVE_MS });
    });
    expect(await rolledBack.innerText()).toContain('Rolled back after an interrupted apply');
    await visible(page.getByRole('region', { name: 'Notifications' }).locator('li', { hasText: 'Patch rolled back after an interrupted apply' }), STATE_TIMEOUT_MS);
    await step('its page shows the state and the diff of what the apply had written', async () => {
      await rolledBack.click();
      await visible(page.locator('.run-header'));
      await visible(page.getByRole('region', { name: 'State' }).getByText('rolled-back'));
      const files = page.getByRole('region', { name: 'Files changed (2)' });
      await visible(files);
      expect(await files.innerText()).toContain('export const a = 3;');
      expect(await page.getByText('APPLY_INTERRUPTED').count()).toBeGreaterThan(0);
      await screenshot(page, 'run-rolled-back-after-crash', { fullPage: true });
    });
  });

  it('relay ui killed while a patch waits for approval: the page says it stopped; started again, it rolls the patch back, and its page shows that outcome', async () => {
    const root = relayProject({ projectId: 'waits', files: { 'src/w.ts': 'export const w = 1;\n' } });
    expect(await page.evaluate((folder) => window.relay.registerProject({ root: folder }), root)).toMatchObject({ ok: true });
    const uuid = '7d0c6a52-0000-4000-8000-0000000a0a0a';
    const dialog = page.getByRole('dialog');
    await step('an answer waits for approval in the open page', async () => {
      const text = answer({ projectId: 'waits', files: { 'src/w.ts': 'export const w = 2;\n' }, uuid, message: 'Waiting when the app died' });
      expect(await page.evaluate((t) => window.relay.applyPatch({ text: t, source: 'paste' }), text)).toMatchObject({ ok: true });
      await visible(dialog);
    });
    await step('relay ui is killed: the page says so and what to open', async () => {
      ui.child.kill('SIGKILL');
      await ui.child;
      const stopped = await visible(page.getByRole('alert').filter({ hasText: 'Relay Desk has stopped' }));
      expect(await stopped.innerText()).toContain('open the link it prints');
    });
    await step('started again on the same data folder, its link opens on the outcome: no approval left, the rolled-back run', async () => {
      ui = await startRelayUi({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
      await page.goto(ui.link);
      await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
      expect(await dialog.count()).toBe(0);
      await page.evaluate(() => {
        window.location.hash = '#/history';
      });
      await visible(row(`waits:patch:${uuid}`).filter({ hasText: 'rolled-back' }));
    });
    expect(readFileSync(path.join(root, 'src/w.ts'), 'utf8')).toBe('export const w = 1;\n');
  });
});
