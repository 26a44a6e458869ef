// The one chokepoint for paths that come from outside: an answer, a record read back from disk,
// a config, an IPC call, a tick report's touched list. Every file system action on such a path
// goes through `resolveInsideRoot` (or `writeInsideRoot` / `removeInsideRoot`, which call it again
// right before they act). Three kinds of rule, in order:
//   1. syntax: relative, no `..`, no NUL/control characters/`:`/percent-encoding (a backslash
//      is read as the separator it is on Windows, then checked like any other);
//   2. names: `.git`, Relay Desk's state and command files and Windows device names, in every
//      alias a file system we ship to accepts (see path-names.ts and protected.ts);
//   3. the disk: every existing component is resolved (symlinks followed), the RESOLVED path must
//      stay inside the project and pass rule 2 again, and the last component is never a symlink
//      (Relay Desk never writes or deletes through a link; it refuses, so the user decides).
import { lstatSync, mkdirSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { fail, ok, type Failure, type Result } from '../result.js';
import { componentProblem, hasEncodedSeparator } from './path-names.js';
import { gitInternalRoot, protectedHit, tickOwnedPaths, type ProtectedHit } from './protected.js';

export type UnsafePathCode =
  | 'PATH_EMPTY'
  | 'PATH_ABSOLUTE'
  | 'PATH_ESCAPES_ROOT'
  | 'PATH_INVALID_CHARACTER'
  | 'PATH_PERCENT_ENCODED'
  | 'PATH_DEVICE_NAME'
  | 'PATH_GIT_INTERNAL'
  | 'ROOT_INSIDE_GIT'
  | 'PATH_RESERVED'
  | 'PATH_COMMAND_FILE'
  | 'PATH_SYMLINK'
  | 'PATH_SYMLINK_ESCAPE';

/** Every code the chokepoint can refuse with (tests and the docs list them). */
export const UNSAFE_PATH_CODES: readonly UnsafePathCode[] = [
  'PATH_EMPTY',
  'PATH_ABSOLUTE',
  'PATH_ESCAPES_ROOT',
  'PATH_INVALID_CHARACTER',
  'PATH_PERCENT_ENCODED',
  'PATH_DEVICE_NAME',
  'PATH_GIT_INTERNAL',
  'PATH_RESERVED',
  'PATH_COMMAND_FILE',
  'PATH_SYMLINK',
  'PATH_SYMLINK_ESCAPE',
];

export interface SafePathOptions {
  /**
   * `write` (the default): outside input wants to create, change, delete or rename this path —
   * every rule applies. `read`: outside input names a file to read or hand to a command (a
   * verification parameter): it must resolve inside the project, links included, and never into
   * `.git`, but Relay Desk's own names may be read. `cleanup`: Relay Desk removes or puts back a
   * path it listed itself (a tick's untracked file from git status, a guarded file it
   * snapshotted): inside the project, but any name (a builder-made `src/relay.config.json` must be
   * removable, `.git/hooks/x` restorable) and the last component may be a link (the link itself
   * is removed, never what it points to). Never for paths read from records or answers.
   */
  readonly purpose?: 'write' | 'read' | 'cleanup';
  /** The tick runner's own paths (`tickOwnedPaths(root)`); read from the project when omitted. */
  readonly tickOwned?: readonly string[];
}

/** A path that passed every rule: where it really is, relative and absolute. */
export interface SafePath {
  /** Project-relative, forward slashes, after following symlinks inside the project. */
  readonly relative: string;
  /** Absolute: the real location of the parent folder, plus the last component. */
  readonly absolute: string;
}

/**
 * Normalises a project-relative path written by someone else: forward slashes, no leading "./",
 * no doubled separators or "." segments. Returns null when nothing is left.
 */
export function normaliseRelativePath(raw: string): string | null {
  let p = raw.trim().replace(/\\/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  p = p.replace(/\/{2,}/g, '/').replace(/\/\.(?=\/|$)/g, '');
  if (p.endsWith('/')) p = p.slice(0, -1);
  return p.length === 0 || p === '.' ? null : p;
}

const show = (p: string): string => JSON.stringify(p);

function protectedFailure(relative: string, hit: ProtectedHit, via?: string): { readonly ok: false; readonly error: Failure<UnsafePathCode> } {
  const where = via ? `${relative} (reached through the symbolic link ${via})` : relative;
  switch (hit.kind) {
    case 'git':
      return fail('PATH_GIT_INTERNAL', `Writing inside .git/ is not allowed: ${where}. ${hit.name} ${hit.why}; git manages it itself.`, relative);
    case 'state':
      return fail('PATH_RESERVED', `${where}: ${hit.name} belongs to Relay Desk itself and cannot be changed by a patch: it ${hit.why}. Edit it by hand if you mean to.`, relative);
    case 'tick-owned':
      return fail('PATH_RESERVED', `${where}: ${hit.name}/ belongs to Relay Desk itself and cannot be changed by a patch: it ${hit.why}. Edit it by hand if you mean to.`, relative);
    case 'command-file':
      return fail('PATH_COMMAND_FILE', `${where}: ${hit.name} belongs to Relay Desk itself and is never written by a patch: it ${hit.why}, so an answer that could change it could run anything. Edit it by hand if you mean to.`, relative);
  }
}

/**
 * Rules 1 and 2 on a raw path, without looking at the disk: the normalised relative path, or the
 * first rule it breaks. Used for records and lists read back from disk before anything acts.
 */
export function checkRelativePath(rawPath: string, options: SafePathOptions = {}): Result<string, UnsafePathCode> {
  if (rawPath.includes('\0')) return fail('PATH_INVALID_CHARACTER', `Path contains a NUL byte: ${show(rawPath)}.`);
  if (options.purpose === 'cleanup') return checkCleanupPath(rawPath);
  if (hasEncodedSeparator(rawPath)) {
    return fail('PATH_PERCENT_ENCODED', `Path contains percent-encoded dots, slashes or control characters, which only make sense decoded: ${show(rawPath)}. Paths must be plain and relative to the project root.`, rawPath);
  }
  const trimmed = rawPath.trim();
  if (trimmed.startsWith('/') || trimmed.startsWith('\\') || /^[A-Za-z]:/.test(trimmed) || trimmed.startsWith('~')) {
    return fail('PATH_ABSOLUTE', `Absolute paths are not allowed: ${trimmed}. Paths must be relative to the project root.`, trimmed);
  }
  // A backslash is a separator on Windows, so it is read as one (answers written on Windows say
  // `src\a.py`) and every rule below applies to the parts: `..\x` is refused as `../x` would be.
  const relative = normaliseRelativePath(trimmed);
  if (relative === null) return fail('PATH_EMPTY', 'Empty file path.');
  for (const segment of relative.split('/')) {
    const problem = componentProblem(segment);
    if (problem === null) continue;
    switch (problem) {
      case 'dot-segment':
        return fail('PATH_ESCAPES_ROOT', `Path leaves the project folder: ${relative}${segment === '..' ? '' : ` (${show(segment)} is ".." or "." to Windows)`}.`, relative);
      case 'invalid-character':
        return fail('PATH_INVALID_CHARACTER', `Path component ${show(segment)} of ${relative} holds a character no portable file name may hold (a control character, "\\" or ":", which names an NTFS stream).`, relative);
      case 'device-name':
        return fail('PATH_DEVICE_NAME', `Path component ${show(segment)} of ${relative} is a Windows device name (CON, PRN, AUX, NUL, COM1-9, LPT1-9); on Windows it opens the device, not a file.`, relative);
      case 'git':
        return fail('PATH_GIT_INTERNAL', `Writing inside .git/ is not allowed: ${relative} (${show(segment)} is .git to some file system).`, relative);
    }
  }
  if ((options.purpose ?? 'write') === 'write') {
    const hit = protectedHit(relative, options.tickOwned ?? []);
    if (hit) return protectedFailure(relative, hit);
  }
  return ok(relative);
}

/**
 * A path Relay Desk itself listed (git status, its own snapshot of guarded files) and now removes
 * or puts back: any name this file system holds is fine (`a:b`, `con.txt` on Linux, `.git/hooks/x`
 * restored as it was), but never `..` or an absolute path, and links are still resolved inside.
 */
function checkCleanupPath(rawPath: string): Result<string, UnsafePathCode> {
  if (rawPath.startsWith('/') || path.isAbsolute(rawPath)) return fail('PATH_ABSOLUTE', `Absolute paths are not allowed: ${rawPath}.`, rawPath);
  const segments = rawPath.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.length === 0) return fail('PATH_EMPTY', 'Empty file path.');
  if (segments.includes('..')) return fail('PATH_ESCAPES_ROOT', `Path leaves the project folder: ${rawPath}.`, rawPath);
  return ok(segments.join('/'));
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/**
 * Resolves a path from outside to where it really is inside `root`, refusing what any rule
 * forbids (see the top of this file). Call it right before acting, and act on `absolute`.
 */
export function resolveInsideRoot(root: string, rawPath: string, options: SafePathOptions = {}): Result<SafePath, UnsafePathCode> {
  const purpose = options.purpose ?? 'write';
  const tickOwned = options.tickOwned ?? (purpose === 'write' ? tickOwnedPaths(root) : []);
  const checked = checkRelativePath(rawPath, { purpose, tickOwned });
  if (!checked.ok) return checked;
  const relative = checked.value;
  // A "project" inside .git (or a bare repository) is git's own folder: nothing in it is ours to write.
  const gitOwned = purpose === 'read' ? null : gitInternalRoot(root);
  if (gitOwned !== null) return fail('ROOT_INSIDE_GIT', gitOwned, relative);
  const rootReal = realpathSync(root);
  const segments = relative.split('/');
  let current = rootReal;
  let via: string | null = null;
  for (let i = 0; i < segments.length; i += 1) {
    const candidate = path.join(current, segments[i]!);
    const stat = lstatOrNull(candidate);
    if (stat === null) {
      current = path.join(current, ...segments.slice(i));
      break;
    }
    const isLast = i === segments.length - 1;
    if (!stat.isSymbolicLink()) {
      current = candidate;
      continue;
    }
    const shown = segments.slice(0, i + 1).join('/');
    if (isLast && purpose !== 'read') {
      if (purpose === 'cleanup') {
        current = candidate;
        break;
      }
      return fail('PATH_SYMLINK', `${relative} is a symbolic link; Relay Desk never writes or deletes through a link (it could point anywhere). Change the file it points to by its own path, or replace the link by hand.`, relative);
    }
    let target: string;
    try {
      target = realpathSync(candidate);
    } catch {
      return fail('PATH_SYMLINK', `${relative} goes through ${shown}, a symbolic link that points nowhere (or in a loop); Relay Desk cannot tell where the write would land, so nothing is written there.`, relative);
    }
    if (target !== rootReal && !target.startsWith(rootReal + path.sep)) {
      return fail('PATH_SYMLINK_ESCAPE', `Path goes through a symlink that leads outside the project: ${relative} (via ${shown} → ${target}).`, relative);
    }
    via ??= shown;
    current = target;
  }
  const resolved = toPosix(path.relative(rootReal, current));
  if (resolved === '' || resolved.startsWith('../') || resolved === '..' || path.isAbsolute(resolved)) {
    return fail('PATH_SYMLINK_ESCAPE', `Path goes through a symlink that leads outside the project (or to the project folder itself): ${relative}${via ? ` (via ${via})` : ''}.`, relative);
  }
  if (via !== null) {
    // The resolved path must pass the name rules too: `g -> .git` makes `g/config` .git/config.
    const again = checkRelativePath(resolved, { purpose, tickOwned });
    if (!again.ok) {
      const hit = purpose === 'write' ? protectedHit(resolved, tickOwned) : null;
      if (hit) return protectedFailure(relative, hit, via);
      return fail(again.error.code, `${relative} is reached through the symbolic link ${via} and is really ${resolved}: ${again.error.message}`, relative);
    }
  }
  return ok({ relative: resolved, absolute: current });
}

/** Why Relay Desk will not use one of its own state folders. */
export type OwnFolderCode = 'STATE_FOLDER_UNSAFE';

/**
 * Checks a folder Relay Desk keeps its own files in (`.relaycode`, `.relaycode/handoffs`,
 * `relais`, a tick history folder) before it writes there: every component must be a real
 * folder (or not exist yet), never a symbolic link, and inside the project. A cloned repository
 * whose `.relaycode` is a link to elsewhere would otherwise receive records outside the project.
 * With `create`, the missing folders are made. Returns the absolute folder.
 */
export function ownFolder(root: string, relativeFolder: string, options: { create?: boolean } = {}): Result<string, OwnFolderCode> {
  const rootReal = realpathSync(root);
  const segments = relativeFolder.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => componentProblem(s) !== null)) {
    return fail('STATE_FOLDER_UNSAFE', `${relativeFolder} is not a folder name Relay Desk can keep its files in.`, relativeFolder);
  }
  let current = rootReal;
  for (let i = 0; i < segments.length; i += 1) {
    current = path.join(current, segments[i]!);
    const shown = segments.slice(0, i + 1).join('/');
    const stat = lstatOrNull(current);
    if (stat === null) {
      if (!options.create) return ok(path.join(current, ...segments.slice(i + 1)));
      mkdirSync(current);
      continue;
    }
    if (stat.isSymbolicLink()) {
      return fail('STATE_FOLDER_UNSAFE', `${shown} is a symbolic link; Relay Desk keeps its own files (${relativeFolder}/) only in a real folder inside the project, so it wrote nothing there. Replace the link with a folder (a cloned repository should not ship one).`, shown);
    }
    if (!stat.isDirectory()) {
      return fail('STATE_FOLDER_UNSAFE', `${shown} is a file, not a folder; Relay Desk keeps its own files in ${relativeFolder}/. Move the file away.`, shown);
    }
  }
  return ok(current);
}

/**
 * Checks one of Relay Desk's own files by folder and plain name (`.relaycode` + `x.pending.yml`):
 * the folder as `ownFolder` does, the name a single component, and an existing entry not a link.
 */
export function ownFile(root: string, relativeFolder: string, name: string, options: { create?: boolean } = {}): Result<string, OwnFolderCode> {
  if (name.includes('/') || name.includes('\\') || componentProblem(name) !== null) {
    return fail('STATE_FOLDER_UNSAFE', `${show(name)} is not a plain file name Relay Desk can use in ${relativeFolder}/.`, `${relativeFolder}/${name}`);
  }
  const folder = ownFolder(root, relativeFolder, options);
  if (!folder.ok) return folder;
  const file = path.join(folder.value, name);
  if (lstatOrNull(file)?.isSymbolicLink()) {
    return fail('STATE_FOLDER_UNSAFE', `${relativeFolder}/${name} is a symbolic link; Relay Desk never writes its own files through a link. Remove it.`, `${relativeFolder}/${name}`);
  }
  return ok(file);
}

/** True when `child` (absolute) is `parent` or lies inside it. */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
