// Opening the store at start without ever stopping on a damaged database: the database is only
// an index of the projects' files (plus app-only runs), so a damaged one is moved aside and
// rebuilt, a lost -wal is set aside, and a missing one is refilled from projects.json — each
// said in one line. Only what cannot be a "damaged index" (a newer schema, a database another
// live process owns, a folder that cannot be written) still stops the start.
import { closeSync, existsSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { assertNever } from '../result.js';
import { preparePrivateFolder, type OpenDatabaseOptions } from './database.js';
import { StoreError } from './errors.js';
import { assertNotOwnedByOther } from './owner.js';
import { projectListFile, readProjectList, writeProjectList } from './project-list.js';
import { damagedName, openStore, rebuildStore, type Store } from './store.js';

/** What opening had to repair, for the one line the app or `relay ui` prints. */
export interface HealReport {
  /**
   * database: the file was damaged and was rebuilt; wal: its -wal was garbage and was set aside;
   * missing: there was no database but projects.json listed projects; projects: projects.json
   * had projects the database had lost.
   */
  readonly cause: 'database' | 'wal' | 'missing' | 'projects';
  /** Files moved aside, as [from, to]. */
  readonly moved: ReadonlyArray<readonly [string, string]>;
  /** Projects registered again. */
  readonly restoredProjects: number;
  /** Runs found in the projects' files while rebuilding. */
  readonly recoveredRuns: number;
}

export interface HealedStore {
  readonly store: Store;
  /** Null when the store opened as it was. */
  readonly healed: HealReport | null;
}

const WAL_MAGIC = new Set([0x377f0682, 0x377f0683]);
const WAL_HEADER_BYTES = 32;

/**
 * True when `-wal` holds a full header that is not a SQLite WAL header. SQLite would silently
 * ignore such a file (and with it whatever the writes in it were); a short or empty -wal is a
 * normal crash leftover, which SQLite recovers on its own.
 */
export function walIsGarbage(walFile: string): boolean {
  let fd: number | undefined;
  try {
    if (statSync(walFile).size < WAL_HEADER_BYTES) return false;
    fd = openSync(walFile, 'r');
    const header = Buffer.alloc(WAL_HEADER_BYTES);
    readSync(fd, header, 0, WAL_HEADER_BYTES, 0);
    const pageSize = header.readUInt32BE(8);
    const validPageSize = pageSize >= 512 && pageSize <= 65_536 && (pageSize & (pageSize - 1)) === 0;
    return !WAL_MAGIC.has(header.readUInt32BE(0)) || header.readUInt32BE(4) !== 3007000 || !validPageSize;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function hasData(file: string): boolean {
  try {
    return statSync(file).size > 0;
  } catch {
    return false;
  }
}

/**
 * Opens the store for the app or `relay ui`, repairing what it can (see the file comment).
 * Throws the StoreErrors it cannot repair (STORE_IN_USE, STORE_TOO_NEW, STORE_OPEN_FAILED, …).
 */
export function openStoreHealing(options: OpenDatabaseOptions & { readonly now?: () => Date }): HealedStore {
  const { file } = options;
  const now = options.now ?? (() => new Date());
  preparePrivateFolder(file);
  // Nothing is moved from under a live process that owns the database.
  if (options.exclusive) assertNotOwnedByOther(file);
  const existed = hasData(file);
  const moved: Array<readonly [string, string]> = [];
  let cause: HealReport['cause'] | null = null;

  if (existed && walIsGarbage(`${file}-wal`)) {
    const aside = damagedName(file, now());
    for (const suffix of ['-wal', '-shm']) {
      if (existsSync(file + suffix)) {
        renameSync(file + suffix, aside + suffix);
        moved.push([file + suffix, aside + suffix]);
      }
    }
    cause = 'wal';
  }

  let store: Store;
  try {
    store = openStore(options);
  } catch (error) {
    if (!(error instanceof StoreError) || error.code !== 'STORE_CORRUPT') throw error;
    const rebuilt = rebuildStore(options);
    if (rebuilt.movedTo) moved.push([file, rebuilt.movedTo]);
    const recoveredRuns = rebuilt.reindexed.reduce((n, r) => n + r.patches + r.ticks, 0);
    return { store: rebuilt.store, healed: { cause: 'database', moved, restoredProjects: rebuilt.projects.length, recoveredRuns } };
  }

  // The list outside the database names projects the database does not have: a lost -wal, a
  // deleted database, a crash between the two writes. Register them again.
  const known = new Set(store.projects.list().map((p) => p.projectId));
  const roots = new Set(store.projects.list().map((p) => p.root));
  const missing = readProjectList(projectListFile(file)).projects.filter((p) => !known.has(p.projectId) && !roots.has(p.root));
  for (const project of missing) store.projects.upsert(project);
  if (missing.length > 0) cause ??= existed ? 'projects' : 'missing';
  else writeProjectList(projectListFile(file), store.projects.list());
  if (cause === null) return { store, healed: null };

  // Whatever the lost writes were, the projects' files say what their runs are.
  let recoveredRuns = 0;
  for (const project of store.projects.list()) {
    if (existsSync(project.root)) {
      const summary = store.reindex(project);
      recoveredRuns += summary.patches + summary.ticks;
    }
  }
  return { store, healed: { cause, moved, restoredProjects: missing.length, recoveredRuns } };
}

/** The one line that tells the user what opening repaired. */
export function describeHeal(report: HealReport, databaseFile: string): string {
  const name = path.basename(databaseFile);
  const movedText = report.moved.map(([, to]) => to).join(' and ');
  const runs = `recovered ${report.recoveredRuns} run${report.recoveredRuns === 1 ? '' : 's'} from the projects' files`;
  const projects = `${report.restoredProjects} project${report.restoredProjects === 1 ? '' : 's'}`;
  switch (report.cause) {
    case 'database':
      return `The database ${databaseFile} was damaged: moved it to ${movedText}, rebuilt it with ${projects} and ${runs}.`;
    case 'wal':
      return `The database's write-ahead log ${name}-wal was damaged: moved it to ${movedText}${report.restoredProjects > 0 ? `, registered ${projects} again` : ''} and ${runs}.`;
    case 'missing':
      return `There was no database at ${databaseFile}: created it, registered ${projects} again from ${path.join(path.dirname(databaseFile), 'projects.json')} and ${runs}.`;
    case 'projects':
      return `The database ${databaseFile} had lost ${projects}: registered them again from projects.json and ${runs}.`;
    default:
      return assertNever(report.cause);
  }
}
