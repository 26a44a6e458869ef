// The store's index of the files of truth: every row of a project rebuilt from what
// engine/records reads (so history survives a lost database and shows runs made with the CLIs),
// or the rows of one changed record. The store only writes what it is given; the host's recorder
// decides when (it is the one writer of runs while the app runs).
import type BetterSqlite3 from 'better-sqlite3';
import type { ReindexSummary } from '../../shared/contract.js';
import { readProjectRuns, readRecordRuns, type ProjectRef, type RecordKind } from '../records/index.js';
import type { RunsRepository, StoredRun } from './runs.js';

export type { ProjectRef };

/** What indexing one record changed: the rows written and the ids of rows dropped. */
export interface IndexedRecord {
  readonly written: StoredRun[];
  readonly removed: string[];
}

/**
 * Replaces the project's file-indexed rows with what its files say now: rows are upserted
 * (keeping the task link and app detail of runs the app made), and rows whose file is gone are
 * dropped. Rows only the app knows (rejected patches, failed asks and reviews) are left alone.
 */
export function reindexProject(db: BetterSqlite3.Database, runs: RunsRepository, project: ProjectRef): ReindexSummary {
  const read = readProjectRuns(project);
  let removed = 0;
  db.transaction(() => {
    const keep = new Set(read.runs.map((r) => r.id));
    for (const id of runs.fileRunIds(project.projectId)) {
      if (!keep.has(id) && runs.remove(id)) removed += 1;
    }
    for (const run of read.runs) runs.upsert(run);
  })();
  return { projectId: project.projectId, patches: read.patches, ticks: read.ticks, removed, skipped: read.skipped };
}

/**
 * Indexes one record (a transaction, a tick, an answer or a brief) as its files say now: its row
 * (linked to `taskId` when the app's task made it) and the rows it changed, or, when its file is
 * gone, drops its file-indexed row (a row only the app knows stays).
 */
export function indexRecord(db: BetterSqlite3.Database, runs: RunsRepository, project: ProjectRef, kind: RecordKind, key: string, taskId: string | null): IndexedRecord {
  const read = readRecordRuns(project, kind, key);
  const written: StoredRun[] = read.runs.map((run, i) => (i === 0 ? { ...run, taskId } : run));
  const removed: string[] = [];
  db.transaction(() => {
    for (const id of read.gone) if (runs.removeIndexed(id)) removed.push(id);
    for (const run of written) runs.upsert(run);
  })();
  return { written, removed };
}
