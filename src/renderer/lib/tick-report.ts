// A tick's files read for display: REPORT.json (report.schema.json), STATE.json's counters,
// the caps of relais.config.json, and verify.log cut per command. These arrive as JSON from
// disk, so every field is read tolerantly: a missing or odd value shows as absent, never throws.
import type { TickDetail } from '../../shared/contract.js';
import { blastOfReport, type Blast } from './blast';

type Json = Record<string, unknown>;

function object(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}
function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export interface VerificationRunView {
  readonly templateId: string;
  readonly phase: string;
  /** The command as verify.log shows it (argv joined for reading; never run through a shell). */
  readonly command: string;
  readonly exitCode: number | null;
  readonly durationMs: number | null;
  readonly timedOut: boolean;
  readonly passed: boolean;
  /** This command's section of verify.log, when the log has it. */
  readonly log: string | null;
}

export interface TickReportView {
  readonly verdict: 'success' | 'stop' | 'blocked' | null;
  readonly code: string | null;
  readonly intent: string | null;
  readonly taskId: string | null;
  readonly taskKind: string | null;
  readonly milestoneId: string | null;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly durationMs: number | null;
  readonly baseCommit: string | null;
  readonly headCommit: string | null;
  readonly blast: Blast | null;
  readonly scope: { readonly ok: boolean; readonly violations: readonly string[]; readonly touched: readonly string[] } | null;
  readonly verification: readonly VerificationRunView[];
  readonly budgetWarnings: readonly string[];
}

/**
 * verify.log as written by the tick runner: one section per command, each starting with
 * `## <phase> <template id>`. Returns the sections keyed "phase template".
 */
export function splitVerifyLog(log: string | null): Map<string, string> {
  const sections = new Map<string, string>();
  if (!log) return sections;
  const lines = log.split('\n');
  let key: string | null = null;
  let body: string[] = [];
  const flush = (): void => {
    if (key !== null) sections.set(key, body.join('\n').replace(/\n+$/, ''));
  };
  for (const line of lines) {
    const header = /^## (fast|slow) (\S+)\s*$/.exec(line);
    if (header) {
      flush();
      key = `${header[1]} ${header[2]}`;
      body = [];
    } else if (key !== null) body.push(line);
  }
  flush();
  return sections;
}

/** The report view of a tick detail. */
export function readTickReport(detail: Pick<TickDetail, 'report' | 'meta' | 'verifyLog'>): TickReportView {
  const report = object(detail.report) ?? {};
  const meta = object(detail.meta) ?? {};
  const task = object(report.task) ?? object(meta.task) ?? {};
  const scope = object(report.scope);
  const verification = object(report.verification);
  const budgets = object(report.budgets);
  const logs = splitVerifyLog(detail.verifyLog);
  const verdict = str(report.verdict);
  const runs = Array.isArray(verification?.runs) ? verification.runs : [];
  return {
    verdict: verdict === 'success' || verdict === 'stop' || verdict === 'blocked' ? verdict : null,
    code: str(report.code),
    intent: str(task.intent) ?? str(meta.intent),
    taskId: str(task.task_id),
    taskKind: str(task.task_kind),
    milestoneId: str(task.milestone_id) ?? str(budgets?.milestone_id),
    startedAt: str(report.started_at) ?? str(meta.started_at),
    endedAt: str(report.ended_at) ?? str(meta.ended_at),
    durationMs: num(report.duration_ms),
    baseCommit: str(report.base_commit),
    headCommit: str(report.head_commit),
    blast: blastOfReport(report.blast_radius),
    scope: scope ? { ok: scope.ok === true, violations: strings(scope.violations), touched: strings(scope.touched_paths) } : null,
    verification: runs.map(object).filter((r): r is Json => r !== null).map((r) => {
      const templateId = str(r.template_id) ?? '?';
      const phase = str(r.phase) ?? '?';
      const exitCode = num(r.exit_code);
      const timedOut = r.timed_out === true;
      return {
        templateId,
        phase,
        command: [str(r.cmd) ?? '', ...strings(r.args)].join(' ').trim(),
        exitCode,
        durationMs: num(r.duration_ms),
        timedOut,
        passed: exitCode === 0 && !timedOut,
        log: logs.get(`${phase} ${templateId}`) ?? null,
      };
    }),
    budgetWarnings: strings(budgets?.warnings),
  };
}

