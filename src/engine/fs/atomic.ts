import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, realpathSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes a file so that readers see either the old or the new content, never a mix:
 * write a sibling temp file, fsync it, rename over the target, then fsync the folder.
 * `durable: false` keeps the rename but skips both fsyncs, for copies that can be rebuilt.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array, options: { mode?: number; durable?: boolean; expectedDir?: string } = {}): void {
  const durable = options.durable ?? true;
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true });
  // Web Crypto's CSPRNG (the same as node:crypto's), loaded on first write rather than by every
  // module that may write: a command that only reads does not pay for node:crypto.
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(4))).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'w', options.mode ?? 0o644);
  try {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(fd, buffer, offset, buffer.length - offset);
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    // The path chokepoint resolved the folder just before; a folder swapped for a link since then
    // must not receive the file (engine/fs/safe-path.ts).
    if (options.expectedDir !== undefined && realpathSync(dir) !== options.expectedDir) throw new Error(`${dir} changed while it was being written (it now leads elsewhere); nothing was written there.`);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
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

/** Removes temp files left by an interrupted atomic write in `dir` (not recursive). */
export function removeStaleTempFiles(dir: string, pattern: RegExp = /^\..+\.tmp$/): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (pattern.test(name)) {
      rmSync(path.join(dir, name), { force: true });
      removed.push(name);
    }
  }
  return removed;
}
