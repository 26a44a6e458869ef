// The frames `relay ui` exchanges over its WebSocket. Types only (plus two constants), so the
// renderer's client and the server agree without either importing the other.
import type { EventEnvelope, IpcReply } from './contract.js';

/** The WebSocket's path on the `relay ui` server. */
export const SOCKET_PATH = '/ws';

/** Frames larger than this are refused (the socket is closed with code 1009). Room for a 4 MB answer as JSON. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024;

/** A call from the page: `id` is echoed in the reply. */
export interface CallFrame {
  readonly id: string | number;
  readonly channel: string;
  readonly input?: unknown;
}

export type ServerFrame =
  | { readonly type: 'reply'; readonly id: string | number; readonly reply: IpcReply<unknown> }
  | { readonly type: 'event'; readonly envelope: EventEnvelope }
  /** A frame that could not be read as a call; nothing was run. `id` is null when none could be read. */
  | { readonly type: 'refused'; readonly id: string | number | null; readonly error: { readonly code: string; readonly message: string } };
