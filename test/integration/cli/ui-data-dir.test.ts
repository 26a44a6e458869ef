// The data folder on a fresh machine, through the real `relay ui` process: created on first use
// (private), found the XDG way (empty or relative variables ignored), one environment variable,
// and a folder that cannot be created named in one line with the way out.
import { execa } from 'execa';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { relayProject } from '../../helpers/project.js';
import { openSocket } from '../../helpers/socket.js';
import { tempDir } from '../../helpers/temp.js';
import { httpRequest, sessionProtocols, startRelayUi, tradeLink, type RelayUiProcess, socketUrl } from '../../helpers/ui.js';

const RELAY = path.join(REPO_ROOT, 'dist/cli/relay.js');
const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** Registers a folder through the page's own channel, as a person adding a project would. */
async function registerThroughPage(ui: RelayUiProcess, root: string): Promise<void> {
  const session = await tradeLink(ui.link);
  const socket = openSocket(socketUrl(ui.origin), { origin: ui.origin, protocols: sessionProtocols(session) });
  await socket.opened;
  socket.send({ id: 1, channel: 'registerProject', input: { root } });
  const reply = await socket.next((f) => f.type === 'reply' && f.id === 1);
  expect(reply).toMatchObject({ reply: { ok: true } });
  socket.ws.close();
}

function mode(file: string): string {
  return (statSync(file).mode & 0o777).toString(8);
}

describe('relay ui on a fresh machine', () => {
  it('creates the data folder (0700) under an empty HOME with no XDG variables, starts, serves, and keeps every file 0600', async () => {
    const home = tempDir('relay-home-');
    const cwd = tempDir('relay-cwd-');
    const ui = await startRelayUi({ env: { PATH, HOME: home }, cwd });
    const dataDir = path.join(home, '.config', 'Relay Desk');
    expect(ui.output()).toContain(`data: ${dataDir}`);
    expect((await httpRequest(ui.origin, { path: '/' })).status).toBe(200);
    await registerThroughPage(ui, relayProject({ projectId: 'fresh' }));
    // While it runs the WAL and shared-memory files exist; check them before it checkpoints them away.
    for (const name of ['relay-desk.db', 'relay-desk.db-wal', 'relay-desk.db-shm', 'relay-desk.db.owner', 'projects.json']) {
      expect(mode(path.join(dataDir, name)), name).toBe('600');
    }
    expect(mode(dataDir)).toBe('700');
    expect((await ui.stop()).exitCode).toBe(0);
    for (const name of readdirSync(dataDir)) expect(mode(path.join(dataDir, name)), name).toBe('600');
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('tightens a data folder and database an older build left readable by others', async () => {
    const dataDir = path.join(tempDir('relay-old-'), 'Relay Desk');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(path.join(dataDir, 'relay-desk.db'), '');
    chmodSync(path.join(dataDir, 'relay-desk.db'), 0o644);
    const ui = await startRelayUi({ args: ['--data-dir', dataDir], env: { PATH, HOME: tempDir('relay-home-') }, cwd: tempDir() });
    expect(mode(dataDir)).toBe('700');
    expect(mode(path.join(dataDir, 'relay-desk.db'))).toBe('600');
    await ui.stop();
  });

  it('ignores an empty or relative XDG_CONFIG_HOME: nothing appears in the working folder', async () => {
    for (const value of ['', 'relative/config']) {
      const home = tempDir('relay-home-');
      const cwd = tempDir('relay-cwd-');
      const ui = await startRelayUi({ env: { PATH, HOME: home, XDG_CONFIG_HOME: value }, cwd });
      expect(ui.output()).toContain(`data: ${path.join(home, '.config', 'Relay Desk')}`);
      await ui.stop();
      expect(readdirSync(cwd), JSON.stringify(value)).toEqual([]);
    }
  });

  it('honours XDG_CONFIG_HOME when absolute, and RELAY_DESK_DATA_DIR above it', async () => {
    const config = tempDir('relay-xdg-');
    const ui = await startRelayUi({ env: { PATH, HOME: tempDir('relay-home-'), XDG_CONFIG_HOME: config }, cwd: tempDir() });
    expect(ui.output()).toContain(`data: ${path.join(config, 'Relay Desk')}`);
    await ui.stop();
    const chosen = path.join(tempDir('relay-chosen-'), 'nested', 'data');
    const moved = await startRelayUi({ env: { PATH, HOME: tempDir('relay-home-'), XDG_CONFIG_HOME: config, RELAY_DESK_DATA_DIR: chosen }, cwd: tempDir() });
    expect(moved.output()).toContain(`data: ${chosen}`);
    expect(mode(chosen)).toBe('700');
    await moved.stop();
  });

  it('names a folder that cannot be created because a file is in the way, in one line, with the way out', async () => {
    const base = tempDir('relay-blocked-');
    writeFileSync(path.join(base, 'blocker'), 'a file, not a folder');
    const wanted = path.join(base, 'blocker', 'Relay Desk');
    const run = await execa(process.execPath, [RELAY, 'ui', '--no-open', '--data-dir', wanted], { env: { PATH, HOME: tempDir('relay-home-') }, extendEnv: false, reject: false, timeout: 20_000, cwd: base });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `✘ DATA_DIR_UNAVAILABLE: Cannot use the data folder ${wanted}: a file is in the way (${path.join(base, 'blocker')}). Choose another with \`relay ui --data-dir <folder>\` or the RELAY_DESK_DATA_DIR environment variable.`,
    ]);
  });

  it('names a folder under a read-only parent the same way (run as an unprivileged user when the tests run as root)', async () => {
    const base = tempDir('relay-readonly-');
    chmodSync(base, 0o755);
    const parent = path.join(base, 'locked');
    mkdirSync(parent);
    chmodSync(parent, 0o555);
    const wanted = path.join(parent, 'Relay Desk');
    // Root ignores folder permissions; `nobody` does not.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const home = tempDir('relay-home-');
    chmodSync(home, 0o777);
    const run = await execa(process.execPath, [RELAY, 'ui', '--no-open', '--data-dir', wanted], { env: { PATH, HOME: home }, extendEnv: false, reject: false, timeout: 20_000, cwd: base, ...asNobody });
    expect(run.exitCode).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `✘ DATA_DIR_UNAVAILABLE: Cannot use the data folder ${wanted}: permission denied. Choose another with \`relay ui --data-dir <folder>\` or the RELAY_DESK_DATA_DIR environment variable.`,
    ]);
    expect(existsSync(wanted)).toBe(false);
  });
});

describe('a data folder that belongs to another user', () => {
  it.runIf(process.getuid?.() === 0)('is refused with DATA_DIR_UNAVAILABLE, naming the owner, and nothing is read or written there', async () => {
    const shared = tempDir('relay-shared-');
    chmodSync(shared, 0o777);
    // Another user made the folder (and could have planted anything in it).
    const planted = path.join(shared, 'Relay Desk');
    mkdirSync(planted, { mode: 0o777 });
    chmodSync(planted, 0o777);
    chownSync(planted, 65534, 65534);
    const run = await execa(process.execPath, [RELAY, 'ui', '--no-open', '--data-dir', planted], { env: { PATH, HOME: tempDir('relay-home-') }, extendEnv: false, reject: false, timeout: 20_000, cwd: shared });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain(`✘ DATA_DIR_UNAVAILABLE: Cannot use the data folder ${planted}: it belongs to another user (uid 65534)`);
    expect(readdirSync(planted)).toEqual([]);
  });
});
