// The credentials of `relay ui`, and nothing else (never a cookie: browsers send loopback
// cookies to every port, so any local web server the browser visits would receive it).
//
// - A launch token: minted per link, carried in the URL's fragment (never sent to a server, never
//   in a Referer), good once and for LAUNCH_TOKEN_TTL_MS. The page trades it for a session.
// - A session secret: lives in the page's sessionStorage and travels with every call (the
//   WebSocket's subprotocol list). It is known to this server process only, in memory: the
//   process holds its port for as long as it lives, so no other program can ever hear a live
//   secret, and one heard after `relay ui` stopped is already dead.
//
// Nothing is kept across restarts, on purpose: each `relay ui` run serves a new address (an
// unguessable loopback address: see ui-server.ts), because an address another program could
// know can get page loads of that origin from it — enough to leave a service worker or a
// poisoned cache entry that would sit between the user and the next server there.
//
// Before a page that lost its connection sends its secret again, the server proves it knows the
// session (an HMAC over the page's fresh nonce, under a key both derive from the secret), so
// something else that took the port meanwhile never hears it and cannot pass for Relay Desk.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { fail, ok, type Result } from '../engine/result.js';
import { SESSION_ID_LABEL, SESSION_PROOF_KEY_LABEL, serverProofText } from '../shared/wire.js';

/** An unused launch link stops working after this long. */
export const LAUNCH_TOKEN_TTL_MS = 2 * 60 * 1000;
/** A session not connected for this long is forgotten. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Sessions remembered at most (the oldest are dropped): a page per tab. */
const MAX_SESSIONS = 200;
/** Used and expired launch tokens are remembered this long, to say "used" or "expired" instead of "unknown". */
const SPENT_TOKEN_MEMORY_MS = 60 * 60 * 1000;

export type TradeRefusal = 'LAUNCH_TOKEN_UNKNOWN' | 'LAUNCH_TOKEN_USED' | 'LAUNCH_TOKEN_EXPIRED';

const TRADE_MESSAGES: Readonly<Record<TradeRefusal, string>> = {
  LAUNCH_TOKEN_UNKNOWN: 'This link is not one this `relay ui` made. Open the link it printed in its terminal (press Enter there for a new one).',
  LAUNCH_TOKEN_USED: 'This link was already used: each link opens one page, once. Press Enter in the terminal running `relay ui` for a new link.',
  LAUNCH_TOKEN_EXPIRED: `This link has expired (links work for ${LAUNCH_TOKEN_TTL_MS / 60_000} minutes). Press Enter in the terminal running \`relay ui\` for a new link.`,
};

const SESSION_UNKNOWN_MESSAGE = 'This `relay ui` does not know this page (it is another run, or the page was away too long): open the link it printed.';

/** A fresh secret: 32 random bytes, base64url (43 characters, all valid in an HTTP token). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The only form in which a session secret or launch token is kept. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** HMAC-SHA256 of `text` under `key` (a UTF-8 string), base64url: what the page computes with WebCrypto. */
export function hmac(key: string, text: string): string {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(text, 'utf8').digest('base64url');
}

/** The public name of a session: the page sends it to ask for the server's proof (it reveals nothing of the secret). */
export function sessionIdOf(secret: string): string {
  return hmac(secret, SESSION_ID_LABEL);
}

/** The server's proof over a page's nonce that it knows the session named `sessionId`. */
export function serverProof(secret: string, pageNonce: string): string {
  return hmac(hmac(secret, SESSION_PROOF_KEY_LABEL), serverProofText(pageNonce));
}

interface LaunchEntry {
  readonly expiresAt: number;
  used: boolean;
  readonly onTraded: Array<() => void>;
}

interface Session {
  /** The key of the server's proofs, derived from the secret (which is not kept). */
  readonly proofKey: string;
  readonly id: string;
  expiresAt: number;
}

