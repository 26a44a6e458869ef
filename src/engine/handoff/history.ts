// A project's recorded history as one plain value: the only input of the brief synthesizer
// besides the clock and the gap-fill. `loadProjectHistory` is the one place that reads it from
// disk (the files of truth plus `git log`); the app's store can build the same value from its
// index and add what only it holds (relay/review answers, live tick events).
import path from 'node:path';
import { loadRelayConfig } from '../patch/config.js';
import { currentTask, loadAnswers, loadTicks, scanCommitted, summariseTransaction, tickTime, type RecordedAnswer, type TickRun, type TickTask, type TransactionSummary } from '../records/index.js';
import { currentBranch } from '../git/commit.js';
import { isGitRepo } from '../git/core.js';
import { readLog } from '../git/log.js';
import { utcIso } from './text.js';

export type { TransactionSummary };

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

/** The project id from relay.config.json, else the folder name (a brief can be made before `relay init`). */
export function projectIdOf(root: string): string {
  const config = loadRelayConfig(root);
  return config.ok ? config.value.projectId : path.basename(root);
}

/** Every finished tick of the history folder relais.config.json names, newest first; what does not parse is listed as skipped. */
export function loadTickHistory(root: string): { ticks: TickRun[]; skipped: SkippedRecord[] } {
  const read = loadTicks(root);
  return { ticks: sortNewestFirst(read.ticks, tickTime, (t) => t.runId), skipped: read.skipped.map((s) => ({ path: s.file, reason: s.reason })) };
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
  const committed = scanCommitted(root);
  const skipped: SkippedRecord[] = committed.damaged.map((d) => ({ path: path.relative(root, d.file).split(path.sep).join('/'), reason: 'damaged transaction record' }));
  const transactions = sortNewestFirst(committed.records.map(summariseTransaction), (t) => t.createdAt, (t) => t.uuid).slice(0, limit);
  const tickRead = loadTickHistory(root);
  skipped.push(...tickRead.skipped);

  const task = currentTask(root);
  const currentTaskValue: TickTask | null = task.task;
  if (task.skipped) skipped.push({ path: task.skipped.file, reason: task.skipped.reason });

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
    currentTask: currentTaskValue,
    relayAnswers: sortNewestFirst(relayAnswers, (a) => a.createdAt, (a) => a.id).slice(0, limit),
    tickEvents: sortNewestFirst(options.tickEvents ?? [], (e) => e.at, (e) => `${e.runId}\0${e.stage}`),
    skipped,
  };
}
