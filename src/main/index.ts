// Electron's entry point: the one file that imports electron's runtime. It hands the real module
// and process to launch.ts, where everything that decides anything is (and is tested in Node).
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, Notification, protocol, session, shell, Tray } from 'electron';
import path from 'node:path';
import { launch } from './launch.js';

void launch(
  { app, BrowserWindow, Tray, Menu, Notification, clipboard, dialog, ipcMain, protocol, session, shell },
  process,
  // The bundle is out/main/index.js; the preload sits beside it in out/preload.
  { preloadDir: path.join(import.meta.dirname, '../preload') },
);
