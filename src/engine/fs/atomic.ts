import { closeSync, fsyncSync, lstatSync, openSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { bootTimeMs, isProcessAlive } from './process.js';
import { nodeIo, type WriteIo } from './write-io.js';

/** Options of an atomic write. */
export interface AtomicWriteOptions {
  readonly mode?: number;
  /** false keeps the rename but skips both fsyncs, for copies that can be rebuilt. */
  readonly durable?: boolean;
  /** The file-system calls to use (tests inject failures here). */
  readonly io?: WriteIo;
  /**
   * The real path the folder had when the path chokepoint resolved it: checked again just before
   * the rename, so a folder swapped for a link since then never receives the file.
   */
  readonly expectedDir?: string;
}

/** A write that failed, with the file it was for (the temp file is already removed). */
export class FileWriteError extends Error {
  override readonly name = 'FileWriteError';
  constructor(
    /** The file the write was for (absolute). */
    readonly file: string,
    /** The errno code (ENOSPC, EROFS, EACCES, EIO, ...), or '' when there was none. */
    readonly code: string,
    cause: unknown,
  ) {
    super(`${file}: ${describeErrno(cause)}`, { cause });
  }
}

const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
  EISDIR: 'a folder is in the way',
  ENOTDIR: 'a file is in the way of a folder',
  EBUSY: 'the file is busy',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
};

/** "no space left on device (ENOSPC)": the cause of a file-system error in words, without a stack. */
export function describeErrno(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && CAUSES[code]) return `${CAUSES[code]} (${code})`;
  if (code) return code;
  return error instanceof Error ? error.message : String(error);
}

/** The name of a temp file for `file`: `.<name>.<pid>.<8 hex>.tmp` beside it. */
export function tempNameFor(file: string): string {
  // node:crypto's CSPRNG, taken on the first write rather than imported by every module that may
  // write: a command that only reads does not load node:crypto (nor, as globalThis.crypto would,
  // Web Crypto's modules on top of it when a writing command has loaded node:crypto anyway).
  const random = process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex');
  return path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${random}.tmp`);
}

/**
 * Writes a file so that readers see either the old or the new content, never a mix:
 * write a sibling temp file, fsync it, rename over the target, then fsync the folder.
 * On any failure (open, write, fsync, close, rename) the temp file is removed and a
 * FileWriteError naming `file` is thrown.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const io = options.io ?? nodeIo;
  const durable = options.durable ?? true;
  const dir = path.dirname(file);
  const tmp = tempNameFor(file);
  let fd: number | undefined;
  let created = false;
  try {
    io.mkdir(dir);
    fd = io.open(tmp, 'wx', options.mode ?? 0o644);
    created = true;
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let offset = 0;
    while (offset < buffer.length) offset += io.write(fd, buffer, offset, buffer.length - offset);
    if (durable) io.fsync(fd);
    const open = fd;
    fd = undefined;
    io.close(open);
    // The path chokepoint resolved the folder just before; a folder swapped for a link since then
    // must not receive the file (engine/fs/safe-path.ts).
    if (options.expectedDir !== undefined && realpathSync(dir) !== options.expectedDir) {
      throw new Error(`${dir} changed while it was being written (it now leads elsewhere); nothing was written there.`);
    }
    io.rename(tmp, file);
    created = false;
  } catch (error) {
    if (fd !== undefined) {
      try {
        io.close(fd);
      } catch {
        // the descriptor is gone either way
      }
    }
    if (created) {
      try {
        io.remove(tmp);
      } catch {
        // Could not remove it now (the disk refuses even that): recovery sweeps it, its pid being dead.
      }
    }
    throw error instanceof FileWriteError ? error : new FileWriteError(file, (error as NodeJS.ErrnoException).code ?? '', error);
  }
  if (durable) fsyncDir(dir);
}

/** Flushes a folder's entries (a rename is only durable once its folder is synced). */
export function fsyncDir(dir: string): void {
  if (process.platform === 'win32') return; // folders cannot be opened for fsync on Windows
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on folders; the rename itself is still atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

// `.lock` too: git's lock beside a private index named like a temp file (see git/capture.ts).
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp(\.lock)?$/;

/**
 * True when the temp file `name` (in `dir`) may belong to a write still in progress: its pid is
 * running, and the file was made on this boot. Our own pid counts as running.
 */
export function tempWriterMayRun(dir: string, name: string, isAlive: (pid: number) => boolean = isProcessAlive): boolean {
  const match = TEMP_NAME.exec(name);
  if (!match) return false;
  const pid = Number(match[1]);
  if (pid === process.pid) return true;
  if (!isAlive(pid)) return false;
  try {
    return lstatSync(path.join(dir, name)).mtimeMs >= bootTimeMs() - 60_000; // a pid alive now but on an older boot is someone else
  } catch {
    return false;
  }
}

/**
 * Removes the temp files of atomic writes in `dir` (not recursive) whose writer no longer runs:
 * `.<name>.<pid>.<hex>.tmp` with a dead pid (or made before this boot). Returns the names removed.
 */
export function sweepTempFiles(dir: string, options: { io?: WriteIo; isAlive?: (pid: number) => boolean } = {}): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!TEMP_NAME.test(name) || tempWriterMayRun(dir, name, options.isAlive)) continue;
    (options.io ?? nodeIo).remove(path.join(dir, name));
    removed.push(name);
  }
  return removed;
}
