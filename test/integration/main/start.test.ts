// What `npm start` and `npm run test:electron` do on a machine without the Electron binary
// (like the build machines): say so in one line, then open the window through `relay ui`;
// and refuse to pretend the Electron smoke test ran.
import { execa } from 'execa';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
// @ts-expect-error: a plain .mjs script without types
import { electronBinary } from '../../../scripts/electron-binary.mjs';

const noElectron = (electronBinary as () => string | null)() === null;

describe.runIf(noElectron)('without the Electron binary', () => {
  it('npm start says so in one line and serves the window with relay ui instead', async () => {
    const child = execa(process.execPath, [path.join(REPO_ROOT, 'scripts/start.mjs')], {
      cwd: REPO_ROOT,
      env: { RELAY_DESK_DATA_DIR: tempDir('relay-start-'), BROWSER: 'none' },
      reject: false,
      all: true,
    });
    let output = '';
    child.all!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = Date.now();
    while (!/Relay Desk is running at http:\/\/127\.0\.0\.1:\d+\/\S+/.test(output)) {
      if (Date.now() - started > 20_000 || child.exitCode !== null) throw new Error(`relay ui did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGTERM');
    await child;
    const lines = output.split('\n').filter(Boolean);
    expect(lines[0]).toBe('Electron is not installed on this machine (its binary could not be downloaded); opening Relay Desk in your browser with `relay ui` instead.');
    expect(output).not.toMatch(/\bat .*\(.*:\d+:\d+\)/); // no stack trace
  });

  it('npm run test:electron refuses to pretend it ran', async () => {
    const run = await execa(process.execPath, [path.join(REPO_ROOT, 'scripts/test-electron.mjs')], { cwd: REPO_ROOT, reject: false });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('test:electron did NOT run');
  });
});
