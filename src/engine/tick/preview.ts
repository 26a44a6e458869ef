// What a tick about to start may spend, for the confirmation a person sees before pressing
// Start: whether the preflight would let it start (the same `preflightTick` the run uses), the
// attempt limits of relais.config.json, the milestone's budget left, what ticks spent today and
// the median cost of this project's recent ticks, read from their history (meta.json).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ownFolder } from '../fs/safe-path.js';
import { round, worstCaseTick } from './budgets.js';
import { loadTickConfig, type TickConfig } from './config.js';
import type { RunnerIdentity } from './project.js';
import { preflightTick } from './start.js';
import { countersOf, loadState, type Counters } from './state.js';
import { workspacePaths } from './workspace.js';

/** The caps one tick runs under (relais.config.json). */
export interface TickAttemptLimits {
  /** Orchestrator calls at most: the first plus its parse retries. */
  readonly orchestratorCalls: number;
  readonly orchestratorMaxTurns: number;
  readonly orchestratorMaxBudgetUsd: number;
  readonly builderCalls: number;
  readonly builderMaxTurns: number;
  readonly builderMaxBudgetUsd: number;
  /** Verification commands at most (each template once). */
  readonly verifyRuns: number;
  /** The most one tick can be charged: every call at its cap. */
  readonly worstCaseUsd: number;
  readonly maxTickSeconds: number;
}

/** One budget counter of the milestone: used, cap, left. */
export interface BudgetLine {
  readonly counter: Exclude<keyof Counters, 'patch_attempts'>;
  readonly used: number;
  readonly limit: number;
  readonly left: number;
}

/** The confirmation's figures. */
export interface TickPreview {
  readonly preflight: { readonly ready: true; readonly warnings: readonly string[] } | { readonly ready: false; readonly code: string; readonly reason: string; readonly remediation: string; readonly details: readonly string[] };
  /** Null when relais.config.json cannot be read (the preflight then says why). */
  readonly limits: TickAttemptLimits | null;
  readonly budget: { readonly milestoneId: string; readonly lines: readonly BudgetLine[] } | null;
  /** Spent by the ticks of this project that ended today (local time of `now`). */
  readonly today: { readonly ticks: number; readonly costUsd: number };
  /** The median cost of the most recent ticks that made a Claude call (at most RECENT_TICKS). */
  readonly recent: { readonly ticks: number; readonly medianCostUsd: number | null };
}

/** How many recent ticks the median is taken over. */
export const RECENT_TICKS = 20;
/** A meta.json larger than this is not a tick's meta (it is skipped, not read). */
const MAX_META_BYTES = 2 * 1024 * 1024;

/** The attempt limits of a config. */
export function attemptLimits(config: TickConfig): TickAttemptLimits {
  const worst = worstCaseTick(config);
  return {
    orchestratorCalls: worst.orchestrator_calls,
    orchestratorMaxTurns: config.orchestrator.max_turns,
    orchestratorMaxBudgetUsd: config.orchestrator.max_budget_usd,
    builderCalls: worst.builder_calls,
    builderMaxTurns: config.builder.claude_code.max_turns,
    builderMaxBudgetUsd: config.builder.claude_code.max_budget_usd,
    verifyRuns: worst.verify_runs,
    worstCaseUsd: worst.estimated_cost_usd,
    maxTickSeconds: config.runner.max_tick_seconds,
  };
}

const LIMIT_OF = {
  ticks: 'max_ticks',
  orchestrator_calls: 'max_orchestrator_calls',
  builder_calls: 'max_builder_calls',
  verify_runs: 'max_verify_runs',
  estimated_cost_usd: 'max_estimated_cost_usd',
} as const;

/** The milestone's counters against its caps. */
export function budgetLines(used: Counters, limits: TickConfig['budgets']['per_milestone']): BudgetLine[] {
  return (Object.keys(LIMIT_OF) as Array<keyof typeof LIMIT_OF>).map((counter) => {
    const limit = limits[LIMIT_OF[counter]];
    return { counter, used: used[counter], limit, left: Math.max(0, round(limit - used[counter])) };
  });
}

