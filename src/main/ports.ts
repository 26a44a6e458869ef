// The members of Electron the desktop shell uses, each as a small interface. src/main/index.ts
// passes the real electron module; tests in plain Node pass stand-ins that record what the shell
// did and let a test click the tray, answer a notification or quit (test/helpers/fake-electron.ts).
// Types only: nothing here loads electron.
import type { IpcMainLike } from '../host/ipc.js';
import type { OpenDialogLike } from './folder-picker.js';
import type { NativeNotificationClass } from './notifier.js';
import type { PermissionSession } from './permissions.js';
import type { GuardableContents, secureWebPreferences } from './security.js';

/** The event `before-quit` hands its listeners: preventing it keeps the app running (to shut down first). */
export interface QuitEvent {
  preventDefault(): void;
}

/** What the shell uses of Electron's `app`. */
export interface AppPort {
  readonly isPackaged: boolean;
  getPath(name: 'userData'): string;
  setPath(name: 'userData', path: string): void;
  /** The app folder (development) or app.asar (packaged). */
  getAppPath(): string;
  whenReady(): Promise<unknown>;
  requestSingleInstanceLock(): boolean;
  on(event: 'second-instance', listener: () => void): unknown;
  on(event: 'activate', listener: () => void): unknown;
  on(event: 'window-all-closed', listener: () => void): unknown;
  on(event: 'before-quit', listener: (event: QuitEvent) => void): unknown;
  quit(): void;
  exit(code?: number): void;
  setAppUserModelId(id: string): void;
  setLoginItemSettings(settings: { openAtLogin: boolean; args: string[] }): void;
  getLoginItemSettings(): { readonly wasOpenedAtLogin?: boolean };
}

/** The window's options the shell sets (a subset of BrowserWindowConstructorOptions). */
export interface WindowOptions {
  readonly width: number;
  readonly height: number;
  readonly minWidth: number;
  readonly minHeight: number;
  readonly show: boolean;
  readonly title: string;
  readonly icon: string;
  readonly webPreferences: ReturnType<typeof secureWebPreferences>;
}

/** What the shell uses of a BrowserWindow. */
export interface WindowPort {
  readonly webContents: GuardableContents & {
    send(channel: string, ...args: unknown[]): void;
    loadURL(url: string): Promise<void>;
  };
  on(event: 'close', listener: (event: { preventDefault(): void }) => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  once(event: 'ready-to-show', listener: () => void): unknown;
  loadURL(url: string): Promise<void>;
  show(): void;
  focus(): void;
  hide(): void;
  isDestroyed(): boolean;
}

/** One entry of a tray menu (a subset of MenuItemConstructorOptions). */
export interface MenuTemplateItem {
  readonly type?: 'separator' | 'checkbox';
  readonly label?: string;
  readonly enabled?: boolean;
  readonly checked?: boolean;
  readonly click?: () => void;
  readonly submenu?: MenuTemplateItem[];
}

/** What the shell uses of a Tray; images are file paths (Electron takes a path as well as a NativeImage). */
export interface TrayPort {
  on(event: 'click', listener: () => void): unknown;
  setImage(image: string): void;
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  destroy(): void;
}

/** What the shell uses of `protocol`. */
export interface ProtocolPort {
  registerSchemesAsPrivileged(schemes: Array<{ scheme: string; privileges: { standard: boolean; secure: boolean; supportFetchAPI: boolean } }>): void;
  handle(scheme: string, handler: (request: Request) => Promise<Response> | Response): void;
}

/** The Electron module as the shell sees it: index.ts passes `electron` itself. */
export interface ElectronPorts {
  readonly app: AppPort;
  readonly BrowserWindow: new (options: WindowOptions) => WindowPort;
  readonly Tray: new (image: string) => TrayPort;
  readonly Menu: { buildFromTemplate(template: MenuTemplateItem[]): unknown };
  readonly Notification: NativeNotificationClass;
  readonly clipboard: { readText(): Promise<string> | string; writeText(text: string): void };
  readonly dialog: OpenDialogLike & { showErrorBox(title: string, content: string): void };
  readonly ipcMain: IpcMainLike;
  readonly protocol: ProtocolPort;
  readonly session: { readonly defaultSession: PermissionSession };
  readonly shell: { openExternal(url: string): Promise<void> };
}

/** What the shell reads of its process (process itself in the app; a plain object in tests). */
export interface ShellProcess {
  readonly platform: NodeJS.Platform;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly execPath: string;
  readonly versions: NodeJS.ProcessVersions;
  /** Where a packaged app's resources are (process.resourcesPath). */
  readonly resourcesPath: string;
  /** True when Electron runs an app folder (`electron .`): its argv then has the folder first. */
  readonly defaultApp?: boolean;
}
