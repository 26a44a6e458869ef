// The 90% nudge, as a pure state machine the runtime drives: feed it each token-usage report of a
// recorded agent session; it returns an approval payload the first time that session's context
// use crosses the threshold upward, and never again for the same (session, threshold). Raising the
// approval and the notification is the runtime's job; declining it changes nothing here.
import type { ClaudeUsage } from '../claude-usage.js';

export { usageFromClaudeWrapper, type ClaudeUsage } from '../claude-usage.js';

/** What the runtime puts in an approval of kind `handoff-prompt`. */
export interface HandoffPromptPayload {
  readonly kind: 'handoff-prompt';
  readonly sessionId: string;
  readonly thresholdPct: number;
  /** Context use when the threshold was crossed, in percent (one decimal). */
  readonly pct: number;
  readonly projectId: string;
}

/** One usage report of one session. */
export interface UsageObservation {
  readonly sessionId: string;
  readonly projectId: string;
  readonly usage: ClaudeUsage;
  /** The model's context window in tokens. */
  readonly contextWindow: number;
}

/** What the machine remembers: each session's last percentage and the (session, threshold) pairs already raised. */
export interface NudgeState {
  readonly lastPct: Readonly<Record<string, number>>;
  readonly raised: readonly string[];
}

/** The threshold of the nudge (D-01). */
export const HANDOFF_THRESHOLD_PCT = 90;

/** A machine that has seen nothing. */
export const INITIAL_NUDGE_STATE: NudgeState = { lastPct: {}, raised: [] };

function tokens(n: number | undefined): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0;
}

function exactPct(usage: ClaudeUsage, contextWindow: number): number | null {
  if (!Number.isFinite(contextWindow) || contextWindow <= 0) return null;
  const used = tokens(usage.input_tokens) + tokens(usage.cache_read_input_tokens) + tokens(usage.cache_creation_input_tokens) + tokens(usage.output_tokens);
  return (used / contextWindow) * 100;
}

/**
 * Context use in percent (one decimal, for display): prompt tokens (fresh, cache-read and
 * cache-written) plus the output that joins the context on the next turn, over the window.
 * Null when the window is unknown.
 */
export function contextUsePct(usage: ClaudeUsage, contextWindow: number): number | null {
  const pct = exactPct(usage, contextWindow);
  return pct === null ? null : Math.round(pct * 10) / 10;
}

/** Advances the machine by one observation; returns the new state and the payload to raise, if any. */
export function stepThresholdNudge(
  state: NudgeState,
  observation: UsageObservation,
  thresholdPct: number = HANDOFF_THRESHOLD_PCT,
): { readonly state: NudgeState; readonly payload: HandoffPromptPayload | null } {
  // Compare unrounded: 89.996% must not count as 90%.
  const pct = exactPct(observation.usage, observation.contextWindow);
  if (pct === null) return { state, payload: null };
  const key = `${observation.sessionId}\0${thresholdPct}`;
  const previous = state.lastPct[observation.sessionId];
  const lastPct = { ...state.lastPct, [observation.sessionId]: pct };
  // A session first seen above the threshold has crossed it as far as we can tell.
  const crossed = pct >= thresholdPct && (previous === undefined || previous < thresholdPct);
  if (!crossed || state.raised.includes(key)) return { state: { lastPct, raised: state.raised }, payload: null };
  return {
    state: { lastPct, raised: [...state.raised, key] },
    payload: { kind: 'handoff-prompt', sessionId: observation.sessionId, thresholdPct, pct: Math.round(pct * 10) / 10, projectId: observation.projectId },
  };
}

