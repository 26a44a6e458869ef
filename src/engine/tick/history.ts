import { lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';

/** What one tick leaves in history/<run_id>/ (absent entries are not written). */
export interface HistoryFiles {
  readonly meta: unknown;
  readonly report?: unknown;
  readonly reportMd?: string;
  readonly diffPatch?: string;
  readonly verifyLog?: string;
  readonly blocked?: unknown;
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * Writes history/<run_id>/{meta.json, report.json, report.md, diff.patch, verify.log}. Each file
 * is renamed into place whole, but without fsync: history is a record, REPORT.json and STATE.json
 * are the durable truth. meta.json comes last: its presence says the entry is complete.
 */
export function writeHistory(historyDir: string, runId: string, files: HistoryFiles): string {
  const dir = path.join(historyDir, runId);
  mkdirSync(dir, { recursive: true });
  const copy = { durable: false };
  if (files.report !== undefined) writeFileAtomic(path.join(dir, 'report.json'), json(files.report), copy);
  if (files.reportMd !== undefined) writeFileAtomic(path.join(dir, 'report.md'), files.reportMd, copy);
  if (files.diffPatch !== undefined) writeFileAtomic(path.join(dir, 'diff.patch'), files.diffPatch, copy);
  if (files.verifyLog !== undefined) writeFileAtomic(path.join(dir, 'verify.log'), files.verifyLog, copy);
  if (files.blocked !== undefined) writeFileAtomic(path.join(dir, 'blocked.json'), json(files.blocked), copy);
  writeFileAtomic(path.join(dir, 'meta.json'), json(files.meta), copy);
  return dir;
}

/** Total size in bytes of the files under `dir` (0 when it does not exist). */
export function folderSizeBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const absolute = path.join(dir, name);
    const stat = lstatSync(absolute);
    total += stat.isDirectory() ? folderSizeBytes(absolute) : stat.size;
  }
  return total;
}
