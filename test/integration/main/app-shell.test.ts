// The desktop app's composition root, run in plain Node with a stand-in for the `electron`
// module (the one thing that cannot exist here: its binary cannot be downloaded). Everything
// behind it is real: the store on disk, the host and engines, the renderer build, a git repo.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { answer } from '../../helpers/patches.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';

type Listener = (...args: unknown[]) => unknown;

const fake = vi.hoisted(() => {
  const state = {
    userData: '',
    appPath: '',
    appListeners: new Map<string, Listener[]>(),
    ipcHandlers: new Map<string, Listener>(),
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    windows: [] as Array<{ options: Record<string, unknown>; url: string; loaded: string[]; sent: Array<[string, unknown]>; shown: boolean }>,
    trayMenus: [] as unknown[],
    trayImages: [] as string[],
    notifications: [] as Array<{ title: string; body: string }>,
    clipboardText: '',
    loginItems: [] as unknown[],
    quits: 0,
    errors: [] as string[],
    permissionRequest: null as null | ((contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void),
    permissionCheck: null as null | ((contents: unknown, permission: string, origin: string, details: { requestingUrl?: string }) => boolean),
  };
  class FakeWindow {
    readonly record: { options: Record<string, unknown>; url: string; loaded: string[]; sent: Array<[string, unknown]>; shown: boolean };
    private readonly listeners = new Map<string, Listener[]>();
    readonly webContents: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      this.record = { options, url: '', loaded: [], sent: [], shown: false };
      state.windows.push(this.record);
      this.webContents = {
        setWindowOpenHandler: () => undefined,
        on: () => undefined,
        send: (channel: string, payload: unknown) => void this.record.sent.push([channel, payload]),
        loadURL: (url: string) => {
          this.record.loaded.push(url);
          return Promise.resolve();
        },
      };
    }
    once(event: string, fn: Listener): void {
      if (event === 'ready-to-show') queueMicrotask(() => fn());
    }
    on(event: string, fn: Listener): void {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    }
    loadURL(url: string): Promise<void> {
      this.record.url = url;
      return Promise.resolve();
    }
    show(): void {
      this.record.shown = true;
    }
    focus(): void {}
    hide(): void {
      this.record.shown = false;
    }
    isDestroyed(): boolean {
      return false;
    }
  }
  class FakeTray {
    constructor(image: { path: string }) {
      state.trayImages.push(image.path);
    }
    on(): void {}
    setImage(image: { path: string }): void {
      state.trayImages.push(image.path);
    }
    setToolTip(): void {}
    setContextMenu(menu: unknown): void {
      state.trayMenus.push(menu);
    }
    destroy(): void {}
  }
  class FakeNotification {
    static isSupported(): boolean {
      return true;
    }
    constructor(private readonly options: { title: string; body: string }) {}
    on(): void {}
    show(): void {
      state.notifications.push({ title: this.options.title, body: this.options.body });
    }
  }
  const electron = {
    app: {
      getPath: () => state.userData,
      setPath: () => undefined,
      getAppPath: () => state.appPath,
      isPackaged: false,
      on: (event: string, fn: Listener) => void state.appListeners.set(event, [...(state.appListeners.get(event) ?? []), fn]),
      quit: () => void (state.quits += 1),
      exit: () => undefined,
      setLoginItemSettings: (settings: unknown) => void state.loginItems.push(settings),
      getLoginItemSettings: () => ({ wasOpenedAtLogin: false }),
    },
    BrowserWindow: FakeWindow,
    Tray: FakeTray,
    Menu: { buildFromTemplate: (template: unknown) => template },
    nativeImage: { createFromPath: (p: string) => ({ path: p }) },
    clipboard: { readText: () => state.clipboardText },
    protocol: {
      registerSchemesAsPrivileged: () => undefined,
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => void state.protocolHandlers.set(scheme, handler),
    },
    dialog: { showErrorBox: (title: string) => void state.errors.push(title) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler: typeof state.permissionRequest) => void (state.permissionRequest = handler),
        setPermissionCheckHandler: (handler: typeof state.permissionCheck) => void (state.permissionCheck = handler),
      },
    },
    Notification: FakeNotification,
    shell: { openExternal: () => Promise.resolve() },
    ipcMain: {
      handle: (channel: string, fn: Listener) => void state.ipcHandlers.set(channel, fn),
      removeHandler: (channel: string) => void state.ipcHandlers.delete(channel),
    },
  };
  return { state, electron };
});

vi.mock('electron', () => fake.electron);

const { startApp } = await import('../../../src/main/app-shell.js');

