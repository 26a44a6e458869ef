// Readers of the files of truth that the store indexes: patch transaction records in
// `.relaycode/` (written by src/engine/patch), ask/review answers in `.relaycode/answers/`
// (src/engine/relay/record.ts) and tick history in `relais/history/<run_id>/` (written by the
// tick runner; read tolerantly, since only report.json has a schema).
import { existsSync, lstatSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { PatchDetail, RelayDetail, TickDetail } from '../../shared/contract.js';
import { readTextOrNull } from '../fs/read.js';
import { STATE_DIR } from '../patch/config.js';
import { committedPath, pendingPath, readRecord, withDerivedRevert, withDerivedReverts, type TransactionRecord } from '../patch/state.js';
import { describeStats, fileStat, unifiedDiff } from '../patch/summary.js';
import { loadTickConfig } from '../tick/config.js';
import { readTickCommit, toTickCommit } from '../tick/commit.js';
import { ANSWERS_DIR, loadAnswers } from '../relay/record.js';
import { fail, ok, type Result } from '../result.js';
import { runId, type StoredRun } from './runs.js';

export const RELAIS_DIR = 'relais';
export const TICK_HISTORY_DIR = 'relais/history';

/** A file that could not be indexed, and why. */
export interface Skipped {
  readonly file: string;
  readonly reason: string;
}

const COMMITTED = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.yml$/;
const PENDING = /^([A-Za-z0-9][A-Za-z0-9_-]*)\.pending\.yml$/;
/** Names that are safe to join to a project path (no separators, no dot-dot). */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A file of truth's text; a planted symlink in its place is not followed (records are input). */
function readOrNull(file: string): string | null {
  try {
    if (lstatSync(file).isSymbolicLink()) return null;
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/** The history row of one transaction record. */
export function patchRunFromRecord(projectId: string, record: TransactionRecord, pending: boolean): StoredRun {
  const title = record.gitCommitMsg ?? record.promptSummary ?? (record.revertOf ? `Revert ${record.revertOf}` : `Patch ${record.uuid.slice(0, 8)}`);
  return {
    id: runId(projectId, 'patch', record.uuid),
    projectId,
    kind: 'patch',
    status: pending ? 'waiting' : 'done',
    verdict: pending ? 'pending' : record.revertedBy ? 'reverted' : 'approved',
    code: null,
    title,
    summary: pending ? `${Object.keys(record.snapshot).length} file(s) pending approval` : describeStats(record.files),
    startedAt: record.createdAt,
    endedAt: pending ? null : record.createdAt,
    file: `${STATE_DIR}/${record.uuid}${pending ? '.pending' : ''}.yml`,
    origin: 'file',
    taskId: null,
    detail: null,
  };
}

/** History rows for every transaction record of a project (committed and pending). */
export function readPatchRuns(projectId: string, root: string): { runs: StoredRun[]; skipped: Skipped[] } {
  const dir = path.join(root, STATE_DIR);
  if (!existsSync(dir)) return { runs: [], skipped: [] };
  const names = readdirSync(dir);
  const committed = new Set(names.map((n) => (PENDING.test(n) ? undefined : COMMITTED.exec(n)?.[1])).filter((u): u is string => u !== undefined));
  const read: Array<{ record: TransactionRecord; pending: boolean }> = [];
  const skipped: Skipped[] = [];
  for (const name of names) {
    const pendingUuid = PENDING.exec(name)?.[1];
    const committedUuid = pendingUuid ? undefined : COMMITTED.exec(name)?.[1];
    if (!pendingUuid && !committedUuid) continue;
    // A pending file beside its committed record is a leftover of an interrupted cleanup.
    if (pendingUuid && committed.has(pendingUuid)) continue;
    try {
      read.push({ record: readRecord(path.join(dir, name)), pending: pendingUuid !== undefined });
    } catch (error) {
      skipped.push({ file: `${STATE_DIR}/${name}`, reason: (error as Error).message });
    }
  }
  // "Reverted" comes from the committed revert records, not from a second write to the original.
  const derived = new Map(withDerivedReverts(read.filter((r) => !r.pending).map((r) => r.record)).map((r) => [r.uuid, r]));
  const runs = read.map(({ record, pending }) => patchRunFromRecord(projectId, pending ? record : (derived.get(record.uuid) ?? record), pending));
  return { runs, skipped };
}

/** The record of one transaction, committed or pending; null when neither file exists or it is unreadable. */
export function readPatchRecord(root: string, uuid: string): { record: TransactionRecord; pending: boolean } | null {
  if (!SAFE_KEY.test(uuid)) return null;
  for (const [file, pending] of [
    [committedPath(root, uuid), false],
    [pendingPath(root, uuid), true],
  ] as const) {
    if (!existsSync(file)) continue;
    try {
      const record = readRecord(file);
      return { record: pending ? record : withDerivedRevert(root, record), pending };
    } catch {
      return null;
    }
  }
  return null;
}

/** What the run detail shows for a transaction: reasoning, diffs, message, linter output, state. */
export function readPatchDetail(root: string, uuid: string): Result<PatchDetail, 'RECORD_NOT_FOUND'> {
  const found = readPatchRecord(root, uuid);
  if (!found) return fail('RECORD_NOT_FOUND', `No readable transaction record ${uuid} in ${path.join(root, STATE_DIR)}.`);
  const { record, pending } = found;
  const files = pending
    ? // A pending transaction's "after" is what is on disk now.
      Object.entries(record.snapshot).map(([file, before]) => {
        const now = readTextOrNull(root, file); // through the chokepoint: never a link out of the project
        return { ...fileStat(file, before, now), diff: unifiedDiff(file, before, now) };
      })
    : record.files.map((f) => ({ ...f, diff: unifiedDiff(f.path, record.snapshot[f.path] ?? null, record.result[f.path] ?? null) }));
  return ok({
    kind: 'patch',
    state: pending ? 'pending' : record.revertedBy ? 'reverted' : 'approved',
    uuid: record.uuid,
    source: record.source,
    reasoning: [...record.reasoning],
    files,
    gitCommitMsg: record.gitCommitMsg ?? null,
    promptSummary: record.promptSummary ?? null,
    linter: record.linter ?? null,
    revertOf: record.revertOf ?? null,
    revertedBy: record.revertedBy ?? null,
    warnings: [...record.warnings],
    error: null,
    answer: null,
  });
}

type Json = Record<string, unknown>;

function readJson(file: string): { value: Json | null; error: string | null } {
  const text = readOrNull(file);
  if (text === null) return { value: null, error: null };
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { value: value as Json, error: null } : { value: null, error: 'not a JSON object' };
  } catch (error) {
    return { value: null, error: (error as Error).message };
  }
}

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
 * The history row of one tick from `relais/history/<dir>/`: report.json when present (the
 * tick's source of truth), meta.json for what a report lacks. Unknown fields are ignored.
 */
export function readTickRun(projectId: string, root: string, dir: string): { run: StoredRun } | { skipped: Skipped } {
  const folder = path.join(root, TICK_HISTORY_DIR, dir);
  const where = `${TICK_HISTORY_DIR}/${dir}`;
  if (!SAFE_KEY.test(dir)) return { skipped: { file: where, reason: 'not a run id' } };
  const report = readJson(path.join(folder, 'report.json'));
  const meta = readJson(path.join(folder, 'meta.json'));
  if (!report.value && !meta.value) {
    return { skipped: { file: where, reason: report.error ? `report.json: ${report.error}` : meta.error ? `meta.json: ${meta.error}` : 'no report.json or meta.json' } };
  }
  const r = report.value ?? {};
  const m = meta.value ?? {};
  const task = object(r.task) ?? object(m.task);
  const verdict = ['success', 'stop', 'blocked'].includes(String(r.verdict)) ? String(r.verdict) : null;
  let folderTime: string;
  try {
    folderTime = statSync(folder).mtime.toISOString();
  } catch {
    folderTime = new Date(0).toISOString();
  }
  const startedAt = time(r.started_at) ?? time(m.started_at) ?? folderTime;
  const committed = readTickCommit(root, dir);
  const blast = blastRadius(object(r.blast_radius));
  return {
    run: {
      id: runId(projectId, 'tick', dir),
      projectId,
      kind: 'tick',
      status: report.value ? 'done' : 'failed',
      verdict,
      code: text(r.code) ?? (report.value ? null : 'REPORT_MISSING'),
      title: text(task?.intent) ?? text(m.intent) ?? text(m.title) ?? `Tick ${text(r.run_id) ?? dir}`,
      summary: committed ? `${blast ? `${blast} · ` : ''}committed ${committed.commit.slice(0, 10)}` : blast,
      startedAt,
      endedAt: time(r.ended_at) ?? time(m.ended_at),
      file: report.value ? `${where}/report.json` : `${where}/meta.json`,
      origin: 'file',
      taskId: null,
      detail: null,
    },
  };
}

/** History rows for every tick in `relais/history/`. */
export function readTickRuns(projectId: string, root: string): { runs: StoredRun[]; skipped: Skipped[] } {
  const history = path.join(root, TICK_HISTORY_DIR);
  if (!existsSync(history)) return { runs: [], skipped: [] };
  const runs: StoredRun[] = [];
  const skipped: Skipped[] = [];
  for (const entry of readdirSync(history, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const read = readTickRun(projectId, root, entry.name);
    if ('run' in read) runs.push(read.run);
    else skipped.push(read.skipped);
  }
  return { runs, skipped };
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

/** What the run detail shows for a tick: its report (JSON and Markdown), meta, logs, diff, and the budgets now. */
export function readTickDetail(root: string, dir: string): Result<TickDetail, 'RECORD_NOT_FOUND'> {
  const folder = path.join(root, TICK_HISTORY_DIR, dir);
  if (!SAFE_KEY.test(dir) || !existsSync(folder)) return fail('RECORD_NOT_FOUND', `No tick history ${dir} in ${path.join(root, TICK_HISTORY_DIR)}.`);
  const report = readJson(path.join(folder, 'report.json'));
  return ok({
    kind: 'tick',
    runId: text(report.value?.run_id) ?? dir,
    report: report.value,
    reportMarkdown: readOrNull(path.join(folder, 'report.md')),
    meta: readJson(path.join(folder, 'meta.json')).value,
    state: readJson(path.join(root, RELAIS_DIR, 'STATE.json')).value,
    verifyLog: capText(readOrNull(path.join(folder, 'verify.log')), MAX_TICK_TEXT_CHARS, 'tail'),
    diffPatch: capText(readOrNull(path.join(folder, 'diff.patch')), MAX_TICK_TEXT_CHARS, 'head'),
    budgetLimits: budgetLimits(root),
    commit: ((c) => (c ? toTickCommit(c) : null))(readTickCommit(root, dir)),
    // Needs git (async): the host fills it in for the run detail.
    commitOffer: null,
  });
}

const ANSWER_FILE_TITLE_CHARS = 120;

/**
 * History rows for the asks and reviews recorded in `.relaycode/answers/` (by the CLI or the
 * app). The row carries no detail of its own: an app-made run keeps the detail it stored
 * (usage included), and run detail reads the file for the rest.
 */
export function readAnswerRuns(projectId: string, root: string): { runs: StoredRun[]; skipped: Skipped[] } {
  const loaded = loadAnswers(root);
  const runs = loaded.answers.map((answer): StoredRun => {
    const kind = answer.kind === 'ask' ? 'relay' : 'review';
    const asked = answer.prompt.trim().split('\n')[0]?.slice(0, ANSWER_FILE_TITLE_CHARS) ?? '';
    return {
      id: runId(projectId, kind, answer.id),
      projectId,
      kind,
      status: answer.ok ? 'done' : 'failed',
      verdict: null,
      code: null,
      title: kind === 'relay' ? `Ask ${answer.backend}: ${asked}` : `Review by ${answer.backend}`,
      summary: answer.answer.trim().split('\n')[0]?.slice(0, 200) ?? '',
      startedAt: answer.createdAt,
      endedAt: answer.createdAt,
      file: `${STATE_DIR}/${ANSWERS_DIR}/${answer.id}.json`,
      origin: 'file',
      taskId: null,
      detail: null,
    };
  });
  return { runs, skipped: loaded.skipped.map((s) => ({ file: s.path, reason: s.reason })) };
}

/** The detail of one recorded answer, read from its file. */
export function readAnswerDetail(root: string, id: string): Result<RelayDetail, 'RECORD_NOT_FOUND'> {
  const answer = loadAnswers(root).answers.find((a) => a.id === id);
  if (!answer) return fail('RECORD_NOT_FOUND', `The answer record ${STATE_DIR}/${ANSWERS_DIR}/${id}.json is missing or damaged.`);
  return ok({
    kind: answer.kind === 'ask' ? 'relay' : 'review',
    backend: answer.backend,
    prompt: answer.prompt,
    text: answer.ok ? answer.answer : '',
    usage: null,
    error: answer.ok ? null : { code: 'RELAY_FAILED', message: answer.answer },
  });
}