export interface Credentials {
  /** Mints a launch token; `onTraded` runs once when a page trades it. */
  mintLaunchToken(onTraded?: () => void): { readonly token: string; readonly expiresAt: number };
  /** Trades a launch token for a new session secret, once. */
  trade(token: string): Result<{ readonly secret: string; readonly expiresAt: number }, TradeRefusal>;
  /** True when the secret belongs to a live session of this process. */
  verify(secret: string | null): boolean;
  /** The server's proof that it knows the session named `sessionId`, over the page's nonce. */
  prove(sessionId: string, pageNonce: string): Result<string, 'SESSION_UNKNOWN'>;
  /** Extends a session's life from now (a page connected or left). */
  touch(secret: string): void;
}

export interface CredentialsOptions {
  readonly now?: () => number;
  readonly launchTtlMs?: number;
  readonly sessionTtlMs?: number;
}

/** Creates the credential book of one `relay ui` server (in memory: it dies with the process). */
export function createCredentials(options: CredentialsOptions = {}): Credentials {
  const now = options.now ?? Date.now;
  const launchTtl = options.launchTtlMs ?? LAUNCH_TOKEN_TTL_MS;
  const sessionTtl = options.sessionTtlMs ?? SESSION_TTL_MS;
  const launches = new Map<string, LaunchEntry>();
  /** Session hash → session; and session id → hash. */
  const sessions = new Map<string, Session>();
  const byId = new Map<string, string>();

  const forget = (hash: string): void => {
    const session = sessions.get(hash);
    if (session) byId.delete(session.id);
    sessions.delete(hash);
  };

  const forgetSpent = (): void => {
    for (const [hash, entry] of launches) if (entry.expiresAt + SPENT_TOKEN_MEMORY_MS < now()) launches.delete(hash);
    for (const [hash, session] of sessions) if (session.expiresAt <= now()) forget(hash);
  };

  const live = (hash: string): Session | null => {
    const session = sessions.get(hash);
    return session && session.expiresAt > now() ? session : null;
  };

  return {
    mintLaunchToken(onTraded) {
      forgetSpent();
      const token = newSecret();
      const expiresAt = now() + launchTtl;
      launches.set(hashSecret(token), { expiresAt, used: false, onTraded: onTraded ? [onTraded] : [] });
      return { token, expiresAt };
    },
    trade(token) {
      const entry = launches.get(hashSecret(token));
      const refuse = (code: TradeRefusal) => fail(code, TRADE_MESSAGES[code]);
      if (!entry) return refuse('LAUNCH_TOKEN_UNKNOWN');
      if (entry.used) return refuse('LAUNCH_TOKEN_USED');
      if (entry.expiresAt <= now()) return refuse('LAUNCH_TOKEN_EXPIRED');
      // Dead from here on, before anything else can happen: single use.
      entry.used = true;
      forgetSpent();
      const secret = newSecret();
      const hash = hashSecret(secret);
      const expiresAt = now() + sessionTtl;
      const id = sessionIdOf(secret);
      sessions.set(hash, { proofKey: hmac(secret, SESSION_PROOF_KEY_LABEL), id, expiresAt });
      byId.set(id, hash);
      if (sessions.size > MAX_SESSIONS) forget(sessions.keys().next().value!);
      for (const callback of entry.onTraded.splice(0)) callback();
      return ok({ secret, expiresAt });
    },
    verify(secret) {
      return secret ? live(hashSecret(secret)) !== null : false;
    },
    prove(sessionId, pageNonce) {
      const hash = byId.get(sessionId);
      const session = hash === undefined ? null : live(hash);
      if (!session) return fail('SESSION_UNKNOWN', SESSION_UNKNOWN_MESSAGE);
      return ok(hmac(session.proofKey, serverProofText(pageNonce)));
    },
    touch(secret) {
      // An expired session stays expired: touching only extends a live one.
      const session = live(hashSecret(secret));
      if (session) session.expiresAt = now() + sessionTtl;
    },
  };
}
