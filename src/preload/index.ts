// The sandboxed preload: `window.relay`, one typed function per contract channel plus an event
// subscription that returns its unsubscribe. It bundles only the plain channel list and the
// tiny builder in src/shared/api.ts (no zod, no node modules); types are import type only.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildRelayApi, type EventListener } from '../shared/api.js';
import { EVENT_CHANNEL, ipcChannel } from '../shared/channels.js';
import type { EventEnvelope, IpcReply } from '../shared/contract.js';

const relay = buildRelayApi({
  invoke: (channel, input) => ipcRenderer.invoke(ipcChannel(channel), input) as Promise<IpcReply<unknown>>,
  subscribe: (listener: EventListener) => {
    const forward = (_event: IpcRendererEvent, envelope: EventEnvelope): void => listener(envelope);
    ipcRenderer.on(EVENT_CHANNEL, forward);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, forward);
    };
  },
});

contextBridge.exposeInMainWorld('relay', relay);
