// The page's side of `relay ui`'s credentials (the server's side, and why, is in
// cli/ui-credentials.ts): the single-use launch token arrives in the URL fragment (never sent to
// a server), is taken out of the address bar at once, and is traded for a session secret that
// lives in sessionStorage (this tab only; gone when the tab closes), is sent with every
// connection, and is good only as long as that `relay ui` process runs. Whenever the page has not
// just received it (a reload, a lost connection), whatever answers at the page's address must
// first prove it knows the session (an HMAC over a fresh nonce) before the secret is sent to it:
// another program that took the port after `relay ui` stopped hears nothing and cannot pass for
// Relay Desk. Every fetch here gives up after FETCH_TIMEOUT_MS, so an answer that never ends
// cannot hold the page. Written against the few browser interfaces it uses, so Node tests can
// drive it against the real server.
import type { HttpRefusalCode } from '../../shared/transport-errors.js';
import { LAUNCH_FRAGMENT_KEY, LAUNCH_PROJECT_KEY, serverProofText, SESSION_HELLO_PATH, SESSION_ID_LABEL, SESSION_PATH, SESSION_PROOF_KEY_LABEL, type RefusalBody } from '../../shared/wire.js';

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

export type FetchLike = (url: string, init: { method: string; headers: Record<string, string>; body?: string; cache?: 'no-store'; signal?: AbortSignal }) => Promise<{ readonly status: number; json(): Promise<unknown> }>;

/** A session request (and reading its answer) that takes longer than this counts as no answer. */
export const FETCH_TIMEOUT_MS = 5000;

/** The slice of WebCrypto the proofs use (the page's `crypto`, or Node's). */
export interface CryptoLike {
  getRandomValues(array: Uint8Array): Uint8Array;
  readonly subtle: {
    importKey(format: 'raw', key: Uint8Array, algorithm: { name: 'HMAC'; hash: 'SHA-256' }, extractable: false, usages: ['sign']): Promise<unknown>;
    sign(algorithm: 'HMAC', key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
  };
}

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

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Settles with `promise`, or with `fallback` after `ms`. */
function within<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });
}

/**
 * POSTs JSON from this page's own origin, with no credentials: the status and the body (null when
 * it is not JSON), or null when nothing answered in FETCH_TIMEOUT_MS (headers and body included).
 */
function postJson(fetchFn: FetchLike, url: string, body: unknown, timeoutMs = FETCH_TIMEOUT_MS): Promise<{ status: number; body: unknown } | null> {
  const controller = new AbortController();
  const exchange = (async () => {
    const response = await fetchFn(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), cache: 'no-store', signal: controller.signal });
    return { status: response.status, body: await response.json().catch(() => null) };
  })();
  return within(exchange, timeoutMs, null).then((answer) => {
    if (answer === null) controller.abort();
    return answer;
  });
}

function refusalCode(answer: { status: number; body: unknown }): TradeFailureCode {
  const body = answer.body as RefusalBody | null;
  return body && typeof body === 'object' && 'error' in body && typeof body.error?.code === 'string' ? body.error.code : `HTTP_${answer.status}`;
}

/** Trades a launch token for a session secret (POST from this page's own origin, no credentials). */
export async function tradeLaunchToken(fetchFn: FetchLike, base: string, token: string): Promise<TradeOutcome> {
  const answer = await postJson(fetchFn, `${base}${SESSION_PATH}`, { launchToken: token });
  if (answer === null) return { ok: false, code: 'UNREACHABLE' };
  const session = (answer.body as { session?: unknown } | null)?.session;
  return answer.status === 200 && typeof session === 'string' && TOKEN.test(session) ? { ok: true, session } : { ok: false, code: refusalCode(answer) };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** HMAC-SHA256 of `text` under `key` (its UTF-8 bytes), base64url: what the server computes with node:crypto. */
async function hmac(crypto: CryptoLike, key: string, text: string): Promise<string> {
  const imported = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', imported, new TextEncoder().encode(text))));
}

export type ServerCheck = 'valid' | 'unknown' | 'unreachable';

/**
 * Asks whatever answers at `base` to prove it knows `session`, without sending it: 'valid' only
 * for a right proof; 'unknown' for a refusal or a wrong proof (not our server, or not our run);
 * 'unreachable' when nothing answered in time.
 */
export async function checkServer(fetchFn: FetchLike, base: string, session: string, crypto: CryptoLike = globalThis.crypto as unknown as CryptoLike): Promise<ServerCheck> {
  const pageNonce = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const sessionId = await hmac(crypto, session, SESSION_ID_LABEL);
  const answer = await postJson(fetchFn, `${base}${SESSION_HELLO_PATH}`, { sessionId, pageNonce });
  if (answer === null || answer.status >= 500) return 'unreachable';
  const proof = (answer.body as { proof?: unknown } | null)?.proof;
  if (answer.status !== 200 || typeof proof !== 'string') return 'unknown';
  const expected = await hmac(crypto, await hmac(crypto, session, SESSION_PROOF_KEY_LABEL), serverProofText(pageNonce));
  return proof === expected ? 'valid' : 'unknown';
}

export type SessionStart = { readonly session: string } | { readonly session: null; readonly reason: 'no-session' | 'link-used' | 'link-expired' | 'link-unknown' | 'lost' | 'session-unknown' };

export interface PageSession {
  /** The session secret to present now, or null. */
  secret(): string | null;
  /**
   * The page's session at start: a launch token in the fragment is traded (replacing any older
   * session of this tab); otherwise the tab's stored session is used once the server proved it
   * knows it.
   */
  start(): Promise<SessionStart>;
  /** Before each reconnection: does our server answer here, proving it knows this page? Nothing is sent to one that cannot. */
  probe(): Promise<ServerCheck>;
}

export interface PageSessionDeps {
  readonly location: LocationLike;
  readonly history: HistoryLike;
  readonly storage: StorageLike;
  readonly fetch: FetchLike;
  readonly base: string;
  readonly crypto?: CryptoLike;
}

/** The page's credential: the session secret in this tab's storage. */
export function createPageSession(deps: PageSessionDeps): PageSession {
  const crypto = deps.crypto ?? (globalThis.crypto as unknown as CryptoLike);
  let session: string | null = null;
  return {
    secret: () => session,
    async start() {
      const token = takeLaunchToken(deps.location, deps.history);
      const stored = deps.storage.getItem(SESSION_STORAGE_KEY);
      if (token !== null) {
        const traded = await tradeLaunchToken(deps.fetch, deps.base, token);
        if (traded.ok) {
          session = traded.session;
          deps.storage.setItem(SESSION_STORAGE_KEY, traded.session);
          return { session: traded.session };
        }
        // A used or dead link in a tab that already has a session (a reload of the first URL): keep it.
        if (!stored) {
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
      }
      if (!stored) return { session: null, reason: 'no-session' };
      const checked = await checkServer(deps.fetch, deps.base, stored, crypto);
      if (checked === 'unknown') return { session: null, reason: 'session-unknown' };
      if (checked === 'unreachable') return { session: null, reason: 'lost' };
      session = stored;
      return { session: stored };
    },
    probe: () => (session === null ? Promise.resolve('unknown' as const) : checkServer(deps.fetch, deps.base, session, crypto)),
  };
}

/** The page's session at start (see PageSession.start). */
export async function startSession(deps: PageSessionDeps): Promise<SessionStart> {
  return createPageSession(deps).start();
}
