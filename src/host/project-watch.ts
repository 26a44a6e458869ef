// Watching one project's files of truth, so runs made anywhere (the CLIs, another process, a
// crash recovery) reach an open window without a reload and without polling: fs.watch on the
// record folders engine/records names (`.relaycode/`, its answers/ and handoffs/, the configured
// tick history folder), debounced, re-armed when a folder appears, moves or goes. Nothing runs
// while nothing changes. A folder that is a symbolic link is never watched (a hostile repository
// could point it anywhere): its parent is, so a real folder put in its place is picked up.
import { lstatSync, realpathSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { listRecordFolder, readTickFiles, recordFolder, recordFolders, recordKeyOfName, RECORD_KINDS, type ProjectRef, type RecordKind } from '../engine/records/index.js';
import { TICK_CONFIG_FILE } from '../engine/tick/config.js';
import type { ChangedRecord } from './recorder.js';

/** What a watcher reports, after the debounce. */
export interface ProjectWatchHandlers {
  /** Records that changed (written, replaced or removed); read them again. */
  readonly onChanges: (changes: readonly ChangedRecord[]) => void;
  /** Something changed that cannot be narrowed to records (relais.config.json moved the history folder): read the whole project again. */
  readonly onReindex: () => void;
  readonly onError?: (error: unknown) => void;
}

export interface ProjectWatchOptions {
  /** Quiet time after the last event before reading (default 100 ms). */
  readonly debounceMs?: number;
  /** Longest a burst of events may hold the reading back (default 500 ms). */
  readonly maxWaitMs?: number;
}

/** A running watcher of one project. */
export interface ProjectWatcher {
  /** The folders watched now (absolute), for tests and diagnostics. */
  folders(): string[];
  /** Stops every fs.watch of the project. */
  close(): void;
}

/** Why a folder is watched: it holds records of a kind, it is a tick still being written, or something may appear in it. */
type Role = { readonly kind: RecordKind } | { readonly tick: string } | { readonly waitingFor: 'folder' };

interface Watched {
  readonly role: Role;
  readonly watcher: FSWatcher;
  /** The folder's inode when it was armed: a folder moved away and replaced by another of that name is watched anew. */
  readonly ino: number;
}

function inodeOf(absolute: string): number | null {
  try {
    return lstatSync(absolute).ino;
  } catch {
    return null;
  }
}

function isRealFolder(absolute: string): boolean {
  try {
    const stat = lstatSync(absolute);
    return stat.isDirectory() && !stat.isSymbolicLink();
  } catch {
    return false;
  }
}

/** The deepest real folder on the way from the root to `folder` (the root itself at least). */
function deepestExisting(root: string, folder: string): string {
  let current = root;
  for (const segment of folder.split('/')) {
    const next = path.join(current, segment);
    if (!isRealFolder(next)) break;
    current = next;
  }
  return current;
}

function realOrSame(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return folder; // not there (an unmounted drive): nothing to watch until it is
  }
}

