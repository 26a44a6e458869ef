// The two credentials of `relay ui`, and nothing else (never a cookie: browsers send loopback
// cookies to every port, so any local web server the browser visits would receive it).
//
// - A launch token: minted per link, carried in the URL's fragment (never sent to a server, never
//   in a Referer), good once and for LAUNCH_TOKEN_TTL_MS. The page trades it for a session.
// - A session secret: lives in the page's sessionStorage and travels with every call (the
//   WebSocket's subprotocol list, an Authorization header). Only its SHA-256 is kept — in memory
//   and, when a file is given, in the data folder (0600) so that a restarted `relay ui` still
//   knows the pages it let in. A session expires SESSION_TTL_MS after it was last connected.
import { createHash, randomBytes } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../engine/fs/atomic.js';
import { fail, ok, type Result } from '../engine/result.js';

/** The sessions file in the data folder. */
export const UI_SESSIONS_FILE = 'ui-sessions.json';

/** An unused launch link stops working after this long. */
export const LAUNCH_TOKEN_TTL_MS = 2 * 60 * 1000;
/** A session not connected for this long is forgotten. */
export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;
/** Sessions remembered at most (the oldest are dropped): a page per tab, a few restarts. */
const MAX_SESSIONS = 200;
/** Used and expired launch tokens are remembered this long, to say "used" or "expired" instead of "unknown". */
const SPENT_TOKEN_MEMORY_MS = 60 * 60 * 1000;

export type TradeRefusal = 'LAUNCH_TOKEN_UNKNOWN' | 'LAUNCH_TOKEN_USED' | 'LAUNCH_TOKEN_EXPIRED';

const TRADE_MESSAGES: Readonly<Record<TradeRefusal, string>> = {
  LAUNCH_TOKEN_UNKNOWN: 'This link is not one this `relay ui` made. Open the link it printed in its terminal (press Enter there for a new one).',
  LAUNCH_TOKEN_USED: 'This link was already used: each link opens one page, once. Press Enter in the terminal running `relay ui` for a new link.',
  LAUNCH_TOKEN_EXPIRED: `This link has expired (links work for ${LAUNCH_TOKEN_TTL_MS / 60_000} minutes). Press Enter in the terminal running \`relay ui\` for a new link.`,
};

/** A fresh secret: 32 random bytes, base64url (43 characters, all valid in an HTTP token). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The only form in which a secret is kept. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** What the sessions file holds (and is validated against when read back: it is input). */
const SessionsFileSchema = z.object({
  version: z.literal(1),
  port: z.number().int().min(1).max(65_535).nullable(),
  sessions: z
    .array(z.object({ hash: z.string().regex(/^[0-9a-f]{64}$/), expiresAt: z.number().int().positive() }))
    .max(MAX_SESSIONS * 2),
});

interface LaunchEntry {
  readonly expiresAt: number;
  used: boolean;
  readonly onTraded: Array<() => void>;
}

export interface Credentials {
  /** Mints a launch token; `onTraded` runs once when a page trades it. */
  mintLaunchToken(onTraded?: () => void): { readonly token: string; readonly expiresAt: number };
  /** Trades a launch token for a new session secret, once. */
  trade(token: string): Result<{ readonly secret: string; readonly expiresAt: number }, TradeRefusal>;
  /** True when the secret belongs to a live session. */
  verify(secret: string | null): boolean;
  /** Extends a session's life from now (a page connected or left); persisted. */
  touch(secret: string): void;
  /** The port the last server of this data folder listened on (a restart tries it first). */
  readonly lastPort: number | null;
  /** Records the port this server listens on; persisted. */
  /** Remembers the port listened on; a different one than before forgets every session (they were bound to the old address). */
  rememberPort(port: number): void;
}

export interface CredentialsOptions {
  /** Where session hashes persist (the data folder's ui-sessions.json); none keeps them in memory only. */
  readonly file?: string;
  readonly now?: () => number;
  readonly launchTtlMs?: number;
  readonly sessionTtlMs?: number;
}

/** Reads the sessions file; anything invalid or unreadable counts as "no sessions". */
function readSessionsFile(file: string, now: number): { port: number | null; sessions: Map<string, number> } {
  const empty = { port: null, sessions: new Map<string, number>() };
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.size > 1024 * 1024) return empty;
    const parsed = SessionsFileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) return empty;
    return { port: parsed.data.port, sessions: new Map(parsed.data.sessions.filter((s) => s.expiresAt > now).map((s) => [s.hash, s.expiresAt])) };
  } catch {
    return empty;
  }
}

/** Creates the credential book of one `relay ui` server. */
export function createCredentials(options: CredentialsOptions = {}): Credentials {
  const now = options.now ?? Date.now;
  const launchTtl = options.launchTtlMs ?? LAUNCH_TOKEN_TTL_MS;
  const sessionTtl = options.sessionTtlMs ?? SESSION_TTL_MS;
  const launches = new Map<string, LaunchEntry>();
  const loaded = options.file ? readSessionsFile(options.file, now()) : { port: null, sessions: new Map<string, number>() };
  const sessions = loaded.sessions;
  let port = loaded.port;

  const save = (): void => {
    if (!options.file) return;
    const live = [...sessions].filter(([, expiresAt]) => expiresAt > now()).sort((a, b) => b[1] - a[1]).slice(0, MAX_SESSIONS);
    writeFileAtomic(options.file, `${JSON.stringify({ version: 1, port, sessions: live.map(([hash, expiresAt]) => ({ hash, expiresAt })) })}\n`, { mode: 0o600 });
  };

  const forgetSpent = (): void => {
    for (const [hash, entry] of launches) if (entry.expiresAt + SPENT_TOKEN_MEMORY_MS < now()) launches.delete(hash);
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
      const secret = newSecret();
      const expiresAt = now() + sessionTtl;
      sessions.set(hashSecret(secret), expiresAt);
      save();
      for (const callback of entry.onTraded.splice(0)) callback();
      return ok({ secret, expiresAt });
    },
    verify(secret) {
      if (!secret) return false;
      const expiresAt = sessions.get(hashSecret(secret));
      return expiresAt !== undefined && expiresAt > now();
    },
    touch(secret) {
      const hash = hashSecret(secret);
      // An expired session stays expired: touching only extends a live one.
      if (!((sessions.get(hash) ?? 0) > now())) return;
      sessions.set(hash, now() + sessionTtl);
      save();
    },
    get lastPort() {
      return port;
    },
    rememberPort(next) {
      // Sessions are bound to their address: a page still open on the old port cannot be told
      // from whatever listens there now, and it would hand its secret to it. Moving forgets them.
      if (port !== null && next !== port) sessions.clear();
      port = next;
      save();
    },
  };
}