/** A tick's cost as its meta.json records it (orchestrator calls plus the builder's); null when no call reported one. */
export function costOfMeta(meta: unknown): number | null {
  const record = meta !== null && typeof meta === 'object' ? (meta as Record<string, unknown>) : {};
  const costs: number[] = [];
  const take = (call: unknown): void => {
    const cost = call !== null && typeof call === 'object' ? (call as { cost_usd?: unknown }).cost_usd : undefined;
    if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) costs.push(cost);
  };
  const orchestrator = record.orchestrator as { calls?: unknown } | null | undefined;
  if (Array.isArray(orchestrator?.calls)) for (const call of orchestrator.calls) take(call);
  take((record.builder as { call?: unknown } | null | undefined)?.call);
  return costs.length > 0 ? round(costs.reduce((a, b) => a + b, 0)) : null;
}

/** The median of a non-empty list. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

interface PastTick {
  readonly endedAt: string | null;
  readonly costUsd: number | null;
}

/**
 * The project's past ticks, newest first (run ids sort by time), read from history/<run_id>/meta.json
 * inside the repository's own history folder. The repository is input: a link, an oversized or
 * unreadable file is skipped.
 */
function pastTicks(root: string, historyRel: string): PastTick[] {
  const folder = ownFolder(root, historyRel);
  if (!folder.ok) return [];
  let names: string[];
  try {
    names = readdirSync(folder.value, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
  const out: PastTick[] = [];
  for (const name of names.sort().reverse()) {
    const file = path.join(folder.value, name, 'meta.json');
    try {
      const stat = statSync(file, { throwIfNoEntry: false });
      if (!stat?.isFile() || stat.size > MAX_META_BYTES) continue;
      const meta = JSON.parse(readFileSync(file, 'utf8')) as { ended_at?: unknown };
      out.push({ endedAt: typeof meta.ended_at === 'string' ? meta.ended_at : null, costUsd: costOfMeta(meta) });
    } catch {
      continue;
    }
  }
  return out;
}

function sameLocalDay(iso: string, now: Date): boolean {
  const at = new Date(iso);
  return !Number.isNaN(at.getTime()) && at.toDateString() === now.toDateString();
}

/** Everything the window's tick confirmation shows; nothing is changed to find it out. */
export async function previewTick(options: RunnerIdentity & { readonly root: string; readonly now: Date }): Promise<TickPreview> {
  const pre = await preflightTick(options, { kind: 'check', at: options.now });
  const preflight: TickPreview['preflight'] = pre.ok
    ? { ready: true, warnings: [...pre.notes, ...pre.start.warnings] }
    : { ready: false, code: pre.blocker.code, reason: pre.blocker.reason, remediation: pre.blocker.remediation, details: [...(pre.blocker.details ?? [])] };
  const loaded = loadTickConfig(options.root);
  const config = loaded.ok ? loaded.value : null;
  const paths = workspacePaths(options.root, config ?? undefined);
  let budget: TickPreview['budget'] = null;
  if (config) {
    const state = loadState(paths);
    const used = countersOf((state.ok ? state.value : null) ?? { version: 1, milestones: {}, budget_warning: false, last_run: null, updated_at: '' }, config.project.milestone_id);
    budget = { milestoneId: config.project.milestone_id, lines: budgetLines(used, config.budgets.per_milestone) };
  }
  const past = pastTicks(options.root, paths.historyDirRel);
  const todays = past.filter((t) => t.endedAt !== null && sameLocalDay(t.endedAt, options.now));
  const recentCosts = past
    .map((t) => t.costUsd)
    .filter((c): c is number => c !== null)
    .slice(0, RECENT_TICKS);
  return {
    preflight,
    limits: config ? attemptLimits(config) : null,
    budget,
    today: { ticks: todays.length, costUsd: round(todays.reduce((sum, t) => sum + (t.costUsd ?? 0), 0)) },
    recent: { ticks: recentCosts.length, medianCostUsd: recentCosts.length > 0 ? median(recentCosts) : null },
  };
}
