// The credentials of `relay ui`, and nothing else (never a cookie: browsers send loopback
// cookies to every port, so any local web server the browser visits would receive it).
//
// - A launch token: minted per link, carried in the URL's fragment (never sent to a server, never
//   in a Referer), good once and for LAUNCH_TOKEN_TTL_MS. The page trades it for a session.
// - A session secret: lives in the page's sessionStorage and travels with every call (the
//   WebSocket's subprotocol list, an Authorization header). It is known to this server process
//   only (its SHA-256, in memory): the process holds the port for as long as it lives, so the
//   only program that can ever hear a live secret is the server itself. One heard by a program
//   that took the port after `relay ui` stopped is already dead.
// - A resume key: how a page proves who it is to a restarted `relay ui`. The page keeps it in
//   memory only (never in storage, where a page loaded from a squatter on the same port could
//   read it) and never sends it: the server first proves it knows the key (an HMAC over the
//   page's fresh nonce), then the page proves it (an HMAC over the server's nonce), and gets a
//   new session and a new key; each key resumes once. Keys persist in the data folder (0600) so
//   that a restart can check them, for SESSION_TTL_MS after the page was last connected.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../engine/fs/atomic.js';
import { fail, ok, type Result } from '../engine/result.js';
import { pageProofText, serverProofText } from '../shared/wire.js';

/** The credentials file in the data folder. */
export const UI_SESSIONS_FILE = 'ui-sessions.json';

/** An unused launch link stops working after this long. */
export const LAUNCH_TOKEN_TTL_MS = 2 * 60 * 1000;
/** A session (and its resume key) not connected for this long is forgotten. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** A server's answer to a page's hello must be followed by the page's proof within this time. */
const CHALLENGE_TTL_MS = 30 * 1000;
/** Sessions and resume keys remembered at most (the oldest are dropped): a page per tab, a few restarts. */
const MAX_SESSIONS = 200;
/** Open challenges at most: a page has one at a time, so anything beyond is someone knocking. */
const MAX_CHALLENGES = 100;
/** Used and expired launch tokens are remembered this long, to say "used" or "expired" instead of "unknown". */
const SPENT_TOKEN_MEMORY_MS = 60 * 60 * 1000;

export type TradeRefusal = 'LAUNCH_TOKEN_UNKNOWN' | 'LAUNCH_TOKEN_USED' | 'LAUNCH_TOKEN_EXPIRED';
export type ResumeRefusal = 'RESUME_UNKNOWN' | 'RESUME_REFUSED';

const TRADE_MESSAGES: Readonly<Record<TradeRefusal, string>> = {
  LAUNCH_TOKEN_UNKNOWN: 'This link is not one this `relay ui` made. Open the link it printed in its terminal (press Enter there for a new one).',
  LAUNCH_TOKEN_USED: 'This link was already used: each link opens one page, once. Press Enter in the terminal running `relay ui` for a new link.',
  LAUNCH_TOKEN_EXPIRED: `This link has expired (links work for ${LAUNCH_TOKEN_TTL_MS / 60_000} minutes). Press Enter in the terminal running \`relay ui\` for a new link.`,
};

const RESUME_MESSAGES: Readonly<Record<ResumeRefusal, string>> = {
  RESUME_UNKNOWN: 'This `relay ui` does not know this page (it was started with another data folder, or the page was away too long): open the link it printed.',
  RESUME_REFUSED: 'This page could not prove who it is: open the link `relay ui` printed.',
};

/** A fresh secret: 32 random bytes, base64url (43 characters, all valid in an HTTP token). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The only form in which a session secret is kept. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** HMAC-SHA256 of `text` under a base64url key, base64url: what the page computes with WebCrypto. */
export function proofOf(key: string, text: string): string {
  return createHmac('sha256', Buffer.from(key, 'base64url')).update(text, 'utf8').digest('base64url');
}

const Secret = z.string().regex(/^[A-Za-z0-9_-]{43}$/);

/** What the credentials file holds (and is validated against when read back: it is input). */
const CredentialsFileSchema = z.object({
  version: z.literal(2),
  port: z.number().int().min(1).max(65_535).nullable(),
  resumeKeys: z
    .array(z.object({ id: Secret, key: Secret, session: z.string().regex(/^[0-9a-f]{64}$/), expiresAt: z.number().int().positive() }))
    .max(MAX_SESSIONS * 2),
});
/** The file of earlier versions: only its port is still used (its sessions were bound to their process). */
const EarlierFileSchema = z.object({ version: z.literal(1), port: z.number().int().min(1).max(65_535).nullable() });

