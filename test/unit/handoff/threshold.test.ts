import { describe, expect, it } from 'vitest';
import { contextUsePct, INITIAL_NUDGE_STATE, stepThresholdNudge, usageFromClaudeWrapper, type NudgeState, type UsageObservation } from '../../../src/engine/handoff/threshold.js';

const WINDOW = 200_000;

function obs(sessionId: string, used: number, projectId = 'demo'): UsageObservation {
  // Spread the tokens over the four fields the wrapper reports.
  const quarter = Math.floor(used / 4);
  return { sessionId, projectId, contextWindow: WINDOW, usage: { input_tokens: quarter, cache_read_input_tokens: quarter, cache_creation_input_tokens: quarter, output_tokens: used - 3 * quarter } };
}

function run(observations: readonly UsageObservation[], start: NudgeState = INITIAL_NUDGE_STATE): { state: NudgeState; payloads: unknown[] } {
  let state = start;
  const payloads: unknown[] = [];
  for (const o of observations) {
    const step = stepThresholdNudge(state, o);
    state = step.state;
    if (step.payload) payloads.push(step.payload);
  }
  return { state, payloads };
}

describe('thresholdNudge', () => {
  it('computes context use from the four usage fields over the window', () => {
    expect(contextUsePct({ input_tokens: 100_000, cache_read_input_tokens: 60_000, cache_creation_input_tokens: 10_000, output_tokens: 11_000 }, WINDOW)).toBe(90.5);
    expect(contextUsePct({}, WINDOW)).toBe(0);
    expect(contextUsePct({ input_tokens: 5 }, 0)).toBeNull();
  });

  it('raises exactly one handoff-prompt when a session crosses 90% upward', () => {
    const { payloads } = run([obs('sess-x', 100_000), obs('sess-x', 170_000), obs('sess-x', 181_000), obs('sess-x', 190_000)]);
    expect(payloads).toEqual([{ kind: 'handoff-prompt', sessionId: 'sess-x', thresholdPct: 90, pct: 90.5, projectId: 'demo' }]);
    expect(typeof (payloads[0] as { thresholdPct: unknown }).thresholdPct).toBe('number');
  });

  it('does not raise again for the same session and threshold, even after dipping below and crossing again', () => {
    const { payloads } = run([obs('sess-x', 185_000), obs('sess-x', 20_000), obs('sess-x', 185_000)]);
    expect(payloads).toHaveLength(1);
  });

  it('raises independently for two sessions (no cross-session dedup)', () => {
    const { payloads } = run([obs('sess-A', 185_000, 'p1'), obs('sess-B', 150_000, 'p1'), obs('sess-B', 195_000, 'p1'), obs('sess-A', 199_000, 'p1')]);
    expect(payloads.map((p) => (p as { sessionId: string }).sessionId)).toEqual(['sess-A', 'sess-B']);
  });

  it('stays quiet below the threshold and without a known window', () => {
    expect(run([obs('s', 10_000), obs('s', 179_999)]).payloads).toEqual([]);
    expect(stepThresholdNudge(INITIAL_NUDGE_STATE, { ...obs('s', 190_000), contextWindow: Number.NaN }).payload).toBeNull();
  });

  it('keeps its state as plain data the runtime can store and resume from', () => {
    const first = run([obs('sess-x', 185_000)]);
    const restored = JSON.parse(JSON.stringify(first.state)) as NudgeState;
    expect(run([obs('sess-x', 190_000)], restored).payloads).toEqual([]);
  });

  it('reads usage and the context window from a Claude JSON wrapper', () => {
    const wrapper = { type: 'result', is_error: false, usage: { input_tokens: 10, cache_read_input_tokens: 20, cache_creation_input_tokens: 30, output_tokens: 40 }, modelUsage: { 'claude-haiku': { contextWindow: 100_000 }, 'claude-sonnet': { contextWindow: 200_000 } } };
    expect(usageFromClaudeWrapper(wrapper)).toEqual({ usage: { input_tokens: 10, cache_read_input_tokens: 20, cache_creation_input_tokens: 30, output_tokens: 40 }, contextWindow: 200_000 });
    expect(usageFromClaudeWrapper({ usage: { input_tokens: 'x' } })).toEqual({ usage: { input_tokens: undefined, cache_read_input_tokens: undefined, cache_creation_input_tokens: undefined, output_tokens: undefined }, contextWindow: null });
    expect(usageFromClaudeWrapper(null)).toBeNull();
    expect(usageFromClaudeWrapper({ result: 'no usage' })).toBeNull();
  });
});
