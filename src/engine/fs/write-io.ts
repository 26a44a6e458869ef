// The file-system calls that change a disk, behind one small interface, so that a test (and
// the fault harness, through the CLI's RELAY_IO_FAULT hook) can make any single step fail the
// way a full or read-only disk does, and check that nothing is left mixed.
import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Every call a write makes that can fail on a full, read-only or broken disk. */
export interface WriteIo {
  open(file: string, flags: 'wx', mode: number): number;
  write(fd: number, buffer: Uint8Array, offset: number, length: number): number;
  fsync(fd: number): void;
  close(fd: number): void;
  rename(from: string, to: string): void;
  link(existing: string, target: string): void;
  /** Removes a file or folder tree; no error when it is missing. */
  remove(file: string): void;
  mkdir(dir: string): void;
}

/** The real file system. */
export const nodeIo: WriteIo = {
  open: (file, flags, mode) => openSync(file, flags, mode),
  write: (fd, buffer, offset, length) => writeSync(fd, buffer, offset, length),
  fsync: (fd) => fsyncSync(fd),
  close: (fd) => closeSync(fd),
  rename: (from, to) => renameSync(from, to),
  link: (existing, target) => linkSync(existing, target),
  remove: (file) => rmSync(file, { force: true, recursive: true }),
  mkdir: (dir) => {
    mkdirSync(dir, { recursive: true });
  },
};

/** An errno-style error, as Node's fs throws them. */
export function errnoError(code: string, syscall: string, file: string): NodeJS.ErrnoException {
  const messages: Record<string, string> = { ENOSPC: 'no space left on device', EROFS: 'read-only file system', EACCES: 'permission denied', EIO: 'i/o error', EDQUOT: 'disk quota exceeded' };
  const error = new Error(`${code}: ${messages[code] ?? 'failed'}, ${syscall} '${file}'`) as NodeJS.ErrnoException;
  error.code = code;
  error.syscall = syscall;
  error.path = file;
  return error;
}

/** Where a failing io stopped: its step number, and what it was doing. */
export interface InjectedFault {
  readonly step: number;
  readonly call: string;
  readonly file: string;
}

/**
 * A WriteIo that fails its `failAt`-th mutating call (1-based; open, write, fsync, rename, link,
 * remove and mkdir each count) with `code`, and from then on every call when `sticky` (a disk
 * that stays full or read-only). `only` limits the fault to paths under one folder.
 */
export function failingIo(options: { failAt: number; code: string; sticky?: boolean; only?: string; base?: WriteIo; onFault?: (fault: InjectedFault) => void }): WriteIo & { readonly steps: () => number } {
  const base = options.base ?? nodeIo;
  let steps = 0;
  let failed = false;
  const fds = new Map<number, string>();
  const step = (call: string, file: string): void => {
    if (options.only && !path.resolve(file).startsWith(path.resolve(options.only))) return;
    steps += 1;
    if (steps === options.failAt || (failed && options.sticky)) {
      failed = true;
      options.onFault?.({ step: steps, call, file });
      throw errnoError(options.code, call, file);
    }
  };
  return {
    steps: () => steps,
    open(file, flags, mode) {
      step('open', file);
      const fd = base.open(file, flags, mode);
      fds.set(fd, file);
      return fd;
    },
    write(fd, buffer, offset, length) {
      step('write', fds.get(fd) ?? '?');
      return base.write(fd, buffer, offset, length);
    },
    fsync(fd) {
      step('fsync', fds.get(fd) ?? '?');
      base.fsync(fd);
    },
    close(fd) {
      fds.delete(fd);
      base.close(fd); // closing never fails on a full disk in a way that matters here
    },
    rename(from, to) {
      step('rename', to);
      base.rename(from, to);
    },
    link(existing, target) {
      step('link', target);
      base.link(existing, target);
    },
    remove(file) {
      step('remove', file);
      base.remove(file);
    },
    mkdir(dir) {
      step('mkdir', dir);
      base.mkdir(dir);
    },
  };
}
