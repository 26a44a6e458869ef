// Crash recovery acts on a pending record only when this repository's own git folder vouches for
// it. A pending record is a plan to overwrite files ("put back what was there"), and `.relaycode/`
// is input like any other file of the project: a clone, a copied folder or a `git rm --cached`
// can leave one that Relay Desk never wrote. Nothing inside `.git` comes with a clone, so a
// voucher written there before the record (and removed after it) tells our own records from
// planted ones. A project outside git has no such place; its records are judged on their own.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { fsyncDir, writeFileAtomic } from '../fs/atomic.js';
import { nodeIo, type WriteIo } from '../fs/write-io.js';

const VOUCHER_DIR = path.join('relay-desk', 'pending');
const UUID = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * The git folder of the repository `root` belongs to: the nearest `.git` folder at or above it,
 * or where a `.git` file (a worktree, a submodule) points. Null outside any repository.
 */
export function gitDirOf(root: string): string | null {
  let dir: string;
  try {
    dir = realpathSync(root);
  } catch {
    return null;
  }
  for (;;) {
    const dotGit = path.join(dir, '.git');
    const stat = lstatOrNull(dotGit);
    if (stat?.isDirectory()) return dotGit;
    if (stat?.isFile()) {
      const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'))?.[1]?.trim();
      if (pointer) {
        const target = path.resolve(dir, pointer);
        if (existsSync(target) && statSync(target).isDirectory()) return target;
      }
      return null;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function lstatOrNull(file: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

function realRoot(root: string): string {
  try {
    return realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

function voucherFile(gitDir: string, uuid: string): string {
  return path.join(gitDir, VOUCHER_DIR, uuid);
}

/** Writes the voucher for transaction `uuid` (durably: it must outlive a power cut whenever its record does). */
export function vouch(root: string, uuid: string, io: WriteIo = nodeIo): void {
  const gitDir = gitDirOf(root);
  if (gitDir === null || !UUID.test(uuid)) return;
  const dir = path.join(gitDir, VOUCHER_DIR);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomic(voucherFile(gitDir, uuid), `${realRoot(root)}\n`, { io });
  fsyncDir(path.dirname(dir));
}

/** Removes the voucher of `uuid` (after its pending record is gone). */
export function dropVoucher(root: string, uuid: string, io: WriteIo = nodeIo): void {
  const gitDir = gitDirOf(root);
  if (gitDir !== null && UUID.test(uuid)) io.remove(voucherFile(gitDir, uuid));
}

/**
 * Whether this repository vouches for pending record `uuid`: true or false inside a git
 * repository, null outside one (nothing can vouch there).
 */
export function isVouched(root: string, uuid: string): boolean | null {
  const gitDir = gitDirOf(root);
  if (gitDir === null) return null;
  return UUID.test(uuid) && lstatOrNull(voucherFile(gitDir, uuid))?.isFile() === true;
}

/** Removes vouchers whose pending record is gone (a crash between the two writes); call it holding the project lock. */
export function sweepVouchers(root: string, pending: readonly string[], io: WriteIo = nodeIo): void {
  const gitDir = gitDirOf(root);
  if (gitDir === null) return;
  const dir = path.join(gitDir, VOUCHER_DIR);
  if (!existsSync(dir)) return;
  const alive = new Set(pending);
  for (const name of readdirSync(dir)) {
    // Only vouchers of this project: a repository may hold several projects (each keeps its own root in the file).
    const file = path.join(dir, name);
    if (alive.has(name) || name.endsWith('.tmp')) continue;
    let owner = '';
    try {
      owner = readFileSync(file, 'utf8').trim();
    } catch {
      continue;
    }
    if (owner === realRoot(root)) io.remove(file);
  }
}
