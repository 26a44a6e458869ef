// A commit that a SIGKILL leaves either done or not done, never half done.
//
// `git commit -- <paths>` stages into the repository's index and then commits; killed between
// the two (or while git holds .git/index.lock) it leaves the index half staged and a stray lock.
// Here the commit is built in a private index (GIT_INDEX_FILE), so the repository's index is not
// touched until HEAD has moved; HEAD moves in one compare-and-swap (git's own ref update); then the
// repository's index is brought in line for the committed paths through git's lockfile protocol,
// holding .git/index.lock as a hard link of a file named after the intent, so recovery can tell
// that lock is ours. An intent file, written before anything, lets the next command finish (roll
// forward when HEAD moved, clean up when it did not).
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, existsSync, fsyncSync, linkSync, lstatSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { currentOwner } from '../fs/process.js';
import { changedAmong } from './commit.js';
import { git } from './core.js';

/** What a durable commit wrote down before starting. */
export interface CommitIntent {
  readonly version: 1;
  readonly id: string;
  readonly owner: { readonly pid: number; readonly bootId: string; readonly startedAt: string };
  /** HEAD before (null: no commit yet). */
  readonly head: string | null;
  readonly message: string;
  readonly paths: readonly string[];
}

/** Where a durable commit keeps its intent and scratch files (the caller's state folder). */
export interface CommitJournal {
  readonly dir: string;
}

const INTENT_FILE = 'git-commit.pending.json';

function intentPath(journal: CommitJournal): string {
  return path.join(journal.dir, INTENT_FILE);
}

function scratch(journal: CommitJournal, id: string, what: 'index' | 'next-index' | 'lock-handle'): string {
  return path.join(journal.dir, `.git-commit-${id}.${what}`);
}

async function repositoryFile(cwd: string, name: string): Promise<string> {
  const { stdout } = await git(cwd, ['rev-parse', '--git-path', name]);
  return path.resolve(cwd, stdout.trim());
}

function sameInode(a: string, b: string): boolean {
  try {
    const sa = lstatSync(a);
    const sb = lstatSync(b);
    return sa.ino === sb.ino && sa.dev === sb.dev;
  } catch {
    return false;
  }
}

/**
 * Brings the repository's index in line with HEAD for `paths` (what `git commit -- <paths>`
 * leaves), under .git/index.lock taken by git's rules. Returns false when another git process
 * holds the index lock (then the index is left as it was).
 */