const trusted = { senderFrame: { url: 'app://relay-desk/index.html' } };
async function call(channel: string, input: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }> {
  const handler = fake.state.ipcHandlers.get(`relay:${channel}`);
  if (!handler) throw new Error(`no handler for ${channel}`);
  return (await handler(trusted, input)) as { ok: boolean; value?: unknown; error?: { code: string } };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the desktop composition root (with a stand-in for electron)', () => {
  afterAll(async () => {
    for (const fn of fake.state.appListeners.get('before-quit') ?? []) fn({ preventDefault: () => undefined });
    await until(() => fake.state.quits > 0, 'the app to quit after shutting down');
  });

  it('wires the store, host, IPC, window, tray, clipboard watcher and notifications together', async () => {
    fake.state.appPath = REPO_ROOT; // where out/renderer and resources/ are
    fake.state.userData = tempDir('relay-app-data-');
    const configHome = tempDir('relay-xdg-config-');
    process.env.XDG_CONFIG_HOME = configHome;
    await startApp();

    // IPC: one handler per channel; the app's own frame answers, any other is refused.
    expect(fake.state.ipcHandlers.size).toBeGreaterThan(15);
    expect(await call('listProjects', {})).toEqual({ ok: true, value: [] });
    const foreign = await fake.state.ipcHandlers.get('relay:listProjects')!({ senderFrame: { url: 'https://evil.example/' } }, {});
    expect(foreign).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });

    // The window: sandboxed, loading the renderer over app://, which is served with the CSP.
    const window = fake.state.windows[0]!;
    expect(window.url).toBe('app://relay-desk/index.html');
    expect(window.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    const served = await fake.state.protocolHandlers.get('app')!(new Request('app://relay-desk/index.html'));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect((await fake.state.protocolHandlers.get('app')!(new Request('app://relay-desk/../../package.json'))).status).toBe(404);
    // A malformed % escape is a bad request, not an exception thrown into Electron.
    expect((await fake.state.protocolHandlers.get('app')!(new Request('app://relay-desk/assets/%E0%A4%A.js'))).status).toBe(400);

    // Web permissions: denied by default, both when asked for and when checked.
    const asked = (permission: string, requestingUrl: string) =>
      new Promise<boolean>((resolve) => fake.state.permissionRequest!(null, permission, resolve, { requestingUrl }));
    expect(await asked('media', 'app://relay-desk/index.html')).toBe(false);
    expect(await asked('geolocation', 'app://relay-desk/index.html')).toBe(false);
    expect(await asked('clipboard-sanitized-write', 'app://relay-desk/index.html')).toBe(true);
    expect(await asked('clipboard-sanitized-write', 'https://evil.example/')).toBe(false);
    expect(fake.state.permissionCheck!(null, 'notifications', 'app://relay-desk', {})).toBe(false);
    expect(fake.state.permissionCheck!(null, 'clipboard-sanitized-write', 'https://evil.example', {})).toBe(false);

    // The tray shows a menu with Quit.
    const menu = fake.state.trayMenus.at(-1) as Array<{ label?: string }>;
    expect(menu.map((m) => m.label)).toContain('Quit');
    expect(fake.state.trayImages.at(-1)).toMatch(/tray[\\/](idle|watching)\.png$/);

    // A copied answer is routed to its project and applied; a notification says so.
    const root = relayProject({ projectId: 'desk', files: { 'a.txt': 'one\n' } });
    expect(await call('registerProject', { root })).toMatchObject({ ok: true });
    expect(await call('updateProjectSettings', { projectId: 'desk', approvalPolicy: { mode: 'auto' } })).toMatchObject({ ok: true });
    expect(await call('updateAppSettings', { clipboardPollIntervalMs: 100, autoStart: true })).toMatchObject({ ok: true });
    // Start at login: a login item on macOS and Windows, an XDG autostart entry on Linux.
    if (process.platform === 'linux') {
      expect(readFileSync(path.join(configHome, 'autostart', 'relay-desk.desktop'), 'utf8')).toMatch(/^Exec=.* --hidden$/m);
      expect(fake.state.loginItems).toEqual([]);
      expect(await call('updateAppSettings', { autoStart: false })).toMatchObject({ ok: true });
      expect(existsSync(path.join(configHome, 'autostart', 'relay-desk.desktop'))).toBe(false);
    } else {
      expect(fake.state.loginItems.at(-1)).toMatchObject({ openAtLogin: true, args: [REPO_ROOT, '--hidden'] });
    }
    fake.state.clipboardText = answer([{ path: 'a.txt', body: 'two' }], { projectId: 'desk' });
    await until(() => readFileSync(path.join(root, 'a.txt'), 'utf8') === 'two\n', 'the copied answer to be applied');
    await until(() => fake.state.notifications.some((n) => n.title.startsWith('Patch applied')), 'the notification');
    expect(window.sent.some(([channel]) => channel === 'relay:event')).toBe(true);

    // The tray lists the latest runs from the store; clicking one opens its page in the window.
    type MenuEntry = { label?: string; click?: () => void; submenu?: MenuEntry[] };
    const runsMenu = () => (fake.state.trayMenus.at(-1) as MenuEntry[]).find((m) => m.label === 'Recent runs')!.submenu!;
    await until(() => runsMenu()[0]?.label === `${path.basename(root)} · test: change — approved`, 'the run in the tray');
    const [listed] = ((await call('listRuns', { projectId: 'desk', limit: 1 })).value as { runs: Array<{ id: string }> }).runs;
    runsMenu()[0]!.click!();
    expect(window.loaded.at(-1)).toBe(`app://relay-desk/index.html#/runs/${encodeURIComponent(listed!.id)}`);

    // An answer for a project nobody registered is not applied, and the user is told.
    fake.state.clipboardText = answer([{ path: 'a.txt', body: 'three' }], { projectId: 'nobody' });
    await until(() => fake.state.notifications.some((n) => n.title.includes('No project for projectId "nobody"')), 'the no-project notification');
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
    expect(fake.state.errors).toEqual([]);
  });
});
