// The desktop process's first decision (src/main/launch.ts, what src/main/index.ts runs): started
// as `<app> --relay-cli <args>` it is the relay CLI and nothing else; otherwise it is the app.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launch } from '../../../src/main/launch.js';
import { bundledRelayCli, relayCliArguments } from '../../../src/main/relay-cli.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { fakeElectron, fakeProcess } from '../../helpers/fake-electron.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/wait.js';

const PRELOAD = { preloadDir: path.join(REPO_ROOT, 'out', 'preload') };

afterEach(() => {
  // The in-process CLI sets the exit code of the process it runs in: this test worker's.
  process.exitCode = undefined;
});

describe('relayCliArguments', () => {
  it('takes everything after --relay-cli when it is the first argument (packaged: after the binary)', () => {
    expect(relayCliArguments({ argv: ['/opt/Relay Desk/relay-desk', '--relay-cli', '-C', '/w', 'handoff', '--resume', 'b', '--to', 'codex'] })).toEqual(['-C', '/w', 'handoff', '--resume', 'b', '--to', 'codex']);
    expect(relayCliArguments({ argv: ['/opt/Relay Desk/relay-desk', '--relay-cli'] })).toEqual([]);
  });

  it('unpackaged (`electron <folder>`), after the app folder', () => {
    expect(relayCliArguments({ argv: ['/repo/node_modules/.bin/electron', '/repo', '--relay-cli', 'log'], defaultApp: true })).toEqual(['log']);
    expect(relayCliArguments({ argv: ['/repo/node_modules/.bin/electron', '--relay-cli', 'log'], defaultApp: true })).toBeNull();
  });

  it('is the app otherwise, even when a later argument reads --relay-cli', () => {
    expect(relayCliArguments({ argv: ['/opt/Relay Desk/relay-desk'] })).toBeNull();
    expect(relayCliArguments({ argv: ['/opt/Relay Desk/relay-desk', '--hidden', '--relay-cli', 'log'] })).toBeNull();
  });
});

describe('launch', () => {
  it('--relay-cli: runs relay with the rest and exits with its code; no data folder, scheme, lock, window or tray', async () => {
    const fake = fakeElectron({ appPath: REPO_ROOT });
    const ran: string[][] = [];
    const launched = await launch(fake.electron, fakeProcess({ argv: ['/opt/Relay Desk/relay-desk', '--relay-cli', '-C', '/w', 'log'] }), {
      ...PRELOAD,
      runRelayCli: async (args) => {
        ran.push([...args]);
        return 2;
      },
    });
    expect(launched).toEqual({ kind: 'relay-cli', exitCode: 2 });
    expect(ran).toEqual([['-C', '/w', 'log']]);
    expect(fake.state.exits).toEqual([2]);
    expect(fake.state.calls).toEqual([]);
  });

  it('--relay-cli runs the bundled CLI in this process: the command acts and its exit code is the app\'s', async () => {
    const project = tempDir('relay-cli-mode-');
    const fake = fakeElectron({ appPath: REPO_ROOT });
    const launched = await launch(fake.electron, fakeProcess({ argv: ['/opt/Relay Desk/relay-desk', '--relay-cli', '-C', project, 'init', '--project-id', 'embedded'] }), PRELOAD);
    expect(launched).toEqual({ kind: 'relay-cli', exitCode: 0 });
    expect(fake.state.exits).toEqual([0]);
    expect(JSON.parse(readFileSync(path.join(project, 'relay.config.json'), 'utf8'))).toMatchObject({ projectId: 'embedded' });

    process.exitCode = undefined;
    const refused = await bundledRelayCli(REPO_ROOT)(['no-such-command']);
    expect(refused).toBe(2);
  });

  it('--relay-cli with no bundle to run exits 1 and starts nothing', async () => {
    const fake = fakeElectron({ appPath: tempDir('relay-no-dist-') });
    const launched = await launch(fake.electron, fakeProcess({ argv: ['/opt/Relay Desk/relay-desk', '--relay-cli', 'log'] }), PRELOAD);
    expect(launched).toEqual({ kind: 'relay-cli', exitCode: 1 });
    expect(fake.state.exits).toEqual([1]);
    expect(fake.state.calls).toEqual([]);
  });

  it('as the app: the data folder relay ui uses, app:// registered before ready, then the shell', async () => {
    const dataDir = tempDir('relay-launch-data-');
    const fake = fakeElectron({ appPath: REPO_ROOT });
    const launched = await launch(fake.electron, fakeProcess({ env: { PATH: process.env.PATH, HOME: process.env.HOME, RELAY_DESK_DATA_DIR: dataDir, XDG_CONFIG_HOME: tempDir('relay-xdg-') } }), PRELOAD);
    expect(launched.kind).toBe('app');
    expect(fake.state.userData).toBe(dataDir);
    expect(fake.state.schemes).toEqual(['app']);
    expect(fake.state.calls.slice(0, 4)).toEqual(['setPath', 'registerSchemesAsPrivileged', 'requestSingleInstanceLock', 'whenReady']);
    expect(fake.state.windows).toHaveLength(1);
    expect(existsSync(path.join(dataDir, 'relay-desk.db'))).toBe(true);
    expect(fake.emit('before-quit')).toBe(true);
    await until('the app to quit', () => fake.state.quits > 0);
  });

  it('as a second instance: quits at once (the first one shows its window), never opening the store', async () => {
    const dataDir = tempDir('relay-launch-data-');
    const fake = fakeElectron({ appPath: REPO_ROOT, singleInstance: false });
    const launched = await launch(fake.electron, fakeProcess({ env: { RELAY_DESK_DATA_DIR: dataDir } }), PRELOAD);
    expect(launched).toEqual({ kind: 'second-instance' });
    expect(fake.state.quits).toBe(1);
    expect(fake.state.calls).not.toContain('whenReady');
    expect(fake.state.windows).toEqual([]);
    expect(existsSync(path.join(dataDir, 'relay-desk.db'))).toBe(false);
  });
});
