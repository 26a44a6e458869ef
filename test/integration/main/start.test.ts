// What `npm run test:electron` does on a machine without the Electron binary (like the build
// machines): refuse to pretend the Electron smoke test ran. (`npm start` there: test/integration/cli/start.test.ts.)
import { execa } from 'execa';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
// @ts-expect-error: a plain .mjs script without types
import { electronBinary } from '../../../scripts/electron-binary.mjs';

const noElectron = (electronBinary as () => string | null)() === null;

describe.runIf(noElectron)('without the Electron binary', () => {
  it('npm run test:electron refuses to pretend it ran', async () => {
    const run = await execa(process.execPath, [path.join(REPO_ROOT, 'scripts/test-electron.mjs')], { cwd: REPO_ROOT, reject: false });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('test:electron did NOT run');
  });
});
