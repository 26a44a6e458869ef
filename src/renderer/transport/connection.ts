// Whether the window can reach Relay Desk, and if not, why. Only `relay ui`'s WebSocket can drop
// (Electron's IPC lives as long as the window), so the socket transport reports here and the
// window shows a banner saying what to do; in Electron the state simply stays "open".
export type ConnectionState =
  /** Connected (or connecting for the first time). */
  | 'open'
  /** The server does not answer: `relay ui` stopped. The page reconnects by itself when it is back. */
  | 'lost'
  /** The page has no session and no link to trade: it was opened without the link `relay ui` printed. */
  | 'no-session'
  /** The link this page was opened with had already been used. */
  | 'link-used'
  /** The link this page was opened with had expired. */
  | 'link-expired'
  /** The link was not made by this server. */
  | 'link-unknown'
  /** The server answers but does not know this page's session (another data folder, or it expired). */
  | 'session-unknown';

export interface ConnectionStore {
  getState(): ConnectionState;
  set(state: ConnectionState): void;
  subscribe(listener: () => void): () => void;
  /** The transport found a restarted runtime counting events from `seq` (see socket-transport.ts). */
  runtimeRestarted(seq: number): void;
  /** Calls `listener` (at once, before any later event is delivered) each time that happens. */
  onRuntimeRestart(listener: (seq: number) => void): () => void;
}

/** A minimal external store for useSyncExternalStore. */
export function createConnectionStore(initial: ConnectionState = 'open'): ConnectionStore {
  let state = initial;
  const listeners = new Set<() => void>();
  const restartListeners = new Set<(seq: number) => void>();
  return {
    runtimeRestarted: (seq) => {
      for (const listener of [...restartListeners]) listener(seq);
    },
    onRuntimeRestart: (listener) => {
      restartListeners.add(listener);
      return () => {
        restartListeners.delete(listener);
      };
    },
    getState: () => state,
    set: (next) => {
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/** The window's one connection state, fed by the transport installed in install.ts. */
export const connection = createConnectionStore();