async function syncIndexPaths(cwd: string, paths: readonly string[], journal: CommitJournal, id: string): Promise<boolean> {
  const real = await repositoryFile(cwd, 'index');
  const lock = `${real}.lock`;
  const handle = scratch(journal, id, 'lock-handle');
  const next = scratch(journal, id, 'next-index');
  // A handle left by a run killed after its rename is a second name of the live index: unlink it, never write through it.
  rmSync(handle, { force: true });
  writeFileSync(handle, '', { flag: 'wx' });
  try {
    try {
      linkSync(handle, lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    }
    try {
      if (existsSync(real)) copyFileSync(real, next);
      await git(cwd, ['--literal-pathspecs', 'reset', '-q', 'HEAD', '--', ...paths], { indexFile: next, okExitCodes: [1] });
      writeFileSync(lock, readFileSync(next)); // the same inode as `handle`: the lock stays recognisably ours
      const fd = openSync(lock, 'r');
      try {
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(lock, real);
    } catch (error) {
      if (sameInode(lock, handle)) rmSync(lock, { force: true });
      throw error;
    }
    return true;
  } finally {
    rmSync(handle, { force: true });
    rmSync(next, { force: true });
    rmSync(`${next}.lock`, { force: true });
  }
}

function removeScratch(journal: CommitJournal, id: string): void {
  for (const what of ['index', 'next-index', 'lock-handle'] as const) {
    rmSync(scratch(journal, id, what), { force: true });
    rmSync(`${scratch(journal, id, what)}.lock`, { force: true });
  }
}

/**
 * Commits exactly these paths' work-tree content on top of HEAD, durably: killed at any point,
 * HEAD is either unchanged (and the index too) or has the new commit (and `finishInterruptedCommit`
 * brings the index in line). Returns the commit, or null when none of the paths differs from HEAD.
 */
export async function commitPathsDurably(cwd: string, paths: readonly string[], message: string, journal: CommitJournal): Promise<string | null> {
  const changed = await changedAmong(cwd, paths);
  if (changed.length === 0) return null;
  const head = (await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { okExitCodes: [1, 128] })).stdout.trim() || null;
  const id = randomBytes(6).toString('hex');
  const intent: CommitIntent = { version: 1, id, owner: currentOwner(), head, message, paths: changed };
  writeFileAtomic(intentPath(journal), `${JSON.stringify(intent, null, 2)}\n`);
  const index = scratch(journal, id, 'index');
  let finished = true;
  try {
    await git(cwd, head ? ['read-tree', head] : ['read-tree', '--empty'], { indexFile: index });
    await git(cwd, ['--literal-pathspecs', 'add', '-A', '--', ...changed], { indexFile: index });
    const committed = await git(cwd, ['commit', '-q', '--no-edit', '-m', message], { indexFile: index, okExitCodes: [1] });
    if (committed.exitCode === 1) return null; // the work tree of these paths equals HEAD after all (only the index differed)
    const sha = (await git(cwd, ['rev-parse', 'HEAD'])).stdout.trim();
    // Another git holds the index right now: the intent stays, and the next command brings the index in line.
    finished = await syncIndexPaths(cwd, changed, journal, id);
    return sha;
  } finally {
    removeScratch(journal, id);
    if (finished) rmSync(intentPath(journal), { force: true });
  }
}

/** Equal after git's whitespace clean-up of `-m` messages (trailing spaces, runs of blank lines, edges). */
function sameMessage(a: string, b: string): boolean {
  const clean = (m: string): string => m.split('\n').map((l) => l.trimEnd()).join('\n').replace(/\n{3,}/g, '\n\n').trim();
  return clean(a) === clean(b);
}

/** Reads the intent left by an interrupted durable commit, or null. */
export function readCommitIntent(journal: CommitJournal): CommitIntent | null {
  try {
    const data = JSON.parse(readFileSync(intentPath(journal), 'utf8')) as Partial<CommitIntent>;
    if (data.version !== 1 || typeof data.id !== 'string' || !/^[0-9a-f]{12}$/.test(data.id) || typeof data.message !== 'string' || !Array.isArray(data.paths) || !data.owner) return null;
    return data as CommitIntent;
  } catch {
    return null;
  }
}

/** How an interrupted commit was finished. */
export type CommitRecovery = { readonly state: 'none' | 'running' | 'index-busy' } | { readonly state: 'committed' | 'not-committed' | 'head-moved'; readonly head: string | null };

/**
 * Finishes a durable commit whose process died: when HEAD holds its commit, the index is brought
 * in line; when it does not, nothing was committed. Either way its own lock and scratch files go.
 */
export async function finishInterruptedCommit(cwd: string, journal: CommitJournal, ownerIsGone: (owner: CommitIntent['owner']) => boolean): Promise<CommitRecovery> {
  const file = intentPath(journal);
  if (!existsSync(file)) return { state: 'none' };
  const intent = readCommitIntent(journal);
  if (intent && !ownerIsGone(intent.owner)) return { state: 'running' };
  if (!intent) {
    rmSync(file, { force: true }); // unreadable: written by a process that died before it finished writing it (atomic writes make that impossible) or damaged
    return { state: 'not-committed', head: null };
  }
  const lock = `${await repositoryFile(cwd, 'index')}.lock`;
  if (sameInode(lock, scratch(journal, intent.id, 'lock-handle'))) rmSync(lock, { force: true });
  const now = await git(cwd, ['log', '-1', '--format=%H%n%P%n%B', 'HEAD'], { okExitCodes: [128] });
  const [sha = '', parents = '', ...body] = now.exitCode === 0 ? now.stdout.split('\n') : [];
  let state: 'committed' | 'not-committed' | 'head-moved';
  if ((sha || null) === intent.head) state = 'not-committed';
  else if ((parents.trim() || null) === intent.head && sameMessage(body.join('\n'), intent.message)) state = 'committed';
  else state = 'head-moved';
  if (state === 'committed' && !(await syncIndexPaths(cwd, intent.paths, journal, intent.id))) {
    removeScratch(journal, intent.id);
    return { state: 'index-busy' }; // another git holds the index: tried again by the next command
  }
  removeScratch(journal, intent.id);
  rmSync(file, { force: true });
  return { state, head: sha || null };
}
