// The only module that touches ipcMain (lint enforces it): the host's handlers are bound here,
// each call checked for its sender frame and validated against the contract by the host.
import { ipcMain } from 'electron';
import { bindIpcMain, type Host } from '../host/index.js';

/** Binds every contract channel to the host; only frames from `origin` may call. */
export function bindHostToIpc(host: Host, origin: string): () => void {
  return bindIpcMain(ipcMain, host, {
    isTrustedSender: (event) => {
      const url = event.senderFrame?.url;
      if (!url) return false;
      try {
        return new URL(url).origin === origin || url.startsWith(`${origin}/`);
      } catch {
        return false;
      }
    },
  });
}
