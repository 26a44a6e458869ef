import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveInsideRoot } from '../fs/safe-path.js';
import { assertNever } from '../result.js';
import { relativeToRoot } from './workspace.js';

/**
 * Files Claude must not change but git cannot see (they are ignored, or under .git/): their
 * fingerprints before the builder runs, and the content needed to put them back.
 */
export interface FileSnapshot {
  /** Root-relative path → fingerprint (a content hash, or stat data for history files). */
  readonly fingerprints: ReadonlyMap<string, string>;
  /** Root-relative path → content and mode, for every file that can be restored. */
  readonly contents: ReadonlyMap<string, { readonly content: Buffer; readonly mode: number }>;
}

interface SnapshotSpec {
  /** Folders walked recursively. */
  readonly dirs: readonly string[];
  /** Single files (taken when they exist). */
  readonly files: readonly string[];
  /**
   * Folders whose files are fingerprinted by stat (size, mtime, ctime, inode) instead of by
   * content: history grows to hundreds of MB and is never rewritten, and any write changes ctime.
   */
  readonly statOnly: readonly string[];
  /**
   * Folders whose direct entries are fingerprinted but whose subfolders are not walked
   * (.relaycode: its records and lock matter; answers/ and handoffs/ are written by the app
   * while a tick runs and are never acted on as commands).
   */
  readonly flat?: readonly string[];
}

/**
 * Collects files into `out` and folders into `dirs`. Folders count too: an empty folder made
 * where a runner file goes (relais/REPORT.json/) is invisible to git and would stop the runner
 * from writing its report.
 */
function walk(dir: string, out: string[], dirs: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const absolute = path.join(dir, name);
    const stat = lstatSync(absolute);
    if (stat.isDirectory()) {
      dirs.push(absolute);
      walk(absolute, out, dirs);
    } else out.push(absolute);
  }
}

const DIR_FINGERPRINT = 'dir';

/** Fingerprints every file and folder of `spec` under `root`. */
export function takeSnapshot(root: string, spec: SnapshotSpec): FileSnapshot {
  const fingerprints = new Map<string, string>();
  const contents = new Map<string, { content: Buffer; mode: number }>();
  const absolute: string[] = [];
  const dirs: string[] = [];
  for (const dir of spec.dirs) walk(dir, absolute, dirs);
  for (const dir of spec.flat ?? []) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      // absent: nothing to fingerprint
    }
    for (const name of names) {
      const entry = path.join(dir, name);
      if (lstatSync(entry).isDirectory()) dirs.push(entry);
      else absolute.push(entry);
    }
  }
  for (const dir of dirs) fingerprints.set(relativeToRoot(root, dir), DIR_FINGERPRINT);
  for (const file of spec.files) if (existsSync(file) && !absolute.includes(file)) absolute.push(file);
  const statOnly = spec.statOnly.map((d) => d + path.sep);
  for (const file of absolute) {
    const rel = relativeToRoot(root, file);
    if (statOnly.some((d) => file.startsWith(d))) {
      const s = lstatSync(file);
      fingerprints.set(rel, `stat:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.ino}`);
      continue;
    }
    try {
      const s = lstatSync(file);
      if (s.isSymbolicLink()) {
        fingerprints.set(rel, `link:${readlinkSync(file)}`);
        continue;
      }
      const content = readFileSync(file);
      fingerprints.set(rel, `sha256:${createHash('sha256').update(content).digest('hex')}`);
      contents.set(rel, { content, mode: s.mode & 0o777 });
    } catch {
      // vanished while we looked: it is simply not part of the snapshot
    }
  }
  return { fingerprints, contents };
}

/** Paths created, changed or removed between two snapshots, sorted. */
export function changedPaths(before: FileSnapshot, after: FileSnapshot): string[] {
  const out = new Set<string>();
  for (const [rel, print] of before.fingerprints) if (after.fingerprints.get(rel) !== print) out.add(rel);
  for (const rel of after.fingerprints.keys()) if (!before.fingerprints.has(rel)) out.add(rel);
  return [...out].sort();
}

/**
 * How one guarded path is put back, in a form that can be written down (the rollback intent,
 * relais/ROLLBACK.json) and applied again after a crash: its content, "absent", "a folder", or
 * "lost" (a stat-only file whose content was not kept).
 */
export type RestoreEntry =
  | { readonly path: string; readonly kind: 'file'; readonly content: string; readonly mode: number }
  | { readonly path: string; readonly kind: 'absent' }
  | { readonly path: string; readonly kind: 'dir' }
  | { readonly path: string; readonly kind: 'lost' };

/** The restore entries for `paths`, from the snapshot taken before (file content base64). */
export function restoreEntries(before: FileSnapshot, paths: readonly string[]): RestoreEntry[] {
  return paths.map((rel): RestoreEntry => {
    const kept = before.contents.get(rel);
    if (kept !== undefined) return { path: rel, kind: 'file', content: kept.content.toString('base64'), mode: kept.mode };
    if (!before.fingerprints.has(rel)) return { path: rel, kind: 'absent' };
    if (before.fingerprints.get(rel) === DIR_FINGERPRINT) return { path: rel, kind: 'dir' };
    return { path: rel, kind: 'lost' };
  });
}

/**
 * Puts the entries' paths back: rewrites changed files, removes created ones, brings folders
 * back. Idempotent. Returns the paths it could not restore (stat-only files whose content was not kept).
 */
export function applyRestoreEntries(root: string, entries: readonly RestoreEntry[]): string[] {
  const lost: string[] = [];
  for (const entry of entries) {
    // Through the path chokepoint (the entries may come back from the rollback plan on disk): a
    // folder the builder swapped for a link leading out of the repository is not written
    // through; the file is reported as not restored instead.
    const where = resolveInsideRoot(root, entry.path, { purpose: 'cleanup' });
    if (!where.ok) {
      lost.push(entry.path);
      continue;
    }
    const absolute = where.value.absolute;
    switch (entry.kind) {
      case 'file':
        rmSync(absolute, { recursive: true, force: true });
        mkdirSync(path.dirname(absolute), { recursive: true });
        writeFileSync(absolute, Buffer.from(entry.content, 'base64'), { mode: entry.mode });
        break;
      case 'absent':
        rmSync(absolute, { recursive: true, force: true });
        break;
      case 'dir':
        // A folder replaced by a file or a link: the folder comes back (its files follow: paths are sorted).
        if (!existsSync(absolute) || !lstatSync(absolute).isDirectory()) {
          rmSync(absolute, { recursive: true, force: true });
          mkdirSync(absolute, { recursive: true });
        }
        break;
      case 'lost':
        lost.push(entry.path);
        break;
      default:
        assertNever(entry);
    }
  }
  return lost;
}
