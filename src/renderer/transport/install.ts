// Gives the page its `window.relay`. In Electron the preload has already exposed it through
// contextBridge; in a browser opened by `relay ui` it is built here over the WebSocket, after
// the launch token in the URL fragment is traded for this tab's session, which is sent again
// after a lost connection only to a server that proves it knows it (session.ts). Either
// way the rest of the renderer only ever talks to `window.relay`.
import { buildRelayApi, type RelayApi } from '../../shared/api.js';
import { LAUNCH_FRAGMENT_KEY, SESSION_PROTOCOL_PREFIX, SOCKET_PATH, SOCKET_PROTOCOL } from '../../shared/wire.js';
import { connection } from './connection.js';
import { createPageSession, type FetchLike } from './session.js';
import { createSocketTransport, type SocketConstructor } from './socket-transport.js';

declare global {
  interface Window {
    readonly relay: RelayApi;
  }
}

/** Returns `window.relay`, creating the WebSocket-backed one when no preload provided it. */
export function installRelay(): RelayApi {
  if ('relay' in window && window.relay) return window.relay;
  const base = window.location.origin;
  // `credentials: 'omit'`: nothing this page sends may depend on cookies, which other local sites share.
  const fetchFn: FetchLike = (url, init) => fetch(url, { ...init, credentials: 'omit' });
  const session = createPageSession({ location: window.location, history: window.history, storage: window.sessionStorage, fetch: fetchFn, base });
  const started = session.start().then((start) => {
    if (start.session === null) {
      connection.set(start.reason);
      return false;
    }
    return true;
  });
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const transport = createSocketTransport({
    url: `${scheme}://${window.location.host}${SOCKET_PATH}`,
    WebSocket: WebSocket as unknown as SocketConstructor,
    protocols: () => [SOCKET_PROTOCOL, `${SESSION_PROTOCOL_PREFIX}${session.secret() ?? ''}`],
    ready: started,
    // Asked before every reconnection: only our own server, proving it knows this page, hears the secret again.
    probe: session.probe,
    onStatus: connection.set,
    onRuntimeRestart: connection.runtimeRestarted,
  });
  // A new link opened in this tab at the same address (a run given the same --port) only changes
  // the fragment, which loads nothing: load the page again, so that it trades the new token.
  window.addEventListener('hashchange', () => {
    if (window.location.hash.startsWith(`#${LAUNCH_FRAGMENT_KEY}=`)) window.location.reload();
  });
  const api = buildRelayApi(transport);
  Object.defineProperty(window, 'relay', { value: api, writable: false, configurable: false });
  return api;
}
