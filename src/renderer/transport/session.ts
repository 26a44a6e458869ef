// The page's side of `relay ui`'s credentials (the server's side, and why, is in
// cli/ui-credentials.ts): the single-use launch token arrives in the URL fragment (never sent to
// a server), is taken out of the address bar at once, and is traded for
// - a session secret that lives in sessionStorage (this tab only; gone when the tab closes), is
//   sent with every call, and is good only as long as that `relay ui` process runs;
// - a resume key kept in this page's memory only, never sent: after the connection drops, the
//   page asks whatever answers at its address to prove it knows the key before it proves the
//   same, and trades the proof for a new session. Something else that took the port while
//   `relay ui` was down learns nothing it could use.
// Written against the few browser interfaces it uses, so Node tests can drive it against the
// real server.
import type { HttpRefusalCode } from '../../shared/transport-errors.js';
import { LAUNCH_FRAGMENT_KEY, LAUNCH_PROJECT_KEY, pageProofText, serverProofText, SESSION_CHECK_PATH, SESSION_HELLO_PATH, SESSION_PATH, SESSION_RESUME_PATH, type RefusalBody } from '../../shared/wire.js';

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

/** A resume key as the server hands it out (base64url). */
export interface ResumeKeyText {
  readonly id: string;
  readonly key: string;
}

/** What a trade or a resumption grants: the session secret, and the resume key for memory. */
export interface Grant {
  readonly session: string;
  readonly resume: ResumeKeyText | null;
}

export type TradeOutcome = ({ readonly ok: true } & Grant) | { readonly ok: false; readonly code: TradeFailureCode };

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

function readResumeKey(value: unknown): ResumeKeyText | null {
  const resume = value as { id?: unknown; key?: unknown } | null;
  return resume && typeof resume.id === 'string' && TOKEN.test(resume.id) && typeof resume.key === 'string' && TOKEN.test(resume.key) ? { id: resume.id, key: resume.key } : null;
}

/** POSTs JSON from this page's own origin, with no credentials; the status and the body (null when it is not JSON), or null when nothing answered. */
async function postJson(fetchFn: FetchLike, url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown } | null> {
  try {
    const response = await fetchFn(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body), cache: 'no-store' });
    return { status: response.status, body: await response.json().catch(() => null) };
  } catch {
    return null;
  }
}

function readGrant(answer: { status: number; body: unknown }): Grant | null {
  const body = answer.body as { session?: unknown; resume?: unknown } | null;
  if (answer.status !== 200 || !body || typeof body.session !== 'string' || !TOKEN.test(body.session)) return null;
  return { session: body.session, resume: readResumeKey(body.resume) };
}

function refusalCode(answer: { status: number; body: unknown }): TradeFailureCode {
  const body = answer.body as RefusalBody | null;
  return body && typeof body === 'object' && 'error' in body && typeof body.error?.code === 'string' ? body.error.code : `HTTP_${answer.status}`;
}

/** Trades a launch token for a session (POST from this page's own origin, no credentials). */
export async function tradeLaunchToken(fetchFn: FetchLike, base: string, token: string): Promise<TradeOutcome> {
  const answer = await postJson(fetchFn, `${base}${SESSION_PATH}`, { launchToken: token });
  if (answer === null) return { ok: false, code: 'UNREACHABLE' };
  const grant = readGrant(answer);
  return grant ? { ok: true, ...grant } : { ok: false, code: refusalCode(answer) };
}

export type SessionCheck = { readonly verdict: 'valid'; readonly resume: ResumeKeyText | null } | { readonly verdict: 'unknown' | 'unreachable' };

