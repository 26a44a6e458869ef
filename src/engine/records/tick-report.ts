// The tolerant parser of a tick report (history/<run_id>/report.json + meta.json, or the
// workspace's REPORT.json and TASK.json), shaped after Relais' report and task schemas. The tick
// runner is built separately, so this takes what it recognises and skips what does not parse.

/** A TASK as the orchestrator proposed it (relais/TASK.json or a report's `task`). */
export interface TickTask {
  readonly taskId: string;
  readonly milestoneId: string;
  readonly kind: string;
  readonly intent: string;
}

/** One verification command of a tick and how it ended. */
export interface TickVerification {
  readonly templateId: string;
  readonly phase: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
}

/** One finished tick, from its history folder. */
export interface TickRun {
  readonly runId: string;
  readonly startedAt: string | null;
  readonly endedAt: string | null;
  readonly task: TickTask | null;
  readonly verdict: string;
  readonly code: string;
  readonly blastRadius: { readonly filesTouched: number; readonly linesAdded: number; readonly linesDeleted: number; readonly newFiles: number } | null;
  readonly touchedPaths: readonly string[];
  readonly violations: readonly string[];
  readonly verification: readonly TickVerification[];
  readonly baseCommit: string | null;
  readonly headCommit: string | null;
  /** Project-relative folder the tick was read from (relais/history/<run_id>), when read from disk. */
  readonly folder: string | null;
}

type Json = Readonly<Record<string, unknown>>;

function record(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function text(value: unknown, max = 4_000): string | null {
  return typeof value === 'string' && value.length > 0 ? value.slice(0, max) : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : null;
}

function texts(value: unknown, maxItems = 500): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.length > 0).slice(0, maxItems) : [];
}

/** Reads a task object (TASK.json, or the `task` of a report); null when a required field is missing. */
export function parseTickTask(value: unknown): TickTask | null {
  const o = record(value);
  if (!o) return null;
  const taskId = text(o.task_id, 200);
  const milestoneId = text(o.milestone_id, 200);
  const kind = text(o.task_kind, 40);
  const intent = text(o.intent, 1_200);
  if (!taskId || !milestoneId || !kind || !intent) return null;
  return { taskId, milestoneId, kind, intent };
}

/**
 * Reads one tick from its report.json and, as a fallback for missing fields, its meta.json.
 * Returns null (the tick is skipped) without a run id, a verdict and a code.
 */
export function parseTickRun(report: unknown, meta: unknown = null, folder: string | null = null): TickRun | null {
  const r = record(report) ?? {};
  const m = record(meta) ?? {};
  const pick = (key: string): unknown => (r[key] !== undefined ? r[key] : m[key]);
  const runId = text(pick('run_id'), 200);
  const verdict = text(pick('verdict'), 40);
  const code = text(pick('code'), 80);
  if (!runId || !verdict || !code) return null;
  const blast = record(pick('blast_radius'));
  const filesTouched = count(blast?.files_touched);
  const scope = record(pick('scope'));
  const verification = record(pick('verification'));
  const runs = Array.isArray(verification?.runs) ? verification.runs : [];
  return {
    runId,
    startedAt: text(pick('started_at'), 64),
    endedAt: text(pick('ended_at'), 64),
    task: parseTickTask(pick('task')),
    verdict,
    code,
    blastRadius:
      blast && filesTouched !== null
        ? { filesTouched, linesAdded: count(blast.lines_added) ?? 0, linesDeleted: count(blast.lines_deleted) ?? 0, newFiles: count(blast.new_files) ?? 0 }
        : null,
    touchedPaths: texts(scope?.touched_paths),
    violations: texts(scope?.violations, 50),
    verification: runs
      .map(record)
      .filter((run): run is Json => run !== null && typeof run.template_id === 'string')
      .slice(0, 40)
      .map((run) => ({
        templateId: String(run.template_id),
        phase: text(run.phase, 20) ?? '?',
        exitCode: count(run.exit_code),
        timedOut: run.timed_out === true,
      })),
    baseCommit: text(pick('base_commit'), 64),
    headCommit: text(pick('head_commit'), 64),
    folder,
  };
}

/** "3 files, +12/-4, 1 new", the blast-radius line of both tick reports. */
export function describeBlastRadius(blast: TickRun['blastRadius']): string {
  if (!blast) return 'blast radius unknown';
  return `${blast.filesTouched} file${blast.filesTouched === 1 ? '' : 's'}, +${blast.linesAdded}/-${blast.linesDeleted}, ${blast.newFiles} new`;
}

/** When a tick happened, for ordering: its end, else its start. */
export function tickTime(run: TickRun): string {
  return run.endedAt ?? run.startedAt ?? '';
}
