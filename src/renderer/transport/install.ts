// Gives the page its `window.relay`. In Electron the preload has already exposed it through
// contextBridge; in a browser opened by `relay ui` it is built here over the WebSocket. Either
// way the rest of the renderer only ever talks to `window.relay`.
import { buildRelayApi, type RelayApi } from '../../shared/api.js';
import { SOCKET_PATH } from '../../shared/wire.js';
import { connection } from './connection.js';
import { createSocketTransport, type SocketConstructor } from './socket-transport.js';

declare global {
  interface Window {
    readonly relay: RelayApi;
  }
}

/** Returns `window.relay`, creating the WebSocket-backed one when no preload provided it. */
export function installRelay(): RelayApi {
  if ('relay' in window && window.relay) return window.relay;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const transport = createSocketTransport({ url: `${scheme}://${window.location.host}${SOCKET_PATH}`, WebSocket: WebSocket as unknown as SocketConstructor, onStatus: connection.set });
  const api = buildRelayApi(transport);
  Object.defineProperty(window, 'relay', { value: api, writable: false, configurable: false });
  return api;
}
