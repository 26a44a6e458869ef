// Stand-ins for the Electron members the desktop shell is given (src/main/ports.ts): the one
// thing that cannot exist on these machines (the Electron binary cannot be downloaded). Each
// records what the shell did and lets a test act as the user would: click a tray entry, press a
// notification's button, close the window, start a second instance, quit.
import type { IpcEventLike } from '../../src/host/ipc.js';
import type { IpcReply } from '../../src/shared/contract.js';
import type { NativeNotification } from '../../src/main/notifier.js';
import type { AppPort, ElectronPorts, MenuTemplateItem, QuitEvent, ShellProcess, TrayPort, WindowOptions, WindowPort } from '../../src/main/ports.js';

type Listener = (...args: never[]) => unknown;

/** A window the shell created, as the test sees it. */
export interface FakeWindow extends WindowPort {
  readonly options: WindowOptions;
  /** The URL the window was created on, and those loaded into it later. */
  readonly url: string;
  readonly loaded: readonly string[];
  readonly sent: ReadonlyArray<readonly [string, unknown]>;
  readonly visible: boolean;
  /** What the page's guards were set to: the window-open handler and navigation listeners. */
  readonly openHandler: ((details: { url: string }) => { action: 'deny' }) | null;
  /** Presses the window's close button; true when the shell let it close. */
  pressClose(): boolean;
}

/** A notification the shell showed. */
export interface FakeNotification extends NativeNotification {
  readonly options: { title: string; body: string; urgency?: string; actions?: Array<{ type: 'button'; text: string }> };
  readonly closed: boolean;
  /** Clicks the notification. */
  click(): void;
  /** Presses action button `index` (0 Approve, 1 Reject). */
  press(index: number): void;
}

