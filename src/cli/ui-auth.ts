// Who may talk to `relay ui`. Every request must name this server in its Host header (refusing
// other names defeats DNS rebinding); anything that runs the host or reveals data must also come
// from our own origin AND carry a session secret the page holds in its sessionStorage. A cookie
// is never read: browsers send loopback cookies to every port, so a cookie proves nothing.
import type { IncomingMessage } from 'node:http';
import type { HttpRefusalCode } from '../shared/transport-errors.js';
import { SESSION_PROTOCOL_PREFIX } from '../shared/wire.js';

/** Why a request was refused; each is a stable code the page and tests rely on (one union, shared with the page). */
export type RefusalCode = HttpRefusalCode;

export interface Refusal {
  readonly status: 400 | 401 | 403 | 404 | 405 | 415;
  readonly code: RefusalCode;
  readonly message: string;
}

/**
 * The origin the page can have: the server's own, by the address it listens on (`authority` is
 * `<address>:<port>`). Never `localhost`: a browser may resolve it to ::1, where another program
 * can listen on the same port number while this server lives on IPv4.
 */
export function ownOrigins(authority: string): readonly string[] {
  return [`http://${authority}`];
}

/** Refuses a Host header that does not name this server (by its address: see ownOrigins). */
export function checkHost(request: IncomingMessage, authority: string): Refusal | null {
  const host = request.headers.host;
  if (host === authority) return null;
  return { status: 403, code: 'HOST_REFUSED', message: `Host ${host ?? '(none)'} is not this server (${authority}).` };
}

/**
 * Refuses a foreign Origin. `required` is set for everything that is not a static file: browsers
 * always send Origin on a POST and on a WebSocket upgrade, so a request without one did not
 * come from our page. A plain page load may omit it, but one that is present must be ours.
 */
export function checkOrigin(request: IncomingMessage, authority: string, required: boolean): Refusal | null {
  const origin = request.headers.origin;
  if (origin === undefined) return required ? { status: 403, code: 'ORIGIN_REQUIRED', message: 'This request must come from the Relay Desk page (it has no Origin).' } : null;
  if (ownOrigins(authority).includes(origin)) return null;
  return { status: 403, code: 'ORIGIN_REFUSED', message: `Origin ${origin} is not this server's.` };
}

/** The session secret a WebSocket upgrade offers among its subprotocols, if any. */
export function sessionFromProtocols(header: string | undefined): string | null {
  for (const protocol of (header ?? '').split(',')) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(SESSION_PROTOCOL_PREFIX)) return trimmed.slice(SESSION_PROTOCOL_PREFIX.length) || null;
  }
  return null;
}

/** Refuses a missing or unknown session. */
export function checkSession(secret: string | null, verify: (secret: string | null) => boolean): Refusal | null {
  if (secret === null) return { status: 401, code: 'SESSION_REQUIRED', message: 'No Relay Desk session: open the link `relay ui` printed in its terminal.' };
  if (!verify(secret)) return { status: 401, code: 'SESSION_UNKNOWN', message: 'This session is not known to this `relay ui` (it is another run, or the session expired): open the link it printed.' };
  return null;
}
