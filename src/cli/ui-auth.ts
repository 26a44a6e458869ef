// Who may talk to `relay ui`: requests to 127.0.0.1 (or localhost) on our port, carrying the
// per-launch token, from our own origin. The token arrives once in the printed URL and is then
// kept in an HttpOnly, SameSite=Strict cookie, so it leaves the address bar at once.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The origins the page can have: the server's own, under either loopback name. */
export function ownOrigins(port: number): readonly string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
}

/** True when the Host header names this server (refusing other names defeats DNS rebinding). */
export function hostIsOurs(request: IncomingMessage, port: number): boolean {
  const host = request.headers.host;
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** The cookie that carries the token; named per port so two servers do not overwrite each other's. */
export function cookieName(port: number): string {
  return `relay_ui_${port}`;
}

/** The token a request carries, in the query or the cookie. */
export function presentedToken(request: IncomingMessage, port: number): { readonly token: string | null; readonly inQuery: boolean } {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const fromQuery = url.searchParams.get('token');
  if (fromQuery) return { token: fromQuery, inQuery: true };
  const wanted = `${cookieName(port)}=`;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const trimmed = part.trim();
    if (trimmed.startsWith(wanted)) return { token: decodeURIComponent(trimmed.slice(wanted.length)), inQuery: false };
  }
  return { token: null, inQuery: false };
}

/** Compares tokens in constant time. */
export function tokensMatch(presented: string | null, expected: string): boolean {
  if (presented === null) return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

export type GateVerdict = { readonly ok: true; readonly tokenInQuery: boolean } | { readonly ok: false; readonly status: 401 | 403; readonly reason: string };

/**
 * Checks one request. `requireOrigin` is set for the WebSocket upgrade, where browsers always
 * send Origin; plain page loads may omit it, but one that is present must be ours.
 */
export function checkRequest(request: IncomingMessage, options: { readonly port: number; readonly token: string; readonly requireOrigin: boolean }): GateVerdict {
  if (!hostIsOurs(request, options.port)) return { ok: false, status: 403, reason: `Host ${request.headers.host ?? '(none)'} is not this server.` };
  const presented = presentedToken(request, options.port);
  if (!tokensMatch(presented.token, options.token)) return { ok: false, status: 401, reason: 'Missing or wrong token: open the URL that `relay ui` printed.' };
  const origin = request.headers.origin;
  if (origin === undefined ? options.requireOrigin : !ownOrigins(options.port).includes(origin)) {
    return { ok: false, status: 403, reason: `Origin ${origin ?? '(none)'} is not this server's.` };
  }
  return { ok: true, tokenInQuery: presented.inQuery };
}
