// Files touched, v1: joined from what the records name (patch transactions, tick reports) and from
// `git log --name-only` over recent commits and each tick's commit range. The git read is the
// synthesizer's one declared side effect (D-02); it is lossy, since uncommitted edits made outside
// Relay Desk appear nowhere, and the rendered brief says so.
import { readLog } from '../git/log.js';
import type { ProjectHistory } from './history.js';
import type { FileTouch } from './types.js';

/** One commit with the files it touched. */
export interface CommitFiles {
  readonly sha: string;
  readonly date: string;
  readonly subject: string;
  readonly files: readonly string[];
}

/** What the synthesizer asks git for: recent commits, plus each tick's `base..head` range. */
export interface CommitFilesRequest {
  readonly maxCount: number;
  readonly ranges: readonly string[];
}

/** The declared side effect, injectable so tests and the app's store can supply their own. */
export type CommitFilesReader = (root: string, request: CommitFilesRequest) => Promise<readonly CommitFiles[]>;

/** How many recent commits the brief scans for files. */
export const FILES_TOUCHED_MAX_COMMITS = 20;
/** How many of the newest ticks get their own commit range scanned. */
const MAX_TICK_RANGES = 5;

const SHA = /^[0-9a-f]{7,64}$/;

/** The ranges to scan: `base..head` of the newest ticks that moved HEAD (only well-formed shas). */
export function tickCommitRanges(history: ProjectHistory): string[] {
  const ranges: string[] = [];
  for (const tick of history.ticks) {
    if (ranges.length >= MAX_TICK_RANGES) break;
    const { baseCommit: base, headCommit: head } = tick;
    if (base && head && base !== head && SHA.test(base) && SHA.test(head)) ranges.push(`${base}..${head}`);
  }
  return ranges;
}

/** Reads commits and their files with `git log --name-only`, newest first, each commit once. */
export const readCommitFiles: CommitFilesReader = async (root, request) => {
  const seen = new Set<string>();
  const out: CommitFiles[] = [];
  const add = (entries: readonly CommitFiles[]): void => {
    for (const entry of entries) {
      if (seen.has(entry.sha)) continue;
      seen.add(entry.sha);
      out.push({ sha: entry.sha, date: entry.date, subject: entry.subject, files: entry.files });
    }
  };
  add(await readLog(root, { maxCount: request.maxCount, nameOnly: true }));
  for (const range of request.ranges) {
    try {
      add(await readLog(root, { maxCount: request.maxCount, range, nameOnly: true }));
    } catch {
      // A tick range whose commits are gone (rebased, gc'd) names nothing we can still read.
    }
  }
  return out;
};

/** Joins the records' files and the commits' files into one list, most touched first. */
export function collectFileTouches(history: ProjectHistory, commits: readonly CommitFiles[]): FileTouch[] {
  const byPath = new Map<string, { added: number; removed: number; sources: Set<FileTouch['sources'][number]>; times: number }>();
  const touch = (file: string, source: FileTouch['sources'][number], added = 0, removed = 0): void => {
    const entry = byPath.get(file) ?? { added: 0, removed: 0, sources: new Set(), times: 0 };
    entry.added += added;
    entry.removed += removed;
    entry.sources.add(source);
    entry.times += 1;
    byPath.set(file, entry);
  };
  for (const transaction of history.transactions) for (const f of transaction.files) touch(f.path, 'patch', f.added, f.removed);
  for (const tick of history.ticks) for (const file of new Set(tick.touchedPaths)) touch(file, 'tick');
  for (const commit of commits) for (const file of new Set(commit.files)) touch(file, 'commit');
  const order: ReadonlyArray<FileTouch['sources'][number]> = ['patch', 'tick', 'commit'];
  return [...byPath.entries()]
    .map(([file, e]) => ({ path: file, added: e.added, removed: e.removed, sources: order.filter((s) => e.sources.has(s)), times: e.times }))
    .sort((a, b) => b.times - a.times || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
