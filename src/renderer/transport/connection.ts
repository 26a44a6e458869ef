// Whether the window can reach Relay Desk. Only `relay ui`'s WebSocket can drop (Electron's IPC
// lives as long as the window), so the socket transport reports here and the window shows a
// banner while it is lost; in Electron the state simply stays "open".
export type ConnectionState = 'open' | 'lost';

export interface ConnectionStore {
  getState(): ConnectionState;
  set(state: ConnectionState): void;
  subscribe(listener: () => void): () => void;
}

/** A minimal external store for useSyncExternalStore. */
export function createConnectionStore(initial: ConnectionState = 'open'): ConnectionStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
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