/** Everything the fake module recorded. */
export interface FakeElectronState {
  userData: string;
  appPath: string;
  isPackaged: boolean;
  clipboardText: string;
  /** Whether requestSingleInstanceLock() succeeds (false: another instance runs). */
  singleInstance: boolean;
  readonly calls: string[];
  readonly windows: FakeWindow[];
  readonly trayImages: string[];
  readonly trayMenus: MenuTemplateItem[][];
  readonly trayTooltips: string[];
  readonly trayDestroyed: { value: boolean };
  readonly notifications: FakeNotification[];
  readonly loginItems: unknown[];
  readonly errorBoxes: Array<{ title: string; content: string }>;
  readonly exits: Array<number | undefined>;
  readonly schemes: string[];
  readonly protocolHandlers: Map<string, (request: Request) => Promise<Response> | Response>;
  readonly ipcHandlers: Map<string, (event: IpcEventLike, input: unknown) => Promise<IpcReply<unknown>>>;
  readonly openedExternally: string[];
  permissionRequest: null | ((contents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void);
  permissionCheck: null | ((contents: unknown, permission: string, origin: string, details: { requestingUrl?: string }) => boolean);
  quits: number;
}

export interface FakeElectron {
  readonly electron: ElectronPorts;
  readonly state: FakeElectronState;
  /** Emits an app event (second-instance, activate, …); for before-quit, returns whether it was prevented. */
  emit(event: 'second-instance' | 'activate' | 'window-all-closed'): void;
  emit(event: 'before-quit'): boolean;
  /** The tray's latest menu. */
  menu(): MenuTemplateItem[];
  /** The entry of the latest tray menu at this label path ('Recent runs', '<run>'), or undefined. */
  menuItem(...labels: string[]): MenuTemplateItem | undefined;
  /** Clicks the tray icon itself. */
  clickTray(): void;
}

/** A fresh fake electron module; the shell is started with `fake.electron`. */
export function fakeElectron(initial: Partial<Pick<FakeElectronState, 'userData' | 'appPath' | 'isPackaged' | 'singleInstance'>> = {}): FakeElectron {
  const appListeners = new Map<string, Listener[]>();
  const state: FakeElectronState = {
    userData: initial.userData ?? '',
    appPath: initial.appPath ?? '',
    isPackaged: initial.isPackaged ?? false,
    singleInstance: initial.singleInstance ?? true,
    clipboardText: '',
    calls: [],
    windows: [],
    trayImages: [],
    trayMenus: [],
    trayTooltips: [],
    trayDestroyed: { value: false },
    notifications: [],
    loginItems: [],
    errorBoxes: [],
    exits: [],
    schemes: [],
    protocolHandlers: new Map(),
    ipcHandlers: new Map(),
    openedExternally: [],
    permissionRequest: null,
    permissionCheck: null,
    quits: 0,
  };
  let trayClick: (() => void) | null = null;

  const app: AppPort = {
    get isPackaged() {
      return state.isPackaged;
    },
    getPath: () => state.userData,
    setPath: (_name, value) => {
      state.calls.push('setPath');
      state.userData = value;
    },
    getAppPath: () => state.appPath,
    whenReady: () => {
      state.calls.push('whenReady');
      return Promise.resolve();
    },
    requestSingleInstanceLock: () => {
      state.calls.push('requestSingleInstanceLock');
      return state.singleInstance;
    },
    on: (event: string, listener: Listener) => void appListeners.set(event, [...(appListeners.get(event) ?? []), listener]),
    quit: () => void (state.quits += 1),
    exit: (code) => void state.exits.push(code),
    setAppUserModelId: () => undefined,
    setLoginItemSettings: (settings) => void state.loginItems.push(settings),
    getLoginItemSettings: () => ({ wasOpenedAtLogin: false }),
  };

  class Window implements FakeWindow {
    url = '';
    readonly loaded: string[] = [];
    readonly sent: Array<readonly [string, unknown]> = [];
    visible = false;
    destroyed = false;
    openHandler: FakeWindow['openHandler'] = null;
    private readonly listeners = new Map<string, Listener[]>();
    readonly webContents: FakeWindow['webContents'];
    constructor(readonly options: WindowOptions) {
      state.windows.push(this);
      state.calls.push('BrowserWindow');
      this.webContents = {
        setWindowOpenHandler: (handler) => void (this.openHandler = handler),
        on: () => undefined,
        send: (channel: string, payload: unknown) => void this.sent.push([channel, payload]),
        loadURL: (url: string) => {
          this.loaded.push(url);
          return Promise.resolve();
        },
      };
    }
    on(event: string, listener: Listener): this {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }
    once(event: string, listener: Listener): this {
      // The page is "ready" at once: the shell shows the window then.
      if (event === 'ready-to-show') queueMicrotask(() => (listener as () => void)());
      return this;
    }
    loadURL(url: string): Promise<void> {
      this.url = url;
      return Promise.resolve();
    }
    show(): void {
      this.visible = true;
    }
    focus(): void {}
    hide(): void {
      this.visible = false;
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    pressClose(): boolean {
      let prevented = false;
      for (const listener of this.listeners.get('close') ?? []) (listener as (event: { preventDefault(): void }) => void)({ preventDefault: () => void (prevented = true) });
      if (prevented) return false;
      this.visible = false;
      this.destroyed = true;
      for (const listener of this.listeners.get('closed') ?? []) (listener as () => void)();
      return true;
    }
  }

  class Tray implements TrayPort {
    constructor(image: string) {
      state.calls.push('Tray');
      state.trayImages.push(image);
    }
    on(event: string, listener: () => void): void {
      if (event === 'click') trayClick = listener;
    }
    setImage(image: string): void {
      state.trayImages.push(image);
    }
    setToolTip(text: string): void {
      state.trayTooltips.push(text);
    }
    setContextMenu(menu: unknown): void {
      state.trayMenus.push(menu as MenuTemplateItem[]);
    }
    destroy(): void {
      state.trayDestroyed.value = true;
    }
  }

  class Notification implements FakeNotification {
    static isSupported(): boolean {
      return true;
    }
    closed = false;
    private readonly listeners = new Map<string, Listener[]>();
    constructor(readonly options: FakeNotification['options']) {}
    on(event: string, listener: Listener): void {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    }
    show(): void {
      state.notifications.push(this);
    }
    close(): void {
      this.closed = true;
    }
    click(): void {
      for (const listener of this.listeners.get('click') ?? []) (listener as () => void)();
    }
    press(index: number): void {
      for (const listener of this.listeners.get('action') ?? []) (listener as (details: { actionIndex: number }) => void)({ actionIndex: index });
    }
  }

  const electron: ElectronPorts = {
    app,
    BrowserWindow: Window,
    Tray,
    Menu: { buildFromTemplate: (template) => template },
    Notification,
    clipboard: { readText: () => state.clipboardText, writeText: (text) => void (state.clipboardText = text) },
    dialog: { showErrorBox: (title, content) => void state.errorBoxes.push({ title, content }), showOpenDialog: async () => ({ canceled: true, filePaths: [] }) },
    ipcMain: {
      handle: (channel, listener) => void state.ipcHandlers.set(channel, listener),
      removeHandler: (channel) => void state.ipcHandlers.delete(channel),
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes) => {
        state.calls.push('registerSchemesAsPrivileged');
        state.schemes.push(...schemes.map((s) => s.scheme));
      },
      handle: (scheme, handler) => void state.protocolHandlers.set(scheme, handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (handler) => void (state.permissionRequest = handler as FakeElectronState['permissionRequest']),
        setPermissionCheckHandler: (handler) => void (state.permissionCheck = handler as FakeElectronState['permissionCheck']),
      },
    },
    shell: { openExternal: (url) => Promise.resolve(void state.openedExternally.push(url)) },
  };

  const menu = (): MenuTemplateItem[] => state.trayMenus.at(-1) ?? [];
  return {
    electron,
    state,
    emit: ((event: string) => {
      let prevented = false;
      const quitEvent: QuitEvent = { preventDefault: () => void (prevented = true) };
      for (const listener of appListeners.get(event) ?? []) (listener as (event: QuitEvent) => void)(quitEvent);
      return event === 'before-quit' ? prevented : undefined;
    }) as FakeElectron['emit'],
    menu,
    menuItem: (...labels) => {
      let items: MenuTemplateItem[] | undefined = menu();
      let found: MenuTemplateItem | undefined;
      for (const label of labels) {
        found = items?.find((item) => item.label === label);
        items = found?.submenu;
      }
      return found;
    },
    clickTray: () => trayClick?.(),
  };
}

/** The process the shell reads, as a plain object: this one's, with the overrides given. */
export function fakeProcess(overrides: Partial<ShellProcess> = {}): ShellProcess {
  return {
    platform: process.platform,
    argv: ['/opt/Relay Desk/relay-desk'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    execPath: '/opt/Relay Desk/relay-desk',
    versions: process.versions,
    resourcesPath: '/opt/Relay Desk/resources',
    ...overrides,
  };
}
