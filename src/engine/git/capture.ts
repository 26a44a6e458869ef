// The work tree as a git tree object, made through a private index (GIT_INDEX_FILE) so the
// repository's own index, refs and HEAD are never touched: what a transaction writes down
// before running commands that may change any file, and how it puts such files back.
import { copyFileSync, existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { git } from './core.js';

/** One path that differs between a captured tree and the work tree now (relative to the cwd). */
export interface TreeChange {
  /** A: appeared since the capture, D: gone since, M: content changed, T: type changed. */
  readonly status: 'A' | 'D' | 'M' | 'T';
  readonly path: string;
}

/** Pathspecs for "everything here but these folders". */
function pathspecs(exclude: readonly string[]): string[] {
  return ['.', ...exclude.map((e) => `:(exclude)${e}`)];
}

async function repositoryIndex(cwd: string): Promise<string> {
  const { stdout } = await git(cwd, ['rev-parse', '--git-path', 'index']);
  return path.resolve(cwd, stdout.trim());
}

async function withPrivateIndex<T>(cwd: string, scratchDir: string, seed: boolean, use: (indexFile: string) => Promise<T>): Promise<T> {
  // Named like an atomic write's temp file, so a crash leftover is swept like one (its pid is dead).
  const indexFile = path.join(scratchDir, `.capture.index.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    // Seeding from the repository's index reuses its stat cache: only changed files are hashed.
    const real = seed ? await repositoryIndex(cwd) : null;
    if (real && existsSync(real)) copyFileSync(real, indexFile);
    return await use(indexFile);
  } finally {
    rmSync(indexFile, { force: true });
    rmSync(`${indexFile}.lock`, { force: true });
  }
}

/**
 * Writes the work tree under `cwd` (tracked files and untracked files that are not ignored,
 * minus `exclude`) into the object store and returns its tree id. `scratchDir` holds the
 * private index for the moment it takes.
 */
export async function captureWorkTree(cwd: string, scratchDir: string, exclude: readonly string[] = []): Promise<string> {
  return withPrivateIndex(cwd, scratchDir, true, async (indexFile) => {
    await git(cwd, ['-c', 'advice.addIgnoredFile=false', 'add', '-A', '--ignore-errors', '--', ...pathspecs(exclude)], { indexFile, okExitCodes: [1] });
    const { stdout } = await git(cwd, ['write-tree'], { indexFile });
    return stdout.trim();
  });
}

/** Parses `git diff-tree -r -z --name-status` output. */
export function parseNameStatusZ(output: string): TreeChange[] {
  const parts = output.split('\0');
  const changes: TreeChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const status = parts[i]!.charAt(0);
    if (status === 'A' || status === 'D' || status === 'M' || status === 'T') changes.push({ status, path: parts[i + 1]! });
  }
  return changes;
}

/** True when the object store still has the captured tree (git does not fsync objects by default: a power cut may lose it). */
export async function captureExists(cwd: string, tree: string): Promise<boolean> {
  const { exitCode } = await git(cwd, ['cat-file', '-e', `${tree}^{tree}`], { okExitCodes: [1, 128] });
  return exitCode === 0;
}

/** What differs between the captured `tree` and the work tree now, under `cwd`. */
export async function changesSinceCapture(cwd: string, tree: string, scratchDir: string, exclude: readonly string[] = []): Promise<TreeChange[]> {
  const now = await captureWorkTree(cwd, scratchDir, exclude);
  if (now === tree) return [];
  const { stdout } = await git(cwd, ['diff-tree', '-r', '-z', '--no-renames', '--name-status', '--relative', tree, now, '--', ...pathspecs(exclude)]);
  return parseNameStatusZ(stdout);
}

/** The content a captured file had, as checkout would write it (line-ending filters applied); null when it was not there. */
export async function capturedText(cwd: string, tree: string, file: string): Promise<string | null> {
  const { stdout, exitCode } = await git(cwd, ['cat-file', '--filters', `${tree}:./${file}`], { okExitCodes: [128] });
  return exitCode === 0 ? stdout : null;
}

function removeEmptyParents(root: string, rel: string): void {
  let dir = path.dirname(path.join(root, rel));
  while (dir.startsWith(root + path.sep)) {
    try {
      if (readdirSync(dir).length > 0) return;
      rmdirSync(dir);
    } catch {
      return;
    }
    dir = path.dirname(dir);
  }
}

/**
 * Puts the work tree under `cwd` back to the captured `tree` for `changes`: files that appeared
 * are removed (with folders left empty), the others are checked out from the tree by git
 * (modes, symlinks and binary content included; never through a symlinked folder).
 */
export async function restoreCapturedPaths(cwd: string, tree: string, changes: readonly TreeChange[], scratchDir: string): Promise<void> {
  const root = path.resolve(cwd);
  for (const change of changes) {
    if (change.status !== 'A') continue;
    rmSync(path.join(root, change.path), { force: true, recursive: true });
    removeEmptyParents(root, change.path);
  }
  const back = changes.filter((c) => c.status !== 'A').map((c) => c.path);
  if (back.length === 0) return;
  await withPrivateIndex(cwd, scratchDir, false, async (indexFile) => {
    await git(cwd, ['read-tree', tree], { indexFile });
    for (let i = 0; i < back.length; i += 200) {
      await git(cwd, ['--literal-pathspecs', 'checkout-index', '-f', '-q', '--', ...back.slice(i, i + 200)], { indexFile });
    }
  });
}
