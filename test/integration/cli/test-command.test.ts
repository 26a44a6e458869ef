// `npm test` on a machine that lacks what the tests drive for real, where nothing can be
// installed without a password: it stops at once with the exact command to run.
import { execa } from 'execa';
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

describe('npm test (scripts/test.mjs)', () => {
  it('without Xvfb, xsel and script, and no apt-get to install them, says the exact command and runs nothing', async () => {
    // A PATH holding node and nothing else: no Xvfb, xsel, script, apt-get or sudo.
    const bin = tempDir('relay-only-node-');
    symlinkSync(process.execPath, path.join(bin, 'node'));
    const run = await execa(process.execPath, [path.join(REPO_ROOT, 'scripts/test.mjs')], { cwd: REPO_ROOT, env: { PATH: bin, HOME: tempDir('relay-home-') }, extendEnv: false, reject: false });
    expect(run.exitCode).toBe(1);
    // (chromium too, where /usr/bin/chromium is missing as well)
    expect(run.stderr).toMatch(/sudo apt-get update && sudo apt-get install -y --no-install-recommends (chromium )?xvfb xsel bsdutils\n/);
    expect(run.stderr).toContain('Xvfb for the clipboard tests');
    expect(run.stdout.trim().split('\n').at(-1)).toBe('0 passed, 1 failed');
    expect(run.stdout).not.toContain('▶'); // no build, no vitest: it stopped before doing anything
  });
});
