// The desktop shell in plain Node: startApp() is given stand-ins for the Electron members it uses
// (test/helpers/fake-electron.ts), the one thing that cannot exist here. Everything behind them is
// real: the store on disk, the host and engines, the renderer build, git repositories.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../../src/engine/store/paths.js';
import { startApp, type RunningApp } from '../../../src/main/app-shell.js';
import type { ShellProcess } from '../../../src/main/ports.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { fakeElectron, fakeProcess, type FakeElectron } from '../../helpers/fake-electron.js';
import { answer } from '../../helpers/patches.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/wait.js';

const TRUSTED = { senderFrame: { url: 'app://relay-desk/index.html' } };
const running: Array<{ fake: FakeElectron }> = [];

/** Starts the shell on a fresh data folder (the renderer build and resources/ of this checkout). */
async function start(options: { proc?: Partial<ShellProcess> } = {}): Promise<{ fake: FakeElectron; app: RunningApp; configHome: string }> {
  const fake = fakeElectron({ userData: tempDir('relay-app-data-'), appPath: REPO_ROOT });
  const configHome = tempDir('relay-xdg-config-');
  const app = await startApp(fake.electron, fakeProcess({ env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: configHome }, ...options.proc }), { preloadDir: path.join(REPO_ROOT, 'out', 'preload') });
  if (!app) throw new Error(`the shell did not start: ${JSON.stringify(fake.state.errorBoxes)}`);
  running.push({ fake });
  return { fake, app, configHome };
}

/** Calls a channel the way the window does, through the IPC binding. */
async function call(fake: FakeElectron, channel: string, input: unknown, event: { senderFrame: { url: string } } = TRUSTED): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const handler = fake.state.ipcHandlers.get(`relay:${channel}`);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return (await handler(event, input)) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
}

/** Quits as the OS would and waits until the shell has shut down and quit for real. */
async function quit(fake: FakeElectron): Promise<void> {
  const before = fake.state.quits;
  expect(fake.emit('before-quit')).toBe(true);
  await until('the app to quit after shutting down', () => fake.state.quits > before);
}

afterEach(async () => {
  for (const { fake } of running.splice(0)) if (!fake.state.trayDestroyed.value) await quit(fake);
});

