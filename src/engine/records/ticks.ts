// The one reader of the tick runner's files of truth: each tick's history folder
// (`<history.dir>/<run_id>/`: report.json, meta.json, report.md, verify.log, diff.patch,
// commit.json) and the workspace files a brief and the run detail show (STATE.json, TASK.json,
// REPORT.json, REPORT.md). Both folders are where relais.config.json puts them. Only report.json
// has a schema; the rest is read tolerantly, and never through a link.
import { tickOwnedPaths } from '../fs/protected.js';
import { checkRelativePath, normaliseRelativePath } from '../fs/safe-path.js';
import { recordFolders } from './folders.js';
import { folderTime, joinRecordPath, listRecordSubfolders, readRecordJson, readRecordTextOrNull, recordFolder, type Skipped } from './own-files.js';

type Json = Record<string, unknown>;

/** A tick's run id as a history folder name: checked before any path is built from it. */
export const TICK_RUN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** The file "Approve & commit" writes beside a tick's report. */
export const COMMIT_FILE = 'commit.json';

/** What commit.json holds. */
export interface TickCommitRecord {
  readonly run_id: string;
  readonly commit: string;
  readonly parent: string;
  readonly message: string;
  readonly paths: readonly string[];
  readonly committed_at: string;
}

/** One tick's history folder, read. */
export interface TickFiles {
  readonly runId: string;
  /** Project-relative folder, forward slashes. */
  readonly folder: string;
  readonly report: Json | null;
  readonly meta: Json | null;
  /** When the folder last changed: the time of a tick whose files carry none. */
  readonly folderTime: string;
  readonly commit: TickCommitRecord | null;
}

/** The run ids of the ticks in `history` (real folders with a run id's name), sorted. */
function runIdsIn(root: string, history: string): string[] {
  return listRecordSubfolders(root, history).filter((name) => TICK_RUN_ID.test(name));
}

/** The run ids of the ticks in the history folder (real folders with a run id's name), sorted. */
export function listTickRunIds(root: string): string[] {
  return runIdsIn(root, recordFolders(root).tick);
}

/** The project-relative folder of tick `runId`. */
export function tickFolder(root: string, runId: string): string {
  return joinRecordPath(recordFolders(root).tick, runId);
}

function commitIn(root: string, folder: string, runId: string): TickCommitRecord | null {
  const data = readRecordJson(root, folder, COMMIT_FILE).value;
  if (!data || typeof data.commit !== 'string' || typeof data.message !== 'string') return null;
  return {
    run_id: typeof data.run_id === 'string' ? data.run_id : runId,
    commit: data.commit,
    parent: typeof data.parent === 'string' ? data.parent : '',
    message: data.message,
    paths: Array.isArray(data.paths) ? data.paths.filter((p): p is string => typeof p === 'string') : [],
    committed_at: typeof data.committed_at === 'string' ? data.committed_at : '',
  };
}

/** commit.json of a tick, when it was committed this way (null otherwise, or for an unsafe id). */
export function readTickCommit(root: string, runId: string): TickCommitRecord | null {
  return TICK_RUN_ID.test(runId) ? commitIn(root, tickFolder(root, runId), runId) : null;
}

type TickRead = { tick: TickFiles } | { skipped: Skipped } | null;

function readTickIn(root: string, history: string, runId: string): TickRead {
  const folder = joinRecordPath(history, runId);
  if (!TICK_RUN_ID.test(runId)) return { skipped: { file: folder, reason: 'not a run id' } };
  if (!recordFolder(root, folder)) return null;
  const report = readRecordJson(root, folder, 'report.json');
  const meta = readRecordJson(root, folder, 'meta.json');
  if (!report.value && !meta.value) {
    return { skipped: { file: folder, reason: report.error ? `report.json: ${report.error}` : meta.error ? `meta.json: ${meta.error}` : 'no report.json or meta.json (yet)' } };
  }
  return { tick: { runId, folder, report: report.value, meta: meta.value, folderTime: folderTime(root, folder), commit: commitIn(root, folder, runId) } };
}

/**
 * Reads tick `runId`'s history folder: its report.json and meta.json (either may be missing,
 * a tick that could not report still has meta.json). Null when there is no such folder (or it
 * is a link); the reason when neither file can be used.
 */
