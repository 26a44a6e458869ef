// `relay ui` stopped and started again, as real processes, with a real page open in chromium:
// the page says it stopped and exactly what to open: each run serves a new address (one that
// outlived its server could have been taken by another program in between), so the link the new
// run prints opens a working page; a run given the old port is told apart.
import { describe, expect, it } from 'vitest';
import type { RelayApi } from '../../src/shared/api.js';
import { relayProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { screenshot } from './support/browser.js';
import { uiRuns } from './support/ui-runs.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { builderDoes, EDIT_A, makeTask, TickRepo } from '../integration/tick/harness.js';
import { DeskWindow, ProjectsPage, until, visible } from './support/pages.js';

declare const window: { relay: RelayApi };
declare const document: { querySelector(selector: string): unknown };

const PATH = process.env.PATH ?? '/usr/bin:/bin';

describe('relay ui restarting under an open page', () => {
  const runs = uiRuns();

  it('says it stopped and what to open; a new run is a new address whose link opens a working page, even with the same --port', async () => {
    const dataDir = tempDir('relay-restart-data-');
    const env = { PATH, HOME: tempDir('relay-restart-home-') };
    const first = await runs.start({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    const page = await runs.browser().newPage();
    await page.goto(first.link);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);

    expect((await first.stop()).exitCode).toBe(0);
    const stopped = page.getByRole('alert').filter({ hasText: 'Relay Desk has stopped' });
    await stopped.waitFor({ state: 'visible', timeout: 20_000 });
    expect(await stopped.innerText()).toContain('open the link it prints');

    // Started again: a new address (nothing could have been left there for it), and the page says what to do until its link is opened.
    const second = await runs.start({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
    expect(second.origin).not.toBe(first.origin);
    await page.waitForTimeout(1500);
    expect(await stopped.count()).toBe(1);
    await page.goto(second.link);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    expect(await stopped.count()).toBe(0);
    const root = relayProject({ projectId: 'after-restart' });
    expect(await page.evaluate((folder) => window.relay.registerProject({ root: folder }), root)).toMatchObject({ ok: true, value: { projectId: 'after-restart' } });
    expect((await second.stop()).exitCode).toBe(0);

    // A new run given the old port (--port) is still at a new address; the page of the old one says what to do.
    await visible(page.getByRole('alert').filter({ hasText: 'Relay Desk has stopped' }));
    const samePort = await runs.start({ args: ['--data-dir', dataDir, '--port', String(second.port)], env, cwd: tempDir() });
    expect(samePort.port).toBe(second.port);
    expect(samePort.origin).not.toBe(second.origin);
    await page.waitForTimeout(1500);
    expect(await page.getByRole('alert').filter({ hasText: 'Relay Desk has stopped' }).count()).toBe(1);
    await screenshot(page, 'restart-stopped-page');
    // Its own link works, and shows what the earlier run did.
    await page.goto(samePort.link);
    await page.waitForFunction(() => document.querySelector('nav[aria-label="Relay Desk"]') !== null);
    expect(await page.evaluate(() => window.relay.listProjects({}))).toMatchObject({ ok: true, value: [{ projectId: 'after-restart' }] });
    expect((await samePort.stop()).exitCode).toBe(0);
    await page.close();
  }, 120_000);

  it('started inside a project it opens on it; a task running when it stops ends on the page (told, or marked interrupted after a crash), never left "Running…"', async () => {
    const dataDir = tempDir('relay-restart-task-');
    const repo = new TickRepo();
    const release = path.join(repo.outside, 'release-builder');
    // The builder waits for a file the test never writes until the end: the tick is mid-way when relay ui stops.
    repo.scenario({ orchestrator: [{ result: makeTask({ fast: ['pass'] }) }], builder: [{ ...builderDoes(EDIT_A), wait_for: release }] });
    // RELAY_PASS_ENV: the fake Claude is steered by FAKE_* variables, which children get only when declared.
    const env = { PATH, HOME: tempDir('relay-restart-home-'), IS_SANDBOX: '1', RELAY_PASS_ENV: 'FAKE_*', FAKE_CLAUDE_LOG: repo.logFile, FAKE_CLAUDE_SCENARIO: repo.scenarioFile };
    const first = await runs.start({ args: ['--data-dir', dataDir], env, cwd: path.join(repo.root, 'src') });
    try {
      expect(first.output()).toMatch(/Added project relay-repo-\S+ \(/);
      expect(first.link).toContain('&project=');
      const page = await runs.browser().newPage();
      await page.goto(first.link);
      const desk = new DeskWindow(page, { origin: first.origin } as never);
      // The page opens on the project it was started in: its history, filtered.
      await visible(page.locator('main h1', { hasText: 'History' }));
      const projectId = await page.getByRole('group', { name: 'Filter runs' }).getByLabel('Project').inputValue();
      expect(projectId).toMatch(/^relay-repo-/);
      expect(page.url()).toContain(`#/history?project=${projectId}`);
      repo.commit('relay init'); // opening the project wrote relay.config.json; a tick needs a clean tree

      const projects = new ProjectsPage(desk);
      await projects.open();
      let status = await projects.runTick(projectId);
      await until('the builder to start', () => (repo.calls('builder').length === 1 ? true : undefined), 30_000);
      expect(await status.getAttribute('data-task-state')).toBe('running');
      // Stopped with Ctrl+C (SIGTERM): the tick is cancelled, and the page hears how it ended.
      expect((await first.stop()).exitCode).toBe(0);
      const ended = await visible(status.and(page.locator('[data-task-state="completed"], [data-task-state="failed"]')));
      expect(await ended.innerText()).toMatch(/STOP_INTERRUPTED|CANCELLED/);
      expect(await ended.innerText()).toContain('Relay Desk is shutting down');
      await visible(page.getByRole('alert').filter({ hasText: 'Relay Desk has stopped' }));

      const second = await runs.start({ args: ['--data-dir', dataDir], env, cwd: tempDir() });
      await page.goto(second.link);
      await projects.open();
      await projects.card(projectId).getByRole('button', { name: 'Run tick…' }).waitFor({ state: 'visible' });
      status = await projects.runTick(projectId);
      await until('the second builder to start', () => (repo.calls('builder').length === 2 ? true : undefined), 30_000);
      // Killed (a crash): nothing can tell the page, and no later run is at its address; it says the task was interrupted.
      second.child.kill('SIGKILL');
      await second.child;
      await visible(page.getByRole('alert').filter({ hasText: 'Relay Desk has stopped' }));
      const interrupted = await visible(status.and(page.locator('[data-task-state="failed"]')), 30_000);
      expect(await interrupted.innerText()).toContain('TASK_INTERRUPTED');
      expect(await interrupted.innerText()).toContain('Relay Desk stopped while this task was running');
      await screenshot(page, 'restart-task-interrupted');
      expect(page.errors.filter((e) => !e.includes('ERR_CONNECTION_REFUSED') && !e.includes('WebSocket'))).toEqual([]);
      await page.close();
    } finally {
      writeFileSync(release, '');
    }
  }, 150_000);
});
