// REPORT.json, built from what the tick found: pure, and always within report.schema.json's limits.
import type { BlastRadius } from './blast.js';
import type { TickCode } from './codes.js';
import { verdictOf } from './codes.js';
import type { Counters } from './state.js';
import type { TaskKind } from './task.js';
import type { VerifyRun } from './verify.js';

/** REPORT.json, the tick's single source of truth (report.schema.json). */
export interface TickReport {
  readonly run_id: string;
  readonly started_at: string;
  readonly ended_at: string;
  readonly duration_ms: number;
  readonly base_commit: string;
  readonly head_commit: string;
  readonly task: { readonly task_id: string; readonly milestone_id: string; readonly task_kind: TaskKind; readonly intent: string };
  readonly verdict: 'success' | 'stop' | 'blocked';
  readonly code: TickCode;
  readonly blast_radius: BlastRadius;
  readonly scope: { readonly ok: boolean; readonly violations: readonly string[]; readonly touched_paths: readonly string[] };
  readonly diff: { readonly files_changed: number; readonly lines_changed: number; readonly diff_patch_path: string };
  readonly verification: { readonly exec_mode: 'argv_no_shell'; readonly runs: readonly VerifyRun[]; readonly verify_log_path: string };
  readonly budgets: {
    readonly milestone_id: string;
    readonly ticks: number;
    readonly orchestrator_calls: number;
    readonly builder_calls: number;
    readonly verify_runs: number;
    readonly estimated_cost_usd: number;
    readonly warnings: readonly string[];
  };
  readonly pointers?: { readonly report_md_path?: string; readonly history_dir?: string };
}

export interface ReportInput {
  readonly runId: string;
  readonly startedAt: Date;
  readonly endedAt: Date;
  readonly baseCommit: string;
  readonly headCommit: string;
  /** The task, or null when the orchestrator never produced a valid one. */
  readonly task: { readonly task_id: string; readonly milestone_id: string; readonly task_kind: TaskKind; readonly intent: string } | null;
  readonly milestoneId: string;
  readonly code: TickCode;
  readonly blast: BlastRadius;
  readonly violations: readonly string[];
  readonly touchedPaths: readonly string[];
  readonly runs: readonly VerifyRun[];
  readonly counters: Counters;
  readonly warnings: readonly string[];
  readonly diffPatchPath: string;
  readonly verifyLogPath: string;
  readonly reportMdPath: string;
  readonly historyDir: string | null;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function capList(items: readonly string[], maxItems: number, maxLen: number): string[] {
  const kept = items.filter((s) => s.length > 0).map((s) => cut(s, maxLen));
  if (kept.length <= maxItems) return kept;
  return [...kept.slice(0, maxItems - 1), `… and ${kept.length - maxItems + 1} more`];
}

/** Builds REPORT.json; long lists and strings are cut to the schema's limits. */
export function buildReport(input: ReportInput): TickReport {
  const task = input.task ? { task_id: input.task.task_id, milestone_id: input.task.milestone_id, task_kind: input.task.task_kind, intent: input.task.intent } : {
    task_id: 'none',
    milestone_id: input.milestoneId,
    // No task was produced; "question" is the kind that promises no change to the repository.
    task_kind: 'question' as const,
    intent: 'No task: the orchestrator did not produce a valid one.',
  };
  const runs = input.runs.slice(0, 40).map((r) => ({
    ...r,
    template_id: cut(r.template_id, 64),
    cmd: cut(r.cmd, 120),
    args: r.args.slice(0, 40).map((a) => cut(a, 200)),
  }));
  return {
    run_id: input.runId,
    started_at: input.startedAt.toISOString(),
    ended_at: input.endedAt.toISOString(),
    duration_ms: Math.max(0, input.endedAt.getTime() - input.startedAt.getTime()),
    base_commit: input.baseCommit,
    head_commit: input.headCommit,
    task,
    verdict: verdictOf(input.code),
    code: input.code,
    blast_radius: input.blast,
    scope: { ok: input.violations.length === 0, violations: capList(input.violations, 200, 200), touched_paths: capList(input.touchedPaths, 500, 400) },
    diff: { files_changed: input.blast.files_touched, lines_changed: input.blast.lines_added + input.blast.lines_deleted, diff_patch_path: cut(input.diffPatchPath, 300) },
    verification: { exec_mode: 'argv_no_shell', runs, verify_log_path: cut(input.verifyLogPath, 300) },
    budgets: {
      milestone_id: input.milestoneId,
      ticks: input.counters.ticks,
      orchestrator_calls: input.counters.orchestrator_calls,
      builder_calls: input.counters.builder_calls,
      verify_runs: input.counters.verify_runs,
      estimated_cost_usd: input.counters.estimated_cost_usd,
      warnings: capList(input.warnings, 20, 200),
    },
    pointers: { report_md_path: input.reportMdPath, ...(input.historyDir ? { history_dir: input.historyDir } : {}) },
  };
}
