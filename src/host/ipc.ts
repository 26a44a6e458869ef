// The Electron binding of the host, written against a minimal ipcMain-like interface so it can
// be tested in plain Node: src/main passes Electron's real ipcMain and a sender check.
import { CHANNEL_NAMES, EVENT_CHANNEL, ipcChannel } from '../shared/channels.js';
import { TRANSPORT_ERRORS, type EventEnvelope, type IpcReply } from '../shared/contract.js';
import type { Host } from './host.js';

/** The part of Electron's ipcMain this binding uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, input: unknown) => Promise<IpcReply<unknown>>): void;
  removeHandler(channel: string): void;
}

/** The part of an IpcMainInvokeEvent the sender check looks at. */
export interface IpcEventLike {
  readonly senderFrame?: { readonly url: string } | null;
}

/** Registers one handler per contract channel; returns the function that removes them. */
export function bindIpcMain(ipcMain: IpcMainLike, host: Host, options: { readonly isTrustedSender: (event: IpcEventLike) => boolean }): () => void {
  for (const name of CHANNEL_NAMES) {
    ipcMain.handle(ipcChannel(name), async (event, input) => {
      if (!options.isTrustedSender(event)) {
        return { ok: false, error: { code: TRANSPORT_ERRORS.untrustedSender, message: `${name} was called from ${event.senderFrame?.url ?? 'an unknown frame'}, which is not Relay Desk's window.` } };
      }
      return host.invoke(name, input);
    });
  }
  return () => {
    for (const name of CHANNEL_NAMES) ipcMain.removeHandler(ipcChannel(name));
  };
}

/** Pushes every runtime event to a window (`send` is webContents.send bound to EVENT_CHANNEL). */
export function forwardEvents(host: Host, send: (channel: typeof EVENT_CHANNEL, envelope: EventEnvelope) => void): () => void {
  return host.subscribe((envelope) => send(EVENT_CHANNEL, envelope));
}
