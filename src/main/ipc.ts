// The desktop binding of the host: every contract channel on ipcMain, each call checked for its
// sender frame and validated against the contract by the host. ipcMain arrives from the
// composition root (src/main/index.ts, the one file that imports it: lint enforces it).
import { bindIpcMain, type Host, type IpcMainLike } from '../host/index.js';

/** True when a frame at `url` belongs to `origin` (the app's own pages). */
export function isTrustedFrame(url: string | undefined, origin: string): boolean {
  if (!url) return false;
  try {
    return new URL(url).origin === origin || url.startsWith(`${origin}/`);
  } catch {
    return false;
  }
}

/** Binds every contract channel to the host; only frames from `origin` may call. */
export function bindHostToIpc(ipcMain: IpcMainLike, host: Host, origin: string): () => void {
  return bindIpcMain(ipcMain, host, { isTrustedSender: (event) => isTrustedFrame(event.senderFrame?.url, origin) });
}
