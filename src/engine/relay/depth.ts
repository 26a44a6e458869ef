import { ok } from '../result.js';
import { relayFail, type RelayOutcome } from './errors.js';

/** The environment variable that counts how deep inside relays a process runs. */
export const DEPTH_ENV = 'PHONE_A_FRIEND_DEPTH';
/** A relay may start from depth 0 only: a backend started by a relay may not relay again. */
export const MAX_RELAY_DEPTH = 1;

/** An environment as plain name → value pairs. */
export type Env = Readonly<Record<string, string | undefined>>;

/**
 * The current relay depth from PHONE_A_FRIEND_DEPTH. Only digits count ("1abc", "-1", " 1"
 * are treated as unset, i.e. 0), so garbage cannot lift the guard by parsing as a number.
 */
export function parseDepth(raw: string | undefined): number {
  if (raw === undefined || !/^\d+$/.test(raw)) return 0;
  return Number(raw);
}

/** Refuses a nested relay (DEPTH_LIMIT), else gives the depth the backend must see (current + 1). */
export function nextRelayDepth(env: Env): RelayOutcome<number> {
  const depth = parseDepth(env[DEPTH_ENV]);
  if (depth >= MAX_RELAY_DEPTH) return relayFail('DEPTH_LIMIT', 'Relay depth limit reached; refusing nested relay invocation');
  return ok(depth + 1);
}
