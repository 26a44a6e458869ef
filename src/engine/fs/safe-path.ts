import { existsSync, lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Result } from '../result.js';

export type UnsafePathCode = 'PATH_EMPTY' | 'PATH_ABSOLUTE' | 'PATH_ESCAPES_ROOT' | 'PATH_GIT_INTERNAL' | 'PATH_RESERVED' | 'PATH_SYMLINK_ESCAPE';

export interface SafePathOptions {
  /** Top-level folder names that belong to the tool itself and may not be written by outside input. */
  readonly reserved?: readonly string[];
}

/**
 * Normalises a project-relative path written by someone else (an LLM, a config, an IPC call):
 * forward slashes, no leading "./", no doubled separators. Returns null when nothing is left.
 */
export function normaliseRelativePath(raw: string): string | null {
  let p = raw.trim().replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  p = p.replace(/\/{2,}/g, '/').replace(/\/\.(?=\/|$)/g, '');
  if (p.endsWith('/')) p = p.slice(0, -1);
  return p.length === 0 || p === '.' ? null : p;
}

/**
 * Resolves a path from outside to an absolute path inside `root`, refusing absolute paths,
 * `..` segments, anything under `.git/`, reserved folders and symlinks that lead out of the root.
 */
export function resolveInsideRoot(root: string, rawPath: string, options: SafePathOptions = {}): Result<{ relative: string; absolute: string }, UnsafePathCode> {
  if (rawPath.includes('\0')) return fail('PATH_ESCAPES_ROOT', `Path contains a NUL byte: ${JSON.stringify(rawPath)}`);
  if (/%(2e|2f|5c)/i.test(rawPath)) {
    return fail('PATH_ESCAPES_ROOT', `Path contains percent-encoded dots or slashes, which only make sense decoded: ${JSON.stringify(rawPath)}. Paths must be plain and relative to the project root.`, rawPath);
  }
  const trimmed = rawPath.trim();
  if (trimmed.startsWith('/') || trimmed.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(trimmed) || trimmed.startsWith('~')) {
    return fail('PATH_ABSOLUTE', `Absolute paths are not allowed: ${trimmed}. Paths must be relative to the project root.`, trimmed);
  }
  const relative = normaliseRelativePath(trimmed);
  if (relative === null) return fail('PATH_EMPTY', 'Empty file path.');
  const segments = relative.split('/');
  if (segments.some((s) => s === '..')) {
    return fail('PATH_ESCAPES_ROOT', `Path leaves the project folder: ${relative}`, relative);
  }
  if (segments.some((s) => s.toLowerCase() === '.git')) {
    return fail('PATH_GIT_INTERNAL', `Writing inside .git/ is not allowed: ${relative}`, relative);
  }
  const reserved = options.reserved ?? [];
  if (reserved.includes(segments[0]!)) {
    return fail('PATH_RESERVED', `${segments.length > 1 ? `${segments[0]}/` : segments[0]} belongs to Relay Desk itself (its state or configuration) and cannot be changed by a patch: ${relative}. Edit it by hand if you mean to.`, relative);
  }
  const rootReal = realpathSync(root);
  const absolute = path.join(rootReal, ...segments);
  const escape = symlinkEscape(rootReal, absolute);
  if (escape) return fail('PATH_SYMLINK_ESCAPE', `Path goes through a symlink that leads outside the project: ${relative} (via ${escape})`, relative);
  return ok({ relative, absolute });
}

/** Returns the first existing component of `absolute` whose real location is outside `rootReal`, if any. */
function symlinkEscape(rootReal: string, absolute: string): string | null {
  let current = absolute;
  const chain: string[] = [];
  while (current.length > rootReal.length && current.startsWith(rootReal)) {
    chain.unshift(current);
    current = path.dirname(current);
  }
  for (const candidate of chain) {
    if (!existsSync(candidate) && !isDanglingLink(candidate)) break;
    const stat = lstatSync(candidate);
    if (!stat.isSymbolicLink()) continue;
    let target: string;
    try {
      target = realpathSync(candidate);
    } catch {
      return path.relative(rootReal, candidate); // dangling symlink: we cannot prove where it goes
    }
    if (target !== rootReal && !target.startsWith(rootReal + path.sep)) return path.relative(rootReal, candidate);
  }
  return null;
}

function isDanglingLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** True when `child` (absolute) is `parent` or lies inside it. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