export type MeterLevel = 'ok' | 'warn' | 'over';

export interface BudgetMeter {
  readonly counter: string;
  readonly label: string;
  readonly used: number;
  readonly limit: number;
  /** used / limit, 0…1 (a zero cap counts as full). */
  readonly fraction: number;
  readonly level: MeterLevel;
  /** "12 of 200", "$0.42 of $80.00". */
  readonly text: string;
}

const COUNTERS = [
  ['ticks', 'Ticks'],
  ['orchestrator_calls', 'Orchestrator calls'],
  ['builder_calls', 'Builder calls'],
  ['verify_runs', 'Verification runs'],
  ['estimated_cost_usd', 'Estimated cost'],
] as const;

function money(n: number): string {
  return `$${n.toFixed(2)}`;
}

/**
 * One meter per budget counter of `milestoneId`: STATE.json's spend against relais.config.json's
 * caps, amber from the warn fraction, red at the cap. Empty without caps or without spend data.
 */
export function budgetMeters(state: unknown, milestoneId: string | null, limits: TickDetail['budgetLimits']): { milestoneId: string | null; meters: BudgetMeter[] } {
  const milestones = object(object(state)?.milestones);
  if (!limits || !milestones) return { milestoneId, meters: [] };
  const id = milestoneId && milestones[milestoneId] ? milestoneId : (Object.keys(milestones)[0] ?? null);
  const used = id ? object(milestones[id]) : null;
  if (!id || !used) return { milestoneId: id, meters: [] };
  const meters = COUNTERS.map(([counter, label]) => {
    const spent = num(used[counter]) ?? 0;
    const limit = limits.limits[counter];
    const fraction = limit > 0 ? Math.min(1, spent / limit) : 1;
    const level: MeterLevel = spent >= limit ? 'over' : fraction >= limits.warnAtFraction ? 'warn' : 'ok';
    const text = counter === 'estimated_cost_usd' ? `${money(spent)} of ${money(limit)}` : `${spent} of ${limit}`;
    return { counter, label, used: spent, limit, fraction, level, text };
  });
  return { milestoneId: id, meters };
}

/**
 * The meters as of the tick: REPORT.json's budgets hold the milestone's counters when the tick
 * ended, so an old tick shows what it left, not what STATE.json says today.
 */
export function budgetMetersAsOfTick(report: unknown, limits: TickDetail['budgetLimits']): { milestoneId: string | null; meters: BudgetMeter[] } {
  const budgets = object(object(report)?.budgets);
  const milestoneId = str(budgets?.milestone_id);
  if (!budgets || !milestoneId) return { milestoneId, meters: [] };
  const used: Json = {};
  for (const [counter] of COUNTERS) if (num(budgets[counter]) !== null) used[counter] = budgets[counter];
  if (Object.keys(used).length === 0) return { milestoneId, meters: [] };
  return budgetMeters({ milestones: { [milestoneId]: used } }, milestoneId, limits);
}

/** What the tick's Claude calls cost (meta.json: orchestrator calls and the builder's); null when none reported a cost. */
export function tickCostUsd(meta: unknown): number | null {
  const record = object(meta) ?? {};
  const costs: number[] = [];
  const take = (call: unknown): void => {
    const cost = num(object(call)?.cost_usd);
    if (cost !== null && cost >= 0) costs.push(cost);
  };
  const calls = object(record.orchestrator)?.calls;
  if (Array.isArray(calls)) calls.forEach(take);
  take(object(record.builder)?.call);
  return costs.length > 0 ? Math.round(costs.reduce((a, b) => a + b, 0) * 1e6) / 1e6 : null;
}

/** "$0.42". */
export function formatUsd(usd: number): string {
  return money(usd);
}