describe('the desktop shell (startApp with stand-ins for electron)', () => {
  it('binds every channel to IPC and refuses frames that are not the window (UNTRUSTED_SENDER)', async () => {
    const { fake } = await start();
    expect(fake.state.ipcHandlers.size).toBeGreaterThan(15);
    expect(await call(fake, 'listProjects', {})).toEqual({ ok: true, value: [] });
    expect(await call(fake, 'listProjects', {}, { senderFrame: { url: 'https://evil.example/' } })).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
    expect(await call(fake, 'listProjects', {}, { senderFrame: { url: 'app://relay-desk.evil/index.html' } })).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
  });

  it('opens one window: sandboxed, isolated, guarded, on the renderer over app://, fed runtime events', async () => {
    const { fake } = await start();
    expect(fake.state.windows).toHaveLength(1);
    const window = fake.state.windows[0]!;
    expect(window.url).toBe('app://relay-desk/index.html');
    expect(window.visible).toBe(true);
    expect(window.options).toMatchObject({ title: 'Relay Desk', show: false, icon: path.join(REPO_ROOT, 'resources', 'icon.png') });
    expect(window.options.webPreferences).toMatchObject({
      preload: path.join(REPO_ROOT, 'out', 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    });
    // window.open is denied; an http(s) link goes to the browser, anything else nowhere.
    expect(window.openHandler!({ url: 'https://example.com/docs' })).toEqual({ action: 'deny' });
    expect(window.openHandler!({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fake.state.openedExternally).toEqual(['https://example.com/docs']);
  });

  it('serves the renderer over app:// with the CSP; a path out is 404, a malformed escape 400', async () => {
    const { fake } = await start();
    const serve = fake.state.protocolHandlers.get('app')!;
    const page = await serve(new Request('app://relay-desk/index.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await serve(new Request('app://relay-desk/../../package.json'))).status).toBe(404);
    expect((await serve(new Request('app://relay-desk/assets/%E0%A4%A.js'))).status).toBe(400);
  });

  it('denies web permissions by default, asked for or checked; only copying text, only for the app', async () => {
    const { fake } = await start();
    const asked = (permission: string, requestingUrl: string) => new Promise<boolean>((resolve) => fake.state.permissionRequest!(null, permission, resolve, { requestingUrl }));
    expect(await asked('media', 'app://relay-desk/index.html')).toBe(false);
    expect(await asked('geolocation', 'app://relay-desk/index.html')).toBe(false);
    expect(await asked('clipboard-sanitized-write', 'app://relay-desk/index.html')).toBe(true);
    expect(await asked('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(fake.state.permissionCheck!(null, 'notifications', 'app://relay-desk', {})).toBe(false);
    expect(fake.state.permissionCheck!(null, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false);
  });

  it('hides the window on close and shows it again from the tray, a second instance or activate', async () => {
    const { fake } = await start();
    const window = fake.state.windows[0]!;
    expect(window.pressClose()).toBe(false);
    expect(window.visible).toBe(false);
    fake.clickTray();
    expect(window.visible).toBe(true);
    window.hide();
    fake.emit('second-instance');
    expect(window.visible).toBe(true);
    window.hide();
    fake.emit('activate');
    expect(window.visible).toBe(true);
    expect(fake.state.windows).toHaveLength(1);
  });

  it('opened at login (--hidden) stays in the tray until asked', async () => {
    const { fake } = await start({ proc: { argv: ['/opt/Relay Desk/relay-desk', '--hidden'] } });
    expect(fake.state.windows).toEqual([]);
    expect(fake.state.trayImages.at(-1)).toMatch(/tray[\\/](idle|watching)\.png$/);
    fake.menuItem('Open Relay Desk')?.click?.();
    expect(fake.state.windows).toHaveLength(1);
  });

  it('tray: watching on and off (app and project), a recent run opens its page, Quit quits', async () => {
    const { fake } = await start();
    const root = relayProject({ projectId: 'desk', files: { 'a.txt': 'one\n' } });
    expect(await call(fake, 'registerProject', { root })).toMatchObject({ ok: true });
    expect(await call(fake, 'updateProjectSettings', { projectId: 'desk', approvalPolicy: { mode: 'auto' } })).toMatchObject({ ok: true });
    expect(fake.menu().map((m) => m.label)).toContain('Quit');

    const watching = () => fake.menu().find((m) => m.type === 'checkbox' && /clipboard/i.test(m.label ?? ''));
    const watchedBefore = watching()!.checked;
    watching()!.click!();
    await until('the watch toggle to show in the tray', () => watching()!.checked === !watchedBefore);
    expect((await call(fake, 'getAppSettings', {})).value).toMatchObject({ watchClipboard: !watchedBefore });

    const projectEntry = () => fake.menuItem('Projects')!.submenu![0]!;
    expect(projectEntry()).toMatchObject({ type: 'checkbox', checked: true });
    projectEntry().click!();
    await until('the project toggle to show in the tray', () => projectEntry().checked === false);
    expect((await call(fake, 'listProjects', {})).value).toMatchObject([{ settings: { watching: false } }]);

    expect(await call(fake, 'applyPatch', { projectId: 'desk', text: answer([{ path: 'a.txt', body: 'two' }], { projectId: 'desk' }), source: 'paste' })).toMatchObject({ ok: true });
    const runs = () => fake.menuItem('Recent runs')?.submenu ?? [];
    await until('the run in the tray', () => runs()[0]?.label?.startsWith(`${path.basename(root)} · test: change`));
    // The tray hears of the run from the runtime's events; its final row (the transaction's uuid) follows at the task's end.
    const listed = await until('the applied run in history', async () => {
      const [run] = ((await call(fake, 'listRuns', { projectId: 'desk', limit: 1 })).value as { runs: Array<{ id: string; status: string }> }).runs;
      return run?.status === 'done' ? run : undefined;
    });
    runs()[0]!.click!();
    expect(fake.state.windows[0]!.loaded.at(-1)).toBe(`app://relay-desk/index.html#/runs/${encodeURIComponent(listed!.id)}`);

    const quits = fake.state.quits;
    fake.menuItem('Quit')!.click!();
    expect(fake.state.quits).toBe(quits + 1);
  });

  it('routes a copied answer to its project and applies it, says so; an unknown projectId is told, not applied', async () => {
    const { fake, configHome } = await start();
    const root = relayProject({ projectId: 'desk', files: { 'a.txt': 'one\n' } });
    expect(await call(fake, 'registerProject', { root })).toMatchObject({ ok: true });
    expect(await call(fake, 'updateProjectSettings', { projectId: 'desk', approvalPolicy: { mode: 'auto' } })).toMatchObject({ ok: true });
    expect(await call(fake, 'updateAppSettings', { clipboardPollIntervalMs: 100, watchClipboard: true, autoStart: true })).toMatchObject({ ok: true });
    // Start at login: a login item on macOS and Windows, an XDG autostart entry on Linux.
    if (process.platform === 'linux') {
      expect(readFileSync(path.join(configHome, 'autostart', 'relay-desk.desktop'), 'utf8')).toMatch(/^Exec=.* --hidden$/m);
      expect(await call(fake, 'updateAppSettings', { autoStart: false })).toMatchObject({ ok: true });
      expect(existsSync(path.join(configHome, 'autostart', 'relay-desk.desktop'))).toBe(false);
    } else {
      expect(fake.state.loginItems.at(-1)).toMatchObject({ openAtLogin: true, args: [REPO_ROOT, '--hidden'] });
    }

    fake.state.clipboardText = answer([{ path: 'a.txt', body: 'two' }], { projectId: 'desk' });
    await until('the copied answer to be applied', () => readFileSync(path.join(root, 'a.txt'), 'utf8') === 'two\n');
    await until('the notification', () => fake.state.notifications.some((n) => n.options.title.startsWith('Patch applied')));
    expect(fake.state.windows[0]!.sent.some(([channel]) => channel === 'relay:event')).toBe(true);

    fake.state.clipboardText = answer([{ path: 'a.txt', body: 'three' }], { projectId: 'nobody' });
    await until('the no-project notification', () => fake.state.notifications.some((n) => n.options.title.includes('No project for projectId "nobody"')));
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it("answers an approval from its notification: Approve applies, Reject rolls back (where the OS has buttons)", async () => {
    const { fake } = await start({ proc: { platform: 'darwin' } });
    const root = relayProject({ projectId: 'desk', files: { 'a.txt': 'one\n' } });
    expect(await call(fake, 'registerProject', { root })).toMatchObject({ ok: true });
    const approval = async (body: string) => {
      const shown = fake.state.notifications.length;
      expect(await call(fake, 'applyPatch', { projectId: 'desk', text: answer([{ path: 'a.txt', body }], { projectId: 'desk' }), source: 'paste' })).toMatchObject({ ok: true });
      return until('the approval notification', () => fake.state.notifications.slice(shown).find((n) => n.options.actions?.map((a) => a.text).join() === 'Approve,Reject'));
    };

    const first = await approval('two');
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
    first.press(0);
    await until('the approved patch to be committed', async () => ((await call(fake, 'getRuntimeState', {})).value as { projects: Array<{ approvals: unknown[] }> }).projects.every((p) => p.approvals.length === 0) && fake.state.notifications.some((n) => n.options.title.startsWith('Patch applied')));
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');

    const second = await approval('three');
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('three\n');
    second.press(1);
    await until('the rejected patch to be rolled back', () => readFileSync(path.join(root, 'a.txt'), 'utf8') === 'two\n');
  });

  it('quitting rolls back a patch still waiting for approval, then removes the tray and quits', async () => {
    const { fake } = await start();
    const root = relayProject({ projectId: 'desk', files: { 'a.txt': 'one\n' } });
    expect(await call(fake, 'registerProject', { root })).toMatchObject({ ok: true });
    expect(await call(fake, 'applyPatch', { projectId: 'desk', text: answer([{ path: 'a.txt', body: 'pending' }], { projectId: 'desk' }), source: 'paste' })).toMatchObject({ ok: true });
    await until('the patch to wait for approval', async () => ((await call(fake, 'getRuntimeState', {})).value as { projects: Array<{ approvals: unknown[] }> }).projects.some((p) => p.approvals.length > 0));
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('pending\n');

    await quit(fake);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\n');
    expect(fake.state.trayDestroyed.value).toBe(true);
    // Once quitting, the window's close button closes it.
    expect(fake.state.windows[0]!.pressClose()).toBe(true);
  });

  it('a database it cannot open is shown in a dialog and the app exits 1', async () => {
    const fake = fakeElectron({ userData: tempDir('relay-app-data-'), appPath: REPO_ROOT });
    // The database path is a folder: SQLite cannot open it, and nothing can heal that.
    mkdirSync(path.join(fake.state.userData, DATABASE_FILE));
    const app = await startApp(fake.electron, fakeProcess(), { preloadDir: path.join(REPO_ROOT, 'out', 'preload') });
    expect(app).toBeNull();
    expect(fake.state.errorBoxes.map((e) => e.title)).toEqual(['Relay Desk cannot open its database']);
    expect(fake.state.exits).toEqual([1]);
    expect(fake.state.windows).toEqual([]);
  });
});
