import { existsSync, readFileSync } from 'node:fs';
import { readBlocked, type BlockedRecord } from './blocked.js';
import { blastLine } from './blast.js';
import { budgetWarnings } from './budgets.js';
import type { TickCode, Verdict } from './codes.js';
import { loadTickConfig, type TickConfig } from './config.js';
import { inspectLock, type LockState } from './lock.js';
import type { RunnerIdentity } from './project.js';
import { preflightTick } from './start.js';
import type { TickReport } from './report.js';
import { countersOf, loadState, type Counters } from './state.js';
import { checkReport } from './validate.js';
import { relativeToRoot, workspacePaths } from './workspace.js';

/** The milestone's budgets: what is used, the caps, and the 80% warnings. */
export interface BudgetStatus {
  readonly milestoneId: string;
  readonly used: Counters;
  readonly limits: TickConfig['budgets']['per_milestone'];
  readonly warnings: readonly string[];
}

/** What `relais status` shows. */
export interface TickStatus {
  readonly root: string;
  /** Null when the config is usable; else why not. */
  readonly configProblem: string | null;
  readonly lock: LockState;
  readonly lastRun: { readonly runId: string; readonly verdict: Verdict; readonly code: TickCode; readonly endedAt: string } | null;
  /** The last REPORT.json, when there is a valid one. */
  readonly lastReport: { readonly runId: string; readonly code: TickCode; readonly blastRadius: string; readonly path: string } | null;
  readonly blocked: BlockedRecord | null;
  readonly budgets: BudgetStatus | null;
  /** Present when asked for: would a tick start now? Nothing is changed to find out. */
  readonly preflight?: { readonly ready: true; readonly warnings: readonly string[] } | { readonly ready: false; readonly code: string; readonly reason: string; readonly remediation: string; readonly details: readonly string[] };
}

/** Reads the workspace's state (and, with `preflight`, runs the start checks without side effects). */
export async function tickStatus(options: RunnerIdentity & { readonly root: string; readonly preflight?: boolean }): Promise<TickStatus> {
  const loaded = loadTickConfig(options.root);
  const config = loaded.ok ? loaded.value : undefined;
  const paths = workspacePaths(options.root, config);
  const state = loadState(paths);
  const st = state.ok ? state.value : null;
  let lastReport: TickStatus['lastReport'] = null;
  if (existsSync(paths.reportJson)) {
    try {
      const data: unknown = JSON.parse(readFileSync(paths.reportJson, 'utf8'));
      if (checkReport(data).ok) {
        const r = data as TickReport;
        lastReport = { runId: r.run_id, code: r.code, blastRadius: blastLine(r.blast_radius), path: relativeToRoot(options.root, paths.reportMd) };
      }
    } catch {
      // unreadable: preflight reports it as a crash artifact
    }
  }
  const blocked = readBlocked(paths.blocked);
  let budgets: BudgetStatus | null = null;
  if (config) {
    const used = countersOf(st ?? { version: 1, milestones: {}, budget_warning: false, last_run: null, updated_at: '' }, config.project.milestone_id);
    budgets = { milestoneId: config.project.milestone_id, used, limits: config.budgets.per_milestone, warnings: budgetWarnings(used, config.budgets.per_milestone, config.budgets.warn_at_fraction) };
  }
  const status: TickStatus = {
    root: options.root,
    configProblem: loaded.ok ? null : loaded.error.message,
    lock: inspectLock(paths.lock),
    lastRun: st?.last_run ? { runId: st.last_run.run_id, verdict: st.last_run.verdict, code: st.last_run.code, endedAt: st.last_run.ended_at } : null,
    lastReport,
    blocked: blocked === 'invalid' ? null : blocked,
    budgets,
  };
  if (!options.preflight) return status;
  return { ...status, preflight: await preflightOnly(options) };
}

async function preflightOnly(options: RunnerIdentity & { readonly root: string }): Promise<NonNullable<TickStatus['preflight']>> {
  const pre = await preflightTick(options, { kind: 'check', at: new Date() });
  if (pre.ok) return { ready: true, warnings: [...pre.notes, ...pre.start.warnings] };
  const b = pre.blocker;
  return { ready: false, code: b.code, reason: b.reason, remediation: b.remediation, details: b.details ?? [] };
}
