// Budget arithmetic, pure: what a worst-case tick may spend, whether a milestone can still
// afford it, and the 80% warnings.
import type { TickConfig } from './config.js';
import type { Counters } from './state.js';

type Limits = TickConfig['budgets']['per_milestone'];

/** The most one tick can spend: both orchestrator attempts, the builder, every verification. */
export function worstCaseTick(config: TickConfig): Omit<Counters, 'patch_attempts'> {
  const orchestratorCalls = 1 + config.orchestrator.max_parse_retries_per_tick;
  return {
    ticks: 1,
    orchestrator_calls: orchestratorCalls,
    builder_calls: 1,
    // Task validation refuses a template id listed twice, so a tick runs each template at most once.
    verify_runs: config.verification.templates.length,
    estimated_cost_usd: round(orchestratorCalls * config.orchestrator.max_budget_usd + config.builder.claude_code.max_budget_usd),
  };
}

/** Rounds money to a millionth of a dollar so sums do not drift. */
export function round(usd: number): number {
  return Math.round(usd * 1e6) / 1e6;
}

const ROWS = [
  ['ticks', 'max_ticks'],
  ['orchestrator_calls', 'max_orchestrator_calls'],
  ['builder_calls', 'max_builder_calls'],
  ['verify_runs', 'max_verify_runs'],
  ['estimated_cost_usd', 'max_estimated_cost_usd'],
] as const;

/** One line per counter that cannot cover a worst-case tick; empty when the tick can be reserved. */
export function reservationShortfalls(used: Counters, limits: Limits, worst: Omit<Counters, 'patch_attempts'>): string[] {
  const out: string[] = [];
  for (const [counter, limit] of ROWS) {
    const left = round(limits[limit] - used[counter]);
    if (worst[counter] > left) out.push(`${counter}: ${fmt(used[counter])} of ${fmt(limits[limit])} used, ${fmt(Math.max(0, left))} left, a worst-case tick needs ${fmt(worst[counter])}`);
  }
  return out;
}

/** One warning per counter at or above `fraction` of its cap. */
export function budgetWarnings(used: Counters, limits: Limits, fraction: number): string[] {
  const out: string[] = [];
  for (const [counter, limit] of ROWS) {
    const cap = limits[limit];
    if (cap > 0 && used[counter] >= fraction * cap) out.push(`budget critical: ${counter} at ${Math.floor((used[counter] / cap) * 100)}% (${fmt(used[counter])} of ${fmt(cap)})`);
  }
  return out;
}

/** The budgets as the orchestrator reads them: left / cap per counter, and the warnings. */
export function budgetsSummary(used: Counters, limits: Limits, warnings: readonly string[], patchLeft: number | null): string {
  const lines = ROWS.map(([counter, limit]) => `- ${counter}: ${fmt(Math.max(0, round(limits[limit] - used[counter])))} left of ${fmt(limits[limit])}`);
  if (patchLeft !== null) lines.push(`- patch_attempts: ${patchLeft} left`);
  if (warnings.length > 0) lines.push('BUDGET CRITICAL: prefer the cheapest useful task, or a question.', ...warnings.map((w) => `- ${w}`));
  return lines.join('\n');
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}
