import { parsePorcelainZ } from './status.js';
import { git } from './core.js';

/** Creates and switches to a new branch at HEAD. */
export async function createBranch(cwd: string, name: string): Promise<void> {
  await git(cwd, ['switch', '-c', name]);
}

/** The current branch name, or null when HEAD is detached or there is no commit yet. */
export async function currentBranch(cwd: string): Promise<string | null> {
  const { stdout } = await git(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD'], { okExitCodes: [1, 128] });
  return stdout.trim() || null;
}

/** Of these paths, the ones whose work-tree or index state differs from HEAD (literal paths, no globs). */
export async function changedAmong(cwd: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  const { stdout } = await git(cwd, ['--literal-pathspecs', 'status', '--porcelain=v1', '-z', '--untracked-files=all', '--no-renames', '--', ...paths]);
  // Porcelain paths are relative to the repository's top, `paths` to cwd (a project may be a subfolder).
  const prefix = (await git(cwd, ['rev-parse', '--show-prefix'])).stdout.trim();
  const wanted = new Set(paths);
  return parsePorcelainZ(stdout)
    .map((entry) => (entry.path.startsWith(prefix) ? entry.path.slice(prefix.length) : entry.path))
    .filter((p) => wanted.has(p));
}

/**
 * Stages exactly these paths (additions, changes and deletions) and commits them. Returns null,
 * committing nothing, when none of them differs from HEAD.
 */
export async function commitPaths(cwd: string, paths: readonly string[], message: string): Promise<string | null> {
  // A path that is gone and was never committed (a created file since reverted) is not a pathspec git accepts.
  const changed = await changedAmong(cwd, paths);
  if (changed.length === 0) return null;
  await git(cwd, ['--literal-pathspecs', 'add', '-A', '--', ...changed]);
  await git(cwd, ['--literal-pathspecs', 'commit', '-m', message, '--', ...changed]);
  const { stdout } = await git(cwd, ['rev-parse', 'HEAD']);
  return stdout.trim();
}

/** True when `name` is a valid branch name for git. */
export async function isValidBranchName(cwd: string, name: string): Promise<boolean> {
  const { exitCode } = await git(cwd, ['check-ref-format', '--branch', name], { okExitCodes: [1, 128] });
  return exitCode === 0;
}
