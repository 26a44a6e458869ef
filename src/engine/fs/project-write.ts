// Writing and deleting project files named by outside input. Each call resolves the path through
// the chokepoint right before it acts (not only when the change was planned), writes next to the
// file's real location, and re-checks that folder just before the rename, so a link planted
// between plan and write cannot redirect it.
import { existsSync, lstatSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { resolveInsideRoot, type SafePath, type SafePathOptions, type UnsafePathCode } from './safe-path.js';
import type { Result } from '../result.js';

/**
 * Writes `content` to a project file (atomically, keeping an existing file's mode), or does
 * nothing when it already holds exactly that. Refused paths are returned, never written.
 */
export function writeInsideRoot(root: string, relative: string, content: string, options: SafePathOptions = {}): Result<SafePath, UnsafePathCode> {
  const safe = resolveInsideRoot(root, relative, options);
  if (!safe.ok) return safe;
  const { absolute } = safe.value;
  const exists = existsSync(absolute);
  if (exists && readFileSync(absolute, 'utf8') === content) return safe;
  const mode = exists ? lstatSync(absolute).mode & 0o777 : undefined;
  const dir = path.dirname(absolute);
  writeFileAtomic(absolute, content, { ...(mode === undefined ? {} : { mode }), expectedDir: existsSync(dir) ? realpathSync(dir) : dir });
  return safe;
}

/** Deletes a project file (a missing one is fine). Refused paths are returned, never touched. */
export function removeInsideRoot(root: string, relative: string, options: SafePathOptions = {}): Result<SafePath, UnsafePathCode> {
  const safe = resolveInsideRoot(root, relative, options);
  if (!safe.ok) return safe;
  rmSync(safe.value.absolute, { force: true });
  return safe;
}

/** A project file's text read through the chokepoint, or null when it is absent, unreadable or refused. */
export function readInsideRoot(root: string, relative: string, options: SafePathOptions = {}): string | null {
  const safe = resolveInsideRoot(root, relative, options);
  if (!safe.ok) return null;
  try {
    return readFileSync(safe.value.absolute, 'utf8');
  } catch {
    return null;
  }
}
