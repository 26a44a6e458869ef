import { app, BrowserWindow, shell } from 'electron';
import path from 'node:path';
import { APP_ORIGIN, chooseRendererUrl, runPage } from './renderer-assets.js';
import { guardContents, secureWebPreferences } from './security.js';

/** Where the window's page comes from: the built renderer over app://, or Vite's dev server in development builds only. */
export function rendererUrl(): string {
  return chooseRendererUrl(process.env, app.isPackaged);
}

/** The window's page on one run's detail. */
export function runPageUrl(runId: string): string {
  return runPage(rendererUrl(), runId);
}

/** The origin IPC senders must have. */
export function trustedOrigin(): string {
  return new URL(rendererUrl()).origin === 'null' ? APP_ORIGIN : new URL(rendererUrl()).origin;
}

/** Creates the main window: isolated, sandboxed, guarded, hidden until its page is ready. */
export function createMainWindow(options: { readonly preloadDir: string; readonly icon: string; readonly url?: string }): BrowserWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 720,
    minHeight: 480,
    show: false,
    title: 'Relay Desk',
    icon: options.icon,
    webPreferences: secureWebPreferences(path.join(options.preloadDir, 'index.cjs')),
  });
  guardContents(window.webContents, trustedOrigin(), (url) => void shell.openExternal(url));
  window.once('ready-to-show', () => window.show());
  void window.loadURL(options.url ?? rendererUrl());
  return window;
}
