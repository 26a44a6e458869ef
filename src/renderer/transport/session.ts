// The page's side of `relay ui`'s credentials: the single-use launch token arrives in the URL
// fragment (never sent to a server), is taken out of the address bar at once, and is traded for
// a session secret that lives in sessionStorage (this tab only; gone when the tab closes) and is
// sent with every call. Written against the few browser interfaces it uses, so Node tests can
// drive it against the real server.
import type { HttpRefusalCode } from '../../shared/transport-errors.js';
import { LAUNCH_FRAGMENT_KEY, LAUNCH_PROJECT_KEY, SESSION_CHECK_PATH, SESSION_PATH, type RefusalBody } from '../../shared/wire.js';

/** Where the session secret is kept in sessionStorage. */
export const SESSION_STORAGE_KEY = 'relay-desk.session';

export interface LocationLike {
  readonly hash: string;
  readonly pathname: string;
  readonly search: string;
}

export interface HistoryLike {
  replaceState(data: unknown, unused: string, url: string): void;
}

export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; cache?: 'no-store' }) => Promise<{ readonly status: number; json(): Promise<unknown> }>;

/**
 * Takes the launch token out of `#token=…` and out of the address bar and history (replaceState
 * keeps no entry with it). A `&project=<id>` beside it (`relay ui` started in a project) leaves
 * the page on that project's history instead. Returns null when the fragment has no token (a hash
 * route, or nothing).
 */
export function takeLaunchToken(location: LocationLike, history: HistoryLike): string | null {
  const fragment = location.hash.replace(/^#/, '');
  if (!fragment.startsWith(`${LAUNCH_FRAGMENT_KEY}=`)) return null;
  const params = new URLSearchParams(fragment);
  const token = params.get(LAUNCH_FRAGMENT_KEY);
  const project = params.get(LAUNCH_PROJECT_KEY);
  const route = project ? `#/history?${new URLSearchParams({ project }).toString()}` : '';
  history.replaceState(null, '', `${location.pathname}${location.search}${route}`);
  return token || null;
}

/** Why a trade failed: the server's refusal, no answer at all, or an HTTP status without a refusal body. */
export type TradeFailureCode = HttpRefusalCode | 'UNREACHABLE' | `HTTP_${number}`;

export type TradeOutcome = { readonly ok: true; readonly session: string } | { readonly ok: false; readonly code: TradeFailureCode };

/** Trades a launch token for a session secret (POST from this page's own origin, no credentials). */
export async function tradeLaunchToken(fetchFn: FetchLike, base: string, token: string): Promise<TradeOutcome> {
  try {
    const response = await fetchFn(`${base}${SESSION_PATH}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ launchToken: token }), cache: 'no-store' });
    const body = (await response.json().catch(() => null)) as { session?: unknown } | RefusalBody | null;
    if (response.status === 200 && body && 'session' in body && typeof body.session === 'string') return { ok: true, session: body.session };
    return { ok: false, code: body && 'error' in body ? body.error.code : `HTTP_${response.status}` };
  } catch {
    return { ok: false, code: 'UNREACHABLE' };
  }
}

export type SessionCheck = 'valid' | 'unknown' | 'unreachable';

/** Asks the server whether it knows this session (after the socket dropped: stopped, or restarted elsewhere?). */
export async function checkSession(fetchFn: FetchLike, base: string, session: string): Promise<SessionCheck> {
  try {
    const response = await fetchFn(`${base}${SESSION_CHECK_PATH}`, { method: 'POST', headers: { Authorization: `Bearer ${session}` }, cache: 'no-store' });
    if (response.status === 204) return 'valid';
    return response.status === 401 ? 'unknown' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

export type SessionStart = { readonly session: string } | { readonly session: null; readonly reason: 'no-session' | 'link-used' | 'link-expired' | 'link-unknown' | 'lost' };

/**
 * The page's session at start: a launch token in the fragment is traded (replacing any older
 * session of this tab); otherwise the tab's stored session is used, if it has one.
 */
export async function startSession(deps: { readonly location: LocationLike; readonly history: HistoryLike; readonly storage: StorageLike; readonly fetch: FetchLike; readonly base: string }): Promise<SessionStart> {
  const token = takeLaunchToken(deps.location, deps.history);
  const stored = deps.storage.getItem(SESSION_STORAGE_KEY);
  if (token === null) return stored ? { session: stored } : { session: null, reason: 'no-session' };
  const traded = await tradeLaunchToken(deps.fetch, deps.base, token);
  if (traded.ok) {
    deps.storage.setItem(SESSION_STORAGE_KEY, traded.session);
    return { session: traded.session };
  }
  // A used or dead link in a tab that already has a session (a reload of the first URL): keep it.
  if (stored) return { session: stored };
  switch (traded.code) {
    case 'LAUNCH_TOKEN_USED':
      return { session: null, reason: 'link-used' };
    case 'LAUNCH_TOKEN_EXPIRED':
      return { session: null, reason: 'link-expired' };
    case 'UNREACHABLE':
      return { session: null, reason: 'lost' };
    default:
      return { session: null, reason: 'link-unknown' };
  }
}
