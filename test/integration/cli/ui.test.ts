// `relay ui --no-open` as a real child process: it starts, prints the URL with a token,
// serves the page, and on SIGTERM stops cleanly.
import { execa } from 'execa';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

describe('relay ui', () => {
  it('starts with --no-open, prints a tokened URL, serves the page, and stops on SIGTERM', async () => {
    const dataDir = tempDir('relay-ui-data-');
    const child = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'ui', '--no-open', '--data-dir', dataDir], { cwd: tempDir(), reject: false });
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed; output so far:\n${output}`)), 20_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString('utf8');
        const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[0]);
        }
      });
    });

    const withoutToken = await fetch(url.replace(/\?token=.*/, ''), { redirect: 'manual' });
    expect(withoutToken.status).toBe(401);
    const first = await fetch(url, { redirect: 'manual' });
    expect(first.status).toBe(303);
    const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0]!;
    const page = await fetch(new URL('/', url), { headers: { cookie } });
    expect(page.status).toBe(200);
    // The built renderer (npm test builds out/renderer first), not the "run the build" page.
    expect(await page.text()).toContain('<div id="root"></div>');

    // A second one on the same data folder would run a second runtime on the database: refused.
    const second = await execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'ui', '--no-open', '--data-dir', dataDir], { reject: false, timeout: 20_000 });
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain(`STORE_IN_USE: Another Relay Desk (pid ${child.pid})`);
    expect(second.stdout).not.toContain('running at');

    child.kill('SIGTERM');
    const ended = await child;
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout).toContain('Relay Desk stopped.');
    expect(ended.stdout).toContain(`data: ${dataDir}`);
    expect(existsSync(path.join(dataDir, 'relay-desk.db.owner'))).toBe(false);
  });

  it('refuses a damaged database with a named error and rebuilds it on request', async () => {
    const dataDir = tempDir('relay-ui-data-');
    writeFileSync(path.join(dataDir, 'relay-desk.db'), 'not a database at all '.repeat(200));
    const refused = await execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'ui', '--no-open', '--data-dir', dataDir], { reject: false, timeout: 20_000 });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('STORE_CORRUPT');
    expect(refused.stderr).toContain('--rebuild-db');

    const child = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'ui', '--no-open', '--rebuild-db', '--data-dir', dataDir], { reject: false });
    await new Promise<void>((resolve) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString('utf8').includes('running at')) resolve();
      });
    });
    child.kill('SIGTERM');
    const ended = await child;
    expect(ended.stdout).toMatch(/Moved the old database to .*relay-desk\.db\.damaged-/);
    expect(ended.exitCode).toBe(0);
  });
});
