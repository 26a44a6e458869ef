// Glob rules of a task's scope, pure. Paths are repository-relative with forward slashes.
import picomatch from 'picomatch';

/** A predicate that is true when a path matches any of `globs` (dotfiles included). */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const isMatch = picomatch([...globs], { dot: true });
  return (p) => isMatch(p);
}

/** Why a glob written by the orchestrator is unsafe (it would reach outside the root), or null. */
export function unsafeGlob(glob: string): string | null {
  if (glob.includes('\0')) return 'contains a NUL byte';
  if (glob.includes('\\')) return 'contains a backslash (use forward slashes)';
  if (glob.startsWith('/') || /^[A-Za-z]:/.test(glob) || glob.startsWith('~')) return 'is absolute';
  if (glob.split('/').includes('..')) return 'contains a ".." segment';
  return null;
}

/** True when `p` is one of the configured lockfiles: by name at any depth, or by exact path. */
export function isLockfile(p: string, lockfiles: readonly string[]): boolean {
  const name = p.slice(p.lastIndexOf('/') + 1);
  return lockfiles.some((lock) => (lock.includes('/') ? lock === p : lock === name));
}