/** A resume key a page holds: `id` names it (it may be heard by anyone), `key` never leaves the page. */
export interface ResumeKey {
  readonly id: string;
  readonly key: string;
}

/** A session handed to a page. */
export interface Granted {
  readonly secret: string;
  readonly expiresAt: number;
  readonly resume: ResumeKey;
}

interface LaunchEntry {
  readonly expiresAt: number;
  used: boolean;
  readonly onTraded: Array<() => void>;
}

interface StoredKey {
  readonly key: string;
  /** The hash of the session it was issued with: connecting with that session keeps the key alive. */
  readonly session: string;
  expiresAt: number;
}

interface Challenge {
  readonly id: string;
  readonly pageNonce: string;
  readonly expiresAt: number;
}

export interface Credentials {
  /** Mints a launch token; `onTraded` runs once when a page trades it. */
  mintLaunchToken(onTraded?: () => void): { readonly token: string; readonly expiresAt: number };
  /** Trades a launch token for a new session and resume key, once. */
  trade(token: string): Result<Granted, TradeRefusal>;
  /** True when the secret belongs to a live session of this process. */
  verify(secret: string | null): boolean;
  /** A new resume key for the page holding this live session (a reloaded page lost its own), or null. */
  issueResumeKey(secret: string): ResumeKey | null;
  /** Step 1 of a resumption: proves this server knows the key `id` names, over the page's nonce. */
  hello(id: string, pageNonce: string): Result<{ readonly serverNonce: string; readonly proof: string }, ResumeRefusal>;
  /** Step 2: the page's proof over the server's nonce; a new session and key for it, the old key spent. */
  resume(serverNonce: string, proof: string): Result<Granted, ResumeRefusal>;
  /** Extends a session's life (and its resume keys') from now (a page connected or left). */
  touch(secret: string): void;
  /** The port the last server of this data folder listened on (a restart tries it first). */
  readonly lastPort: number | null;
  /** Remembers the port listened on; a different one than before forgets every resume key (they were bound to the old address). */
  rememberPort(port: number): void;
}

export interface CredentialsOptions {
  /** Where resume keys and the port persist (the data folder's ui-sessions.json); none keeps them in memory only. */
  readonly file?: string;
  readonly now?: () => number;
  readonly launchTtlMs?: number;
  readonly sessionTtlMs?: number;
}

