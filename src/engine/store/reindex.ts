// Rebuilding a project's history rows from its files of truth, so history survives a lost
// database and shows runs made with the CLIs.
import type BetterSqlite3 from 'better-sqlite3';
import type { ReindexSummary } from '../../shared/contract.js';
import { patchRunFromRecord, readAnswerRuns, readPatchRecord, readPatchRuns, readTickRun, readTickRuns } from './files-of-truth.js';
import type { RunsRepository, StoredRun } from './runs.js';

export interface ProjectRef {
  readonly projectId: string;
  readonly root: string;
}

/**
 * Replaces the project's file-indexed rows with what its files say now: rows are upserted
 * (keeping the task link and app detail of runs the app made), and rows whose file is gone are
 * dropped. Rows only the app knows (rejected patches, failed asks and reviews) are left alone.
 */
export function reindexProject(db: BetterSqlite3.Database, runs: RunsRepository, project: ProjectRef): ReindexSummary {
  const patches = readPatchRuns(project.projectId, project.root);
  const ticks = readTickRuns(project.projectId, project.root);
  const answers = readAnswerRuns(project.projectId, project.root);
  const fresh = [...patches.runs, ...ticks.runs, ...answers.runs];
  let removed = 0;
  db.transaction(() => {
    const keep = new Set(fresh.map((r) => r.id));
    for (const id of runs.fileRunIds(project.projectId)) {
      if (!keep.has(id) && runs.remove(id)) removed += 1;
    }
    for (const run of fresh) runs.upsert(run);
  })();
  return { projectId: project.projectId, patches: patches.runs.length, ticks: ticks.runs.length, removed, skipped: [...patches.skipped, ...ticks.skipped, ...answers.skipped] };
}

/** Indexes one transaction record (and the one it reverts, whose state it changed). */
export function indexPatch(runs: RunsRepository, project: ProjectRef, uuid: string, taskId: string | null): StoredRun | null {
  const found = readPatchRecord(project.root, uuid);
  if (!found) return null;
  const run: StoredRun = { ...patchRunFromRecord(project.projectId, found.record, found.pending), taskId };
  runs.upsert(run);
  const reverted = found.record.revertOf ? readPatchRecord(project.root, found.record.revertOf) : null;
  if (reverted) runs.upsert(patchRunFromRecord(project.projectId, reverted.record, reverted.pending));
  return run;
}

/** Indexes one tick from relais/history/<dir>/. */
export function indexTick(runs: RunsRepository, project: ProjectRef, dir: string, taskId: string | null): StoredRun | null {
  const read = readTickRun(project.projectId, project.root, dir);
  if (!('run' in read)) return null;
  const run: StoredRun = { ...read.run, taskId };
  runs.upsert(run);
  return run;
}
