import { git } from './core.js';

/** One entry of `git status --porcelain=v1 -z`. */
export interface StatusEntry {
  /** Index and work-tree status letters, e.g. " M", "??", "A ". */
  readonly code: string;
  readonly path: string;
  /** For renames and copies, the path the entry came from. */
  readonly from?: string;
}

/** Parses `git status --porcelain=v1 -z` output (NUL separated, paths unquoted). */
export function parsePorcelainZ(output: string): StatusEntry[] {
  const parts = output.split('\0');
  const entries: StatusEntry[] = [];
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!;
    if (part.length < 4) continue;
    const code = part.slice(0, 2);
    const path = part.slice(3);
    if (code[0] === 'R' || code[0] === 'C') {
      entries.push({ code, path, from: parts[i + 1] ?? '' });
      i += 1;
    } else {
      entries.push({ code, path });
    }
  }
  return entries;
}

/** Working tree status, untracked files listed one by one. */
export async function status(cwd: string): Promise<StatusEntry[]> {
  const { stdout } = await git(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  return parsePorcelainZ(stdout);
}

/**
 * Status of the files at and under `cwd`, with paths relative to `cwd` (porcelain paths are
 * relative to the repository's top, which differs when a project is a subfolder of its repository).
 */
export async function statusHere(cwd: string): Promise<StatusEntry[]> {
  const prefix = (await git(cwd, ['rev-parse', '--show-prefix'])).stdout.trim();
  const { stdout } = await git(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.']);
  const strip = (p: string): string => (p.startsWith(prefix) ? p.slice(prefix.length) : p);
  return parsePorcelainZ(stdout)
    .filter((e) => e.path.startsWith(prefix))
    .map((e) => ({ code: e.code, path: strip(e.path), ...(e.from !== undefined ? { from: strip(e.from) } : {}) }));
}
