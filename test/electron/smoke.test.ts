// Smoke test of the real desktop app (run by `npm run test:electron` where the Electron binary
// exists): the window opens, window.relay round-trips over IPC, and an answer written to the
// real Electron clipboard is applied to a registered project.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { _electron as electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RelayApi } from '../../src/shared/api.js';
import { REPO_ROOT } from '../helpers/cli.js';
import { answer } from '../helpers/patches.js';
import { relayProject } from '../helpers/project.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/wait.js';

declare const window: { relay: RelayApi };

describe('the Electron app', () => {
  let app: ElectronApplication;

  beforeAll(async () => {
    app = await electron.launch({
      executablePath: process.env.ELECTRON_BINARY!,
      // The app folder, as `electron .` would run it (package.json main → out/main/index.js).
      // Given the bundle file instead, Electron sets app.getAppPath() to out/main, where neither
      // the renderer (out/renderer), resources/ nor native/ can be found.
      args: [REPO_ROOT, '--no-sandbox'],
      env: { ...process.env, RELAY_DESK_DATA_DIR: tempDir('relay-electron-') } as Record<string, string>,
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  it('opens the window, answers over IPC, and applies a patch copied to the clipboard', async () => {
    const page = await app.firstWindow();
    expect(await page.title()).toBe('Relay Desk');
    const projects = await page.evaluate(() => window.relay.listProjects({}));
    expect(projects).toEqual({ ok: true, value: [] });

    const root = relayProject({ projectId: 'smoke', files: { 'a.txt': 'one\n' } });
    expect(await page.evaluate((r) => window.relay.registerProject({ root: r }), root)).toMatchObject({ ok: true });
    await page.evaluate(() => window.relay.updateProjectSettings({ projectId: 'smoke', approvalPolicy: { mode: 'auto' } }));

    const text = answer([{ path: 'a.txt', body: 'two' }], { projectId: 'smoke' });
    await app.evaluate(({ clipboard }, t) => clipboard.writeText(t), text);
    await until('the copied answer to be applied', () => readFileSync(path.join(root, 'a.txt'), 'utf8') === 'two\n');
  });
});

// "Start in a terminal" runs relay as the app itself with --relay-cli (the packaged binary cannot
// run as Node). Here the development binary runs the app folder the same way: the bundled CLI in
// the main process, its output on the terminal, its exit code the process's, and no window.
describe('the Electron binary as the relay CLI (--relay-cli)', () => {
  it('answers --version and exits 0; a wrong command line exits 2', async () => {
    const { execa } = await import('execa');
    // Not as Node: the point is the app's own main process running the CLI.
    const { ELECTRON_RUN_AS_NODE: _asNode, ...env } = process.env;
    const run = (args: string[]) => execa(process.env.ELECTRON_BINARY!, [REPO_ROOT, '--relay-cli', ...args], { reject: false, env, extendEnv: false });
    const version = await run(['--version']);
    expect(version.exitCode).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).version);
    expect((await run(['no-such-command'])).exitCode).toBe(2);
  });
});
