import path from 'node:path';
import type { ElectronPorts, WindowPort } from './ports.js';
import { APP_ORIGIN, chooseRendererUrl, runPage } from './renderer-assets.js';
import { guardContents, secureWebPreferences } from './security.js';

/** Where the window's pages come from and which origin may call the host. */
export interface RendererLocation {
  /** The built renderer over app://, or Vite's dev server in development builds only. */
  readonly url: string;
  /** The origin IPC senders must have. */
  readonly origin: string;
}

/** The renderer's URL and trusted origin for this build (the dev server's only when unpackaged: chooseRendererUrl). */
export function rendererLocation(env: Readonly<Record<string, string | undefined>>, isPackaged: boolean): RendererLocation {
  const url = chooseRendererUrl(env, isPackaged);
  const origin = new URL(url).origin;
  // app:// is a custom scheme: Node's URL gives it the opaque origin "null".
  return { url, origin: origin === 'null' ? APP_ORIGIN : origin };
}

/** The window's page on one run's detail. */
export function runPageUrl(renderer: RendererLocation, runId: string): string {
  return runPage(renderer.url, runId);
}

/** Creates the main window: isolated, sandboxed, guarded, hidden until its page is ready. */
export function createMainWindow(
  electron: Pick<ElectronPorts, 'BrowserWindow' | 'shell'>,
  options: { readonly renderer: RendererLocation; readonly preloadDir: string; readonly icon: string; readonly url?: string },
): WindowPort {
  const window = new electron.BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Relay Desk',
    icon: options.icon,
    webPreferences: secureWebPreferences(path.join(options.preloadDir, 'index.cjs')),
  });
  guardContents(window.webContents, options.renderer.origin, (url) => void electron.shell.openExternal(url));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url ?? options.renderer.url);
  return window;
}
