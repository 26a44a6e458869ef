// The frames `relay ui` exchanges over its WebSocket, its paths, and the texts its proofs sign:
// types, constants and two pure functions, so the renderer's client and the server agree
// without either importing the other.
import type { EventEnvelope, IpcReply } from './contract.js';
import type { HttpRefusalCode, IpcError, TransportErrorCode } from './transport-errors.js';

/** The WebSocket's path on the `relay ui` server. */
export const SOCKET_PATH = '/ws';

/** POST {"launchToken"} here (JSON, from the page's own origin) to trade a launch token for a session. */
export const SESSION_PATH = '/api/session';

/**
 * POST {"sessionId", "pageNonce"} here (no secret): the server proves it knows the session named
 * `sessionId` with `{"proof"}` (200), or says it does not (401). A page asks this before it sends
 * its secret again after losing the connection.
 */
export const SESSION_HELLO_PATH = '/api/session/hello';

/** A session's public name is HMAC(secret, this); the key of the server's proofs is HMAC(secret, SESSION_PROOF_KEY_LABEL). */
export const SESSION_ID_LABEL = 'relay-desk/session-id';
export const SESSION_PROOF_KEY_LABEL = 'relay-desk/session-proof-key';

/** What the server signs (HMAC-SHA256 under the session's proof key) to prove itself to a page. */
export function serverProofText(pageNonce: string): string {
  return `relay-desk/server-proof\n${pageNonce}`;
}

/** The fragment parameter a launch link carries its token in: `http://127.0.0.1:<port>/#token=<token>`. */
export const LAUNCH_FRAGMENT_KEY = 'token';

/** The fragment parameter naming the project the page opens on (`relay ui` started in a project): `#token=…&project=<id>`. */
export const LAUNCH_PROJECT_KEY = 'project';

/**
 * The WebSocket subprotocol the server answers with. The page offers it together with
 * `SESSION_PROTOCOL_PREFIX + <session>`: browsers let a page set no other header on a WebSocket,
 * and this one is checked before the upgrade completes, so no unauthenticated socket ever opens.
 */
export const SOCKET_PROTOCOL = 'relay-desk.v1';
export const SESSION_PROTOCOL_PREFIX = 'relay-desk.session.';

/** The body of every refusal from the `relay ui` server (HTTP and refused upgrades). */
export interface RefusalBody {
  readonly error: IpcError<HttpRefusalCode>;
}

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
  | { readonly type: 'refused'; readonly id: string | number | null; readonly error: IpcError<TransportErrorCode> };
