// `npm start` on a newcomer's machine: an empty HOME, no XDG variables, no Electron binary and
// no display. It must end in a working window (in the browser, through `relay ui`), saying in
// one line why not the desktop app, and where Electron can be tried, try Electron's installer
// first and name the real reason it failed.
import { execa, type ResultPromise } from 'execa';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/wait.js';
import { launchBrowser, type TestBrowser } from '../../e2e/support/browser.js';
import { PRINTED_UI_URL, signInWithPrintedUrl } from '../../e2e/support/ui-login.js';
// @ts-expect-error: a plain .mjs script without types
import { electronBinary } from '../../../scripts/electron-binary.mjs';
// @ts-expect-error: a plain .mjs script without types
import { staleBuild } from '../../../scripts/build-state.mjs';

const noElectron = (electronBinary as () => string | null)() === null;

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `npm start` as `npm start` runs it (node scripts/start.mjs), with exactly this environment. */
function start(env: Record<string, string>): { child: ResultPromise<{ all: true; reject: false; extendEnv: false }>; output: () => string; url: () => Promise<string> } {
  const child = execa(process.execPath, [path.join(REPO_ROOT, 'scripts/start.mjs')], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, extendEnv: false, reject: false, all: true });
  let output = '';
  child.all.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = setInterval(() => {
        const match = PRINTED_UI_URL.exec(output);
        if (match) {
          clearInterval(check);
          resolve(match[0]);
        } else if (child.exitCode !== null) {
          clearInterval(check);
          reject(new Error(`npm start ended before printing a URL:\n${output}`));
        }
      }, 50);
    });
  return { child, output: () => output, url };
}

let browser: TestBrowser;
beforeAll(async () => {
  // npm start rebuilds a stale build, and a rebuild would pull dist/ and out/ from under the
  // tests running beside this one; npm test builds first, so here the build is fresh.
  const stale = (staleBuild as (root: string) => string | null)(REPO_ROOT);
  if (stale) throw new Error(`The build is older than its sources (${stale}): run \`npm run build\` first (npm test does).`);
  browser = await launchBrowser();
});
afterAll(async () => browser?.close());

describe('npm start on a fresh machine', () => {
  it('with an empty HOME, no XDG variables and no display: says why in one line and serves the window through relay ui', async () => {
    const home = tempDir('relay-fresh-home-');
    // BROWSER=none: relay ui would otherwise open the user's browser (xdg-open honours BROWSER).
    const run = start({ HOME: home, BROWSER: 'none' });
    try {
      const url = await run.url();
      const lines = run.output().split('\n').filter(Boolean);
      expect(lines.filter((line) => line.startsWith('Electron cannot open the desktop app here:'))).toEqual([
        'Electron cannot open the desktop app here: no display (DISPLAY and WAYLAND_DISPLAY are unset). Opening Relay Desk in your browser with `relay ui` instead.',
      ]);
      // The data folder was created on first use, inside the empty HOME.
      // (printed on the line after the link: waited for, not assumed to be there already)
      const dataLine = `data: ${path.join(home, '.config', 'Relay Desk')};`;
      await until('the data folder line', () => run.output().includes(dataLine));
      const page = await browser.newPage();
      await signInWithPrintedUrl(page, url);
      expect(page.errors).toEqual([]);
      await page.close();
    } finally {
      run.child.kill('SIGTERM');
    }
    const ended = await run.child;
    expect(ended.exitCode).toBe(0);
    expect(run.output()).not.toMatch(/\n\s+at .*:\d+:\d+/); // no stack trace anywhere
  }, 300_000);

  it.runIf(noElectron)('with a display but no way to download Electron: runs Electron\'s installer, then names the real reason and falls back', async () => {
    const home = tempDir('relay-fresh-home-');
    // A mirror nobody listens on: the installer fails the same way on every machine, offline or not.
    const port = await closedPort();
    const run = start({ HOME: home, DISPLAY: ':97', ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, BROWSER: 'none' });
    try {
      await run.url();
      const lines = run.output().split('\n').filter(Boolean);
      expect(lines[0]).toBe(`Installing Electron with its installer (install-electron, from 127.0.0.1:${port}; about 100 MB, once)…`);
      const why = lines.find((line) => line.startsWith('Electron cannot open the desktop app here:'));
      expect(why).toBe(`Electron cannot open the desktop app here: cannot reach 127.0.0.1:${port} (connect ECONNREFUSED 127.0.0.1:${port}). Opening Relay Desk in your browser with \`relay ui\` instead.`);
    } finally {
      run.child.kill('SIGTERM');
    }
    await run.child;
    expect(run.output()).not.toMatch(/\n\s+at .*:\d+:\d+/);
  }, 300_000);
});