/** Asks the server whether this process knows the session; when it does, it hands out a resume key for this page's memory. */
export async function checkSession(fetchFn: FetchLike, base: string, session: string): Promise<SessionCheck> {
  const answer = await postJson(fetchFn, `${base}${SESSION_CHECK_PATH}`, {}, { Authorization: `Bearer ${session}` });
  if (answer === null || answer.status >= 500) return { verdict: 'unreachable' };
  if (answer.status === 200) return { verdict: 'valid', resume: readResumeKey((answer.body as { resume?: unknown } | null)?.resume) };
  return { verdict: 'unknown' };
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** A resume key held in memory: its id, and the key itself imported as a non-extractable HMAC key. */
interface HeldKey {
  readonly id: string;
  readonly key: unknown;
}

export type SessionStart = { readonly session: string } | { readonly session: null; readonly reason: 'no-session' | 'link-used' | 'link-expired' | 'link-unknown' | 'lost' | 'session-unknown' };

export type ProbeVerdict = 'valid' | 'unknown' | 'unreachable';

export interface PageSession {
  /** The session secret to present now, or null. */
  secret(): string | null;
  /**
   * The page's session at start: a launch token in the fragment is traded (replacing any older
   * session of this tab); otherwise the tab's stored session is checked, which also hands this
   * page (reloaded, so without a resume key) a new resume key.
   */
  start(): Promise<SessionStart>;
  /**
   * Before each reconnection: is our server there, and does it know this page? With a resume key
   * the server must prove itself first, and the page then resumes with a new session; nothing is
   * sent to an answer that fails its proof.
   */
  probe(): Promise<ProbeVerdict>;
}

export interface PageSessionDeps {
  readonly location: LocationLike;
  readonly history: HistoryLike;
  readonly storage: StorageLike;
  readonly fetch: FetchLike;
  readonly base: string;
  readonly crypto?: CryptoLike;
}

/** The page's credentials: the stored session, and the resume key in memory. */
export function createPageSession(deps: PageSessionDeps): PageSession {
  const crypto = deps.crypto ?? (globalThis.crypto as unknown as CryptoLike);
  let session: string | null = null;
  let held: HeldKey | null = null;

  const sign = async (key: unknown, text: string): Promise<string> => toBase64Url(new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(text))));

  const holdKey = async (resume: ResumeKeyText | null): Promise<void> => {
    if (resume === null) return;
    held = { id: resume.id, key: await crypto.subtle.importKey('raw', fromBase64Url(resume.key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']) };
  };

  const adopt = async (grant: Grant): Promise<void> => {
    session = grant.session;
    deps.storage.setItem(SESSION_STORAGE_KEY, grant.session);
    await holdKey(grant.resume);
  };

  /** Proves who we are to a server that proved it knows our key; a new session on success. */
  const resume = async (key: HeldKey): Promise<ProbeVerdict> => {
    const pageNonce = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    const hello = await postJson(deps.fetch, `${deps.base}${SESSION_HELLO_PATH}`, { resumeId: key.id, pageNonce });
    if (hello === null || hello.status >= 500) return 'unreachable';
    const answer = hello.body as { serverNonce?: unknown; proof?: unknown } | null;
    if (hello.status !== 200 || !answer || typeof answer.serverNonce !== 'string' || !TOKEN.test(answer.serverNonce) || typeof answer.proof !== 'string') return 'unknown';
    // Whatever answers here must know our key before it hears anything else from us.
    if (answer.proof !== (await sign(key.key, serverProofText(pageNonce, answer.serverNonce)))) return 'unknown';
    const proof = await sign(key.key, pageProofText(answer.serverNonce, pageNonce));
    const resumed = await postJson(deps.fetch, `${deps.base}${SESSION_RESUME_PATH}`, { serverNonce: answer.serverNonce, proof });
    if (resumed === null || resumed.status >= 500) return 'unreachable';
    const grant = readGrant(resumed);
    if (!grant) return 'unknown';
    await adopt(grant);
    return 'valid';
  };

  return {
    secret: () => session,
    async start() {
      const token = takeLaunchToken(deps.location, deps.history);
      const stored = deps.storage.getItem(SESSION_STORAGE_KEY);
      if (token !== null) {
        const traded = await tradeLaunchToken(deps.fetch, deps.base, token);
        if (traded.ok) {
          await adopt(traded);
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
      session = stored;
      const checked = await checkSession(deps.fetch, deps.base, stored);
      if (checked.verdict === 'unknown') return { session: null, reason: 'session-unknown' };
      // Unreachable: the transport keeps trying, and probes again before it connects.
      if (checked.verdict === 'valid') await holdKey(checked.resume);
      return { session: stored };
    },
    async probe() {
      if (held !== null) return resume(held);
      if (session === null) return 'unknown';
      // No resume key (this page was reloaded while nothing answered): the stored session is
      // worth something only to the `relay ui` process that made it, which holds the port.
      const checked = await checkSession(deps.fetch, deps.base, session);
      if (checked.verdict === 'valid') await holdKey(checked.resume);
      return checked.verdict;
    },
  };
}

/** The page's session at start, without reconnection (see PageSession.start). */
export async function startSession(deps: PageSessionDeps): Promise<SessionStart> {
  return createPageSession(deps).start();
}