export function readTickFiles(root: string, runId: string): TickRead {
  return readTickIn(root, recordFolders(root).tick, runId);
}

/** Every tick in the history folder, and the folders that are not (yet) a tick to show. */
export function scanTicks(root: string): { ticks: TickFiles[]; skipped: Skipped[] } {
  const history = recordFolders(root).tick;
  const ticks: TickFiles[] = [];
  const skipped: Skipped[] = [];
  for (const runId of runIdsIn(root, history)) {
    const read = readTickIn(root, history, runId);
    if (!read) continue;
    if ('tick' in read) ticks.push(read.tick);
    else skipped.push(read.skipped);
  }
  return { ticks, skipped };
}

/** A text file of tick `runId`'s history folder (report.md, verify.log, diff.patch), or null. */
export function readTickText(root: string, runId: string, name: 'report.md' | 'verify.log' | 'diff.patch'): string | null {
  return TICK_RUN_ID.test(runId) ? readRecordTextOrNull(root, tickFolder(root, runId), name) : null;
}

/** A JSON file of the tick workspace (STATE.json, TASK.json, REPORT.json), with why it is unusable when it is. */
export function readWorkspaceJson(root: string, name: 'STATE.json' | 'TASK.json' | 'REPORT.json'): { readonly value: Json | null; readonly error: string | null; readonly file: string } {
  const folder = recordFolders(root).tickWorkspace;
  return { ...readRecordJson(root, folder, name), file: joinRecordPath(folder, name) };
}

/** A text file of the tick workspace (REPORT.md), or null. */
export function readWorkspaceText(root: string, name: 'REPORT.md'): { readonly text: string | null; readonly file: string } {
  const folder = recordFolders(root).tickWorkspace;
  return { text: readRecordTextOrNull(root, folder, name), file: joinRecordPath(folder, name) };
}

/**
 * The newest tick in history with a report. Run ids start with their start time to the second
 * only, so two ticks in one second sort by their random suffix: order by report.started_at first.
 */
export function latestTickWithReport(root: string): string | null {
  const history = recordFolders(root).tick;
  const ticks = runIdsIn(root, history).flatMap((runId) => {
    const report = readRecordJson(root, joinRecordPath(history, runId), 'report.json').value;
    return report ? [{ runId, at: typeof report.started_at === 'string' ? report.started_at : '' }] : [];
  });
  ticks.sort((x, y) => (x.at !== y.at ? (x.at < y.at ? -1 : 1) : x.runId < y.runId ? -1 : x.runId > y.runId ? 1 : 0));
  return ticks.at(-1)?.runId ?? null;
}

/** The paths a tick's report says it touched, checked. */
export interface ReportedPaths {
  /** Normalised, sorted, each once: the paths besides the runner's own. */
  readonly paths: string[];
  /** The report's list ends with "… and N more": it does not name every path. */
  readonly truncated: boolean;
  /** Paths no tick may touch (".git", Relay Desk's config or state, out of the project), with their code. */
  readonly refused: string[];
}

/**
 * The paths a report's `scope.touched_paths` lists, each through the path chokepoint: a report is
 * input like an answer, so a planted one cannot make Relay Desk act on `.git`, its own config or
 * state, or a path out of the project. `runnerOwned` paths (the tick's workspace and history) are
 * left out first: they are the runner's, never a change of the tick's.
 */
export function reportedTouchedPaths(root: string, report: Json, runnerOwned: (path: string) => boolean): ReportedPaths {
  const scope = (report.scope ?? {}) as Json;
  const listed = Array.isArray(scope.touched_paths) ? scope.touched_paths.filter((p): p is string => typeof p === 'string') : [];
  const tickOwned = tickOwnedPaths(root);
  const outsideRunner = listed.filter((p) => !runnerOwned(p));
  const refused = outsideRunner.flatMap((p) => {
    const checked = checkRelativePath(p, { tickOwned });
    return checked.ok ? [] : [`${p} (${checked.error.code})`];
  });
  const paths = refused.length > 0 ? [] : [...new Set(outsideRunner.map((p) => normaliseRelativePath(p)!))].sort();
  return { paths, truncated: listed.some((p) => p.startsWith('… and ')), refused };
}
