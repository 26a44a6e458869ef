// What a tick's history folder becomes for each reader: a history row, the run detail the window
// shows, and the parsed tick a brief lists. Built here once from what ticks.ts read.
import type { TickDetail } from '../../shared/contract.js';
import type { TickCommit } from '../../shared/schemas.js';
import { fail, ok, type Result } from '../result.js';
import { loadTickConfig } from '../tick/config.js';
import type { Skipped } from './own-files.js';
import { runId, type IndexedRun } from './rows.js';
import { parseTickRun, parseTickTask, type TickRun, type TickTask } from './tick-report.js';
import { readTickFiles, readTickText, readWorkspaceJson, scanTicks, type TickCommitRecord, type TickFiles } from './ticks.js';

type Json = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.trunc(value) : 0;
}

function time(value: unknown): string | null {
  const candidate = text(value);
  return candidate && !Number.isNaN(Date.parse(candidate)) ? candidate : null;
}

function object(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

/** "3 files, +10/-2, 1 new" from a report's blast_radius. */
function blastRadius(blast: Json | null): string {
  if (!blast) return '';
  const files = count(blast.files_touched);
  const created = count(blast.new_files);
  return `${files} file${files === 1 ? '' : 's'}, +${count(blast.lines_added)}/-${count(blast.lines_deleted)}${created > 0 ? `, ${created} new` : ''}`;
}

/**
 * The history row of one tick: report.json when present (the tick's source of truth), meta.json
 * for what a report lacks. Unknown fields are ignored.
 */
export function tickRun(projectId: string, tick: TickFiles): IndexedRun {
  const r = tick.report ?? {};
  const m = tick.meta ?? {};
  const task = object(r.task) ?? object(m.task);
  const verdict = ['success', 'stop', 'blocked'].includes(String(r.verdict)) ? String(r.verdict) : null;
  const blast = blastRadius(object(r.blast_radius));
  return {
    id: runId(projectId, 'tick', tick.runId),
    projectId,
    kind: 'tick',
    status: tick.report ? 'done' : 'failed',
    verdict,
    code: text(r.code) ?? (tick.report ? null : 'REPORT_MISSING'),
    title: text(task?.intent) ?? text(m.intent) ?? text(m.title) ?? `Tick ${text(r.run_id) ?? tick.runId}`,
    summary: tick.commit ? `${blast ? `${blast} · ` : ''}committed ${tick.commit.commit.slice(0, 10)}` : blast,
    startedAt: time(r.started_at) ?? time(m.started_at) ?? tick.folderTime,
    endedAt: time(r.ended_at) ?? time(m.ended_at),
    file: `${tick.folder}/${tick.report ? 'report.json' : 'meta.json'}`,
    origin: 'file',
    taskId: null,
    detail: null,
  };
}

/** Longest verify.log / diff.patch a run detail carries (a tick may log 256 KB per command). */
export const MAX_TICK_TEXT_CHARS = 512 * 1024;

/** `text` cut to `max` characters, keeping the end (logs) or the start (diffs), and saying so. */
function capText(value: string | null, max: number, keep: 'head' | 'tail'): string | null {
  if (value === null || value.length <= max) return value;
  const dropped = value.length - max;
  return keep === 'tail' ? `… (${dropped} characters cut)\n${value.slice(dropped)}` : `${value.slice(0, max)}\n… (${dropped} characters cut)`;
}

/** The caps STATE.json's counters are measured against (with relais.config.json's defaults applied). */
function budgetLimits(root: string): TickDetail['budgetLimits'] {
  const config = loadTickConfig(root);
  if (!config.ok) return null;
  const caps = config.value.budgets.per_milestone;
  return {
    limits: {
      ticks: caps.max_ticks,
      orchestrator_calls: caps.max_orchestrator_calls,
      builder_calls: caps.max_builder_calls,
      verify_runs: caps.max_verify_runs,
      estimated_cost_usd: caps.max_estimated_cost_usd,
    },
    warnAtFraction: config.value.budgets.warn_at_fraction,
  };
}

/** commit.json in the shape the contract and the runtime carry. */
export function toTickCommit(record: TickCommitRecord): TickCommit {
  return { runId: record.run_id, commit: record.commit, parent: record.parent, message: record.message, paths: [...record.paths], committedAt: record.committed_at };
}

/** What the run detail shows for a tick: its report (JSON and Markdown), meta, logs, diff, and the budgets now. */
export function tickDetail(root: string, runIdOfTick: string): Result<TickDetail, 'RECORD_NOT_FOUND'> {
  const read = readTickFiles(root, runIdOfTick);
  if (!read || !('tick' in read)) return fail('RECORD_NOT_FOUND', `No tick history ${runIdOfTick} in ${root}: ${read ? read.skipped.reason : 'no such folder in the history folder relais.config.json names'}.`);
  const { tick } = read;
  return ok({
    kind: 'tick',
    runId: text(tick.report?.run_id) ?? tick.runId,
    report: tick.report,
    reportMarkdown: readTickText(root, tick.runId, 'report.md'),
    meta: tick.meta,
    state: readWorkspaceJson(root, 'STATE.json').value,
    verifyLog: capText(readTickText(root, tick.runId, 'verify.log'), MAX_TICK_TEXT_CHARS, 'tail'),
    diffPatch: capText(readTickText(root, tick.runId, 'diff.patch'), MAX_TICK_TEXT_CHARS, 'head'),
    budgetLimits: budgetLimits(root),
    commit: tick.commit ? toTickCommit(tick.commit) : null,
    // Needs git (async): the host fills it in for the run detail.
    commitOffer: null,
  });
}

/** A tick as a brief lists it (null when its files lack a run id, a verdict or a code). */
export function tickSummary(tick: TickFiles): TickRun | null {
  return parseTickRun(tick.report, tick.meta, tick.folder);
}

/** Every finished tick as a brief lists it (unsorted); what does not parse is listed as skipped. */
export function loadTicks(root: string): { ticks: TickRun[]; skipped: Skipped[] } {
  const scanned = scanTicks(root);
  const ticks: TickRun[] = [];
  const skipped: Skipped[] = [...scanned.skipped];
  for (const tick of scanned.ticks) {
    const run = tickSummary(tick);
    if (run) ticks.push(run);
    else skipped.push({ file: tick.folder, reason: 'no run_id, verdict and code in report.json or meta.json' });
  }
  return { ticks, skipped };
}

/** The workspace's TASK.json: the task being worked on or proposed next (null when there is none or it does not parse). */
export function currentTask(root: string): { task: TickTask | null; skipped: Skipped | null } {
  const read = readWorkspaceJson(root, 'TASK.json');
  if (!read.value && !read.error) return { task: null, skipped: null };
  const task = read.value ? parseTickTask(read.value) : null;
  return { task, skipped: task ? null : { file: read.file, reason: read.error ?? 'missing task_id, milestone_id, task_kind or intent' } };
}
