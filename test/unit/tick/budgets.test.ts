import { describe, expect, it } from 'vitest';
import { budgetsSummary, budgetWarnings, reservationShortfalls, worstCaseTick } from '../../../src/engine/tick/budgets.js';
import { defaultTickConfig } from '../../../src/engine/tick/config.js';
import { ZERO_COUNTERS } from '../../../src/engine/tick/state.js';

const config = defaultTickConfig();
const limits = config.budgets.per_milestone;

describe('worstCaseTick()', () => {
  it('reserves both orchestrator attempts, the builder, each template once, and their cost caps', () => {
    expect(worstCaseTick(config)).toEqual({ ticks: 1, orchestrator_calls: 2, builder_calls: 1, verify_runs: 4, estimated_cost_usd: 2.3 });
  });
  it('reserves one orchestrator call when retries are off', () => {
    const noRetry = { ...config, orchestrator: { ...config.orchestrator, max_parse_retries_per_tick: 0 } };
    expect(worstCaseTick(noRetry)).toMatchObject({ orchestrator_calls: 1, estimated_cost_usd: 1.9 });
  });
});

describe('reservationShortfalls()', () => {
  const worst = worstCaseTick(config);
  it('is empty with a fresh milestone', () => {
    expect(reservationShortfalls(ZERO_COUNTERS, limits, worst)).toEqual([]);
  });
  it('names every counter that cannot cover a worst-case tick', () => {
    const used = { ...ZERO_COUNTERS, ticks: 200, orchestrator_calls: 259, estimated_cost_usd: 78 };
    expect(reservationShortfalls(used, limits, worst)).toEqual([
      'ticks: 200 of 200 used, 0 left, a worst-case tick needs 1',
      'orchestrator_calls: 259 of 260 used, 1 left, a worst-case tick needs 2',
      'estimated_cost_usd: 78 of 80 used, 2 left, a worst-case tick needs 2.30',
    ]);
  });
  it('allows a tick that exactly fits', () => {
    expect(reservationShortfalls({ ...ZERO_COUNTERS, estimated_cost_usd: 77.7 }, limits, worst)).toEqual([]);
  });
});

describe('budgetWarnings()', () => {
  it('warns at 80% of any cap, not below', () => {
    expect(budgetWarnings({ ...ZERO_COUNTERS, ticks: 159 }, limits, 0.8)).toEqual([]);
    expect(budgetWarnings({ ...ZERO_COUNTERS, ticks: 160, estimated_cost_usd: 70 }, limits, 0.8)).toEqual(['budget critical: ticks at 80% (160 of 200)', 'budget critical: estimated_cost_usd at 87% (70 of 80)']);
  });
});

describe('budgetsSummary()', () => {
  it('tells the orchestrator what is left and flags a critical budget', () => {
    const text = budgetsSummary({ ...ZERO_COUNTERS, ticks: 170 }, limits, ['budget critical: ticks at 85% (170 of 200)'], 10);
    expect(text).toContain('- ticks: 30 left of 200');
    expect(text).toContain('- patch_attempts: 10 left');
    expect(text).toContain('BUDGET CRITICAL');
  });
});
