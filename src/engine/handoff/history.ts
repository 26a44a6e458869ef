// A project's recorded history as one plain value: the only input of the brief synthesizer
// besides the clock and the gap-fill. `loadProjectHistory` is the one place that reads it from
// disk (the files of truth plus `git log`); the app's store can build the same value from its
// index and add what only it holds (relay/review answers, live tick events).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { resolveInsideRoot } from '../fs/safe-path.js';
import { loadRelayConfig } from '../patch/config.js';
import { loadAnswers, type RecordedAnswer } from '../relay/record.js';
import { damagedRecords, listCommitted, type FileStat, type TransactionRecord } from '../patch/state.js';
import { currentBranch } from '../git/commit.js';
import { isGitRepo } from '../git/core.js';
import { readLog } from '../git/log.js';
import { utcIso } from './text.js';
import { parseTickRun, parseTickTask, tickTime, type TickRun, type TickTask } from './ticks.js';

/** A patch transaction without the file contents its record keeps for rollback. */
export interface TransactionSummary {
  readonly uuid: string;
  readonly createdAt: string;
  readonly source: TransactionRecord['source'];
  readonly gitCommitMsg: string | null;
  readonly promptSummary: string | null;
  readonly reasoning: readonly string[];
  readonly files: readonly FileStat[];
  readonly decision: { readonly by: 'auto' | 'user'; readonly kept: readonly string[]; readonly rolledBack: readonly string[] } | null;
  readonly revertOf: string | null;
  readonly revertedBy: string | null;
  readonly warnings: readonly string[];
}

/** An ask or review answer, as `.relaycode/answers/<id>.json` records it (`ok` false: `answer` holds the error). */
export type RelayAnswer = RecordedAnswer;

/** A stage of a tick as the runtime streamed it; lets a brief mention a tick that has no report yet. */
export interface TickEvent {
  readonly runId: string;
  readonly at: string;
  readonly stage: string;
  readonly detail?: string;
}

/** One commit of the project's git log (files are read separately, see files-touched.ts). */
export interface CommitSummary {
  readonly sha: string;
  readonly date: string;
  readonly subject: string;
}

/** A record that could not be read, so the brief can say that something is missing. */
export interface SkippedRecord {
  readonly path: string;
  readonly reason: string;
}

/** Everything a brief is built from. Lists are newest first. */
export interface ProjectHistory {
  readonly root: string;
  readonly projectId: string;
  readonly git: { readonly isRepo: boolean; readonly branch: string | null; readonly head: string | null; readonly commits: readonly CommitSummary[] };
  readonly transactions: readonly TransactionSummary[];
  readonly ticks: readonly TickRun[];
  /** relais/TASK.json: the task being worked on or proposed next. */
  readonly currentTask: TickTask | null;
  readonly relayAnswers: readonly RelayAnswer[];
  readonly tickEvents: readonly TickEvent[];
  readonly skipped: readonly SkippedRecord[];
}

export interface LoadHistoryOptions {
  /** How many of each kind of record to keep (newest). */
  readonly limit?: number;
  /** Answers known beyond `.relaycode/answers/` (read always); one id counts once. */
  readonly relayAnswers?: readonly RelayAnswer[];
  readonly tickEvents?: readonly TickEvent[];
}

/** The default number of records of each kind a brief looks at. */
export const DEFAULT_HISTORY_LIMIT = 30;

const RUN_DIR = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/** Strips a transaction record down to what a brief or a run list needs. */
export function summariseTransaction(record: TransactionRecord): TransactionSummary {
  return {
    uuid: record.uuid,
    createdAt: record.createdAt,
    source: record.source,
    gitCommitMsg: record.gitCommitMsg ?? null,
    promptSummary: record.promptSummary ?? null,
    reasoning: record.reasoning,
    files: record.files,
    decision: record.decision ?? null,
    revertOf: record.revertOf ?? null,
    revertedBy: record.revertedBy ?? null,
    warnings: record.warnings,
  };
}

function readJson(root: string, rel: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    // Through the path chokepoint: a history file that is a link out of the project is not read.
    const where = resolveInsideRoot(root, rel, { purpose: 'read' });
    if (!where.ok) return { ok: false, reason: `unreadable (${where.error.code})` };
    return { ok: true, value: JSON.parse(readFileSync(where.value.absolute, 'utf8')) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, reason: code ? `unreadable (${code})` : 'not valid JSON' };
  }
}