/** Reads the credentials file; anything invalid or unreadable counts as "nothing remembered". */
function readCredentialsFile(file: string, now: number): { port: number | null; keys: Map<string, StoredKey> } {
  const empty = { port: null, keys: new Map<string, StoredKey>() };
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size > 1024 * 1024) return empty;
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const earlier = EarlierFileSchema.safeParse(value);
    if (earlier.success) return { port: earlier.data.port, keys: new Map() };
    const parsed = CredentialsFileSchema.safeParse(value);
    if (!parsed.success) return empty;
    const live = parsed.data.resumeKeys.filter((k) => k.expiresAt > now);
    return { port: parsed.data.port, keys: new Map(live.map((k) => [k.id, { key: k.key, session: k.session, expiresAt: k.expiresAt }])) };
  } catch {
    return empty;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Creates the credential book of one `relay ui` server. */
export function createCredentials(options: CredentialsOptions = {}): Credentials {
  const now = options.now ?? Date.now;
  const launchTtl = options.launchTtlMs ?? LAUNCH_TOKEN_TTL_MS;
  const sessionTtl = options.sessionTtlMs ?? SESSION_TTL_MS;
  const launches = new Map<string, LaunchEntry>();
  /** Session hash → expiry; this process only. */
  const sessions = new Map<string, number>();
  const challenges = new Map<string, Challenge>();
  const loaded = options.file ? readCredentialsFile(options.file, now()) : { port: null, keys: new Map<string, StoredKey>() };
  const keys = loaded.keys;
  let port = loaded.port;

  const save = (): void => {
    if (!options.file) return;
    const live = [...keys].filter(([, k]) => k.expiresAt > now()).sort((a, b) => b[1].expiresAt - a[1].expiresAt).slice(0, MAX_SESSIONS);
    const resumeKeys = live.map(([id, k]) => ({ id, key: k.key, session: k.session, expiresAt: k.expiresAt }));
    writeFileAtomic(options.file, `${JSON.stringify({ version: 2, port, resumeKeys })}\n`, { mode: 0o600 });
  };

  const forgetSpent = (): void => {
    for (const [hash, entry] of launches) if (entry.expiresAt + SPENT_TOKEN_MEMORY_MS < now()) launches.delete(hash);
    for (const [nonce, challenge] of challenges) if (challenge.expiresAt <= now()) challenges.delete(nonce);
    for (const [hash, expiresAt] of sessions) if (expiresAt <= now()) sessions.delete(hash);
  };

  const newKey = (sessionHash: string): ResumeKey => {
    const resume = { id: newSecret(), key: newSecret() };
    keys.set(resume.id, { key: resume.key, session: sessionHash, expiresAt: now() + sessionTtl });
    return resume;
  };

  /** A new session with its first resume key; persisted. */
  const grant = (): Granted => {
    forgetSpent();
    const secret = newSecret();
    const hash = hashSecret(secret);
    const expiresAt = now() + sessionTtl;
    sessions.set(hash, expiresAt);
    if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
    const resume = newKey(hash);
    save();
    return { secret, expiresAt, resume };
  };

  const liveKey = (id: string): StoredKey | null => {
    const stored = keys.get(id);
    return stored && stored.expiresAt > now() ? stored : null;
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
      const granted = grant();
      for (const callback of entry.onTraded.splice(0)) callback();
      return ok(granted);
    },
    verify(secret) {
      if (!secret) return false;
      const expiresAt = sessions.get(hashSecret(secret));
      return expiresAt !== undefined && expiresAt > now();
    },
    issueResumeKey(secret) {
      if (!this.verify(secret)) return null;
      const resume = newKey(hashSecret(secret));
      save();
      return resume;
    },
    hello(id, pageNonce) {
      forgetSpent();
      const stored = liveKey(id);
      if (!stored) return fail('RESUME_UNKNOWN', RESUME_MESSAGES.RESUME_UNKNOWN);
      // The oldest open challenge gives way: a page has one at a time, so a crowd is someone knocking.
      if (challenges.size >= MAX_CHALLENGES) challenges.delete(challenges.keys().next().value!);
      const serverNonce = newSecret();
      challenges.set(serverNonce, { id, pageNonce, expiresAt: now() + CHALLENGE_TTL_MS });
      return ok({ serverNonce, proof: proofOf(stored.key, serverProofText(pageNonce, serverNonce)) });
    },
    resume(serverNonce, proof) {
      const challenge = challenges.get(serverNonce);
      // A challenge is answered once, right or wrong.
      challenges.delete(serverNonce);
      if (!challenge || challenge.expiresAt <= now()) return fail('RESUME_UNKNOWN', RESUME_MESSAGES.RESUME_UNKNOWN);
      const stored = liveKey(challenge.id);
      if (!stored) return fail('RESUME_UNKNOWN', RESUME_MESSAGES.RESUME_UNKNOWN);
      if (!sameText(proof, proofOf(stored.key, pageProofText(serverNonce, challenge.pageNonce)))) return fail('RESUME_REFUSED', RESUME_MESSAGES.RESUME_REFUSED);
      // Spent: a key resumes once (the page gets the next one with its new session).
      keys.delete(challenge.id);
      return ok(grant());
    },
    touch(secret) {
      const hash = hashSecret(secret);
      // An expired session stays expired: touching only extends a live one.
      if (!((sessions.get(hash) ?? 0) > now())) return;
      const until = now() + sessionTtl;
      sessions.set(hash, until);
      for (const stored of keys.values()) if (stored.session === hash) stored.expiresAt = until;
      save();
    },
    get lastPort() {
      return port;
    },
    rememberPort(next) {
      // Keys are bound to their address: a page still open on the old port cannot be told from
      // whatever listens there now. Moving forgets them (those pages must open a new link).
      if (port !== null && next !== port) keys.clear();
      port = next;
      save();
    },
  };
}
