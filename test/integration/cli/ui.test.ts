// `relay ui --no-open` as a real child process: it starts, prints a single-use launch link,
// serves the page, lets the link's page in once, and on SIGTERM stops cleanly.
import { execa } from 'execa';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
import { httpRequest, launchToken, postTrade, refusalCode, startRelayUi } from '../../helpers/ui.js';

const env = (): Record<string, string> => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tempDir('relay-ui-home-') });

describe('relay ui', () => {
  it('starts with --no-open, prints a single-use link, serves the page, and stops on SIGTERM', async () => {
    const dataDir = tempDir('relay-ui-data-');
    const ui = await startRelayUi({ args: ['--data-dir', dataDir], env: env(), cwd: tempDir() });
    expect(ui.output()).toContain('the link works once, for 2 minutes');

    // The page itself is the public build; the built renderer, not the "run the build" page.
    const page = await httpRequest(ui.origin, { path: '/' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root"></div>');
    expect(page.headers['set-cookie']).toBeUndefined();

    expect((await postTrade(ui.origin, launchToken(ui.link))).status).toBe(200);
    const replay = await postTrade(ui.origin, launchToken(ui.link));
    expect([replay.status, refusalCode(replay)]).toEqual([401, 'LAUNCH_TOKEN_USED']);

    // A second one on the same data folder would run a second runtime on the database: refused.
    const second = await execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'ui', '--no-open', '--data-dir', dataDir], { reject: false, timeout: 20_000 });
    expect(second.exitCode).toBe(1);
    expect(second.stderr).toContain(`STORE_IN_USE: Another Relay Desk (pid ${ui.child.pid})`);
    expect(second.stdout).not.toContain('running at');

    const ended = await ui.stop();
    expect(ended.exitCode).toBe(0);
    expect(ended.stdout).toContain('Relay Desk stopped.');
    expect(ended.stdout).toContain(`data: ${dataDir}`);
    expect(existsSync(path.join(dataDir, 'relay-desk.db.owner'))).toBe(false);
  });

  it('moves a damaged database aside at start and says so in one line; --rebuild-db still rebuilds on request', async () => {
    const dataDir = tempDir('relay-ui-data-');
    writeFileSync(path.join(dataDir, 'relay-desk.db'), 'not a database at all '.repeat(200));
    const ui = await startRelayUi({ args: ['--data-dir', dataDir], env: env(), cwd: tempDir() });
    const healed = ui.output().split('\n').filter((line) => line.includes('damaged'));
    expect(healed).toHaveLength(1);
    expect(healed[0]).toMatch(/^• The database .*relay-desk\.db was damaged: moved it to .*relay-desk\.db\.damaged-[\dTZ-]+, rebuilt it with 0 projects and recovered 0 runs from the projects' files\.$/);
    expect((await ui.stop()).exitCode).toBe(0);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('relay-desk.db.damaged-'))).toHaveLength(1);

    const rebuilt = await startRelayUi({ args: ['--rebuild-db', '--data-dir', dataDir], env: env(), cwd: tempDir() });
    expect(rebuilt.output()).toMatch(/Moved the old database to .*relay-desk\.db\.damaged-/);
    expect((await rebuilt.stop()).exitCode).toBe(0);
  });
});