/** The project id from relay.config.json, else the folder name (a brief can be made before `relay init`). */
export function projectIdOf(root: string): string {
  const config = loadRelayConfig(root);
  return config.ok ? config.value.projectId : path.basename(root);
}

/** Reads every finished tick under relais/history/, newest first; what does not parse is listed as skipped. */
export function loadTicks(root: string): { ticks: TickRun[]; skipped: SkippedRecord[] } {
  const dir = path.join(root, 'relais', 'history');
  const ticks: TickRun[] = [];
  const skipped: SkippedRecord[] = [];
  if (!existsSync(dir)) return { ticks, skipped };
  for (const name of readdirSync(dir).sort()) {
    const runDir = path.join(dir, name);
    if (!RUN_DIR.test(name) || !isDirectory(runDir)) continue;
    const rel = `relais/history/${name}`;
    const report = existsSync(path.join(runDir, 'report.json')) ? readJson(root, `${rel}/report.json`) : null;
    const meta = existsSync(path.join(runDir, 'meta.json')) ? readJson(root, `${rel}/meta.json`) : null;
    const run = parseTickRun(report?.ok ? report.value : null, meta?.ok ? meta.value : null, rel);
    if (run) ticks.push(run);
    else skipped.push({ path: rel, reason: report && !report.ok ? `report.json ${report.reason}` : 'no run_id, verdict and code in report.json or meta.json' });
  }
  return { ticks: sortNewestFirst(ticks, tickTime, (t) => t.runId), skipped };
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false; // a dangling symlink or an entry removed while listing
  }
}

function uniqueById<T extends { readonly id: string }>(items: readonly T[]): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(item.id)) seen.set(item.id, item);
  return [...seen.values()];
}

/** Sorts by a time key descending, ties by id ascending, so equal inputs always give one order. */
export function sortNewestFirst<T>(items: readonly T[], time: (item: T) => string, id: (item: T) => string): T[] {
  return [...items].sort((a, b) => {
    const ta = utcIso(time(a));
    const tb = utcIso(time(b));
    if (ta !== tb) return ta < tb ? 1 : -1;
    const ia = id(a);
    const ib = id(b);
    return ia < ib ? -1 : ia > ib ? 1 : 0;
  });
}

/** Loads a project's history from its files of truth and git. The only I/O of a brief. */
export async function loadProjectHistory(root: string, options: LoadHistoryOptions = {}): Promise<ProjectHistory> {
  const limit = options.limit ?? DEFAULT_HISTORY_LIMIT;
  const skipped: SkippedRecord[] = damagedRecords(root).map((d) => ({ path: path.relative(root, d.file).split(path.sep).join('/'), reason: 'damaged transaction record' }));
  const transactions = sortNewestFirst(listCommitted(root).map(summariseTransaction), (t) => t.createdAt, (t) => t.uuid).slice(0, limit);
  const tickRead = loadTicks(root);
  skipped.push(...tickRead.skipped);

  let currentTask: TickTask | null = null;
  const taskFile = path.join(root, 'relais', 'TASK.json');
  if (existsSync(taskFile)) {
    const task = readJson(root, 'relais/TASK.json');
    currentTask = task.ok ? parseTickTask(task.value) : null;
    if (!currentTask) skipped.push({ path: 'relais/TASK.json', reason: task.ok ? 'missing task_id, milestone_id, task_kind or intent' : task.reason });
  }

  const recorded = loadAnswers(root);
  skipped.push(...recorded.skipped);
  const relayAnswers = uniqueById([...recorded.answers, ...(options.relayAnswers ?? [])]);

  const isRepo = await isGitRepo(root);
  const commits = isRepo ? await readLog(root, { maxCount: limit }) : [];
  const branch = isRepo ? await currentBranch(root) : null;

  return {
    root,
    projectId: projectIdOf(root),
    git: { isRepo, branch, head: commits[0]?.sha ?? null, commits: commits.map(({ sha, date, subject }) => ({ sha, date, subject })) },
    transactions,
    ticks: tickRead.ticks.slice(0, limit),
    currentTask,
    relayAnswers: sortNewestFirst(relayAnswers, (a) => a.createdAt, (a) => a.id).slice(0, limit),
    tickEvents: sortNewestFirst(options.tickEvents ?? [], (e) => e.at, (e) => `${e.runId}\0${e.stage}`),
    skipped,
  };
}