function sameRole(a: Role, b: Role): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Starts watching one project's record folders; changes are reported through `handlers` after a debounce. */
export function watchProject(project: ProjectRef, handlers: ProjectWatchHandlers, options: ProjectWatchOptions = {}): ProjectWatcher {
  // Record folders are resolved from the project's real path: watch and compare in those terms.
  const root = realOrSame(project.root);
  const debounceMs = options.debounceMs ?? 100;
  const maxWaitMs = options.maxWaitMs ?? 500;
  const watched = new Map<string, Watched>();
  /** Ticks whose history folder is not complete yet (meta.json is written last): watched until it is. */
  const openTicks = new Set<string>();
  const queued = new Map<string, ChangedRecord>();
  let reindex = false;
  let timer: NodeJS.Timeout | null = null;
  let firstEventAt: number | null = null;
  let closed = false;

  const report = (error: unknown): void => handlers.onError?.(error);

  const queue = (kind: RecordKind, key: string): void => {
    queued.set(`${kind}\0${key}`, { kind, key });
  };

  const schedule = (): void => {
    if (closed) return;
    const now = Date.now();
    firstEventAt ??= now;
    if (timer) clearTimeout(timer);
    const wait = Math.max(0, Math.min(debounceMs, firstEventAt + maxWaitMs - now));
    timer = setTimeout(flush, wait);
    timer.unref?.();
  };

  const onEvent = (folder: string, role: Role, filename: string | null): void => {
    if ('kind' in role) {
      if (filename === null) reindex = true; // the platform did not say which file: read everything again
      else {
        const key = recordKeyOfName(role.kind, filename);
        if (key !== null) queue(role.kind, key);
      }
    } else if ('tick' in role) {
      queue('tick', role.tick);
    } else if (folder === root && filename === TICK_CONFIG_FILE) {
      // The history folder may have moved: rows of the old one must go, the new one's come in.
      reindex = true;
    }
    schedule();
  };

  const open = (absolute: string, role: Role): void => {
    try {
      const watcher = watch(absolute, { persistent: false }, (_event, filename) => onEvent(absolute, role, filename === null ? null : String(filename)));
      // A watched folder that is removed or replaced ends its watcher: look again at what is there.
      watcher.on('error', () => {
        watcher.close();
        if (watched.get(absolute)?.watcher === watcher) watched.delete(absolute);
        schedule();
      });
      watched.set(absolute, { role, watcher, ino: inodeOf(absolute) ?? -1 });
    } catch (error) {
      // A folder removed in between, or no inotify watches left: the next event re-arms it.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') report(error);
    }
  };

  /** Watches what should be watched now; folders that became watchable have their records read. */
  const arm = (initial: boolean): void => {
    const folders = recordFolders(root);
    const wanted = new Map<string, Role>();
    /** The project-relative folder of each record folder watched, to read what it already holds. */
    const relative = new Map<string, string>();
    wanted.set(root, { waitingFor: 'folder' });
    for (const kind of RECORD_KINDS) {
      const folder = folders[kind];
      const absolute = recordFolder(root, folder);
      if (absolute) {
        wanted.set(absolute, { kind });
        relative.set(absolute, folder);
      }
      if (!absolute && !wanted.has(deepestExisting(root, folder))) wanted.set(deepestExisting(root, folder), { waitingFor: 'folder' });
    }
    for (const tick of openTicks) {
      const absolute = recordFolder(root, `${folders.tick}/${tick}`);
      if (absolute) wanted.set(absolute, { tick });
    }
    for (const [absolute, current] of watched) {
      const role = wanted.get(absolute);
      if (role && sameRole(role, current.role) && inodeOf(absolute) === current.ino) continue;
      current.watcher.close();
      watched.delete(absolute);
    }
    for (const [absolute, role] of wanted) {
      if (watched.has(absolute)) continue;
      open(absolute, role);
      // Records written before this folder was watched would never raise an event.
      if (!initial && 'kind' in role) {
        for (const name of listRecordFolder(root, relative.get(absolute) ?? '')) {
          const key = recordKeyOfName(role.kind, name);
          if (key !== null) queue(role.kind, key);
        }
      }
    }
  };

  /** A tick folder whose meta.json is not there yet is still being written: watch it until it is. */
  const followTicks = (changes: readonly ChangedRecord[]): void => {
    for (const { kind, key } of changes) if (kind === 'tick') openTicks.add(key);
    for (const tick of [...openTicks]) {
      const read = readTickFiles(root, tick);
      const stillWriting = read !== null && !('tick' in read && read.tick.meta !== null);
      if (!stillWriting) openTicks.delete(tick);
    }
  };

  function flush(): void {
    timer = null;
    firstEventAt = null;
    if (closed) return;
    try {
      arm(false);
      const changes = [...queued.values()];
      queued.clear();
      const whole = reindex;
      reindex = false;
      followTicks(changes);
      const following = new Set([...watched.values()].flatMap(({ role }) => ('tick' in role ? [role.tick] : [])));
      arm(false);
      // A tick folder watched only now may have been finished before: read it once more.
      for (const tick of openTicks) {
        if (following.has(tick)) continue;
        queue('tick', tick);
        schedule();
      }
      if (whole) handlers.onReindex();
      else if (changes.length > 0) handlers.onChanges(changes);
    } catch (error) {
      report(error);
    }
  }

  arm(true);
  return {
    folders: () => [...watched.keys()].sort(),
    close: () => {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const { watcher } of watched.values()) watcher.close();
      watched.clear();
    },
  };
}
