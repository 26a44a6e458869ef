import { existsSync, mkdirSync, renameSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import type { ReindexSummary } from '../../shared/contract.js';
import { openDatabase, preparePrivateFolder, type OpenDatabaseOptions } from './database.js';
import { assertNotOwnedByOther, claimOwnership } from './owner.js';
import { eventsRepository, type EventsRepository } from './events.js';
import { projectListFile, readProjectList, writeProjectList } from './project-list.js';
import { projectsRepository, type ProjectRecord, type ProjectsRepository } from './projects.js';
import type { RecordKind } from '../records/index.js';
import { indexRecord, reindexProject, type IndexedRecord, type ProjectRef } from './reindex.js';
import { runsRepository, type RunsRepository } from './runs.js';
import { settingsRepository, type SettingsRepository } from './settings.js';

/** The app's own database: registered projects, settings, the event log, and an index of the files of truth. */
export interface Store {
  readonly file: string;
  readonly projects: ProjectsRepository;
  readonly runs: RunsRepository;
  readonly events: EventsRepository;
  readonly settings: SettingsRepository;
  /** Rebuilds the project's history rows from its files of truth (read by engine/records). */
  reindex(project: ProjectRef): ReindexSummary;
  /** Indexes one record (transaction uuid, tick run id, answer id or brief id) as its files say now. */
  indexRecord(project: ProjectRef, kind: RecordKind, key: string, taskId: string | null): IndexedRecord;
  /** Runs `fn` in one SQLite transaction. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

/**
 * The projects table, mirrored to projects.json on every change. Adding writes the database
 * first, removing writes the list first: a crash between the two keeps a project rather than
 * losing one. A failed mirror write (full disk) never fails the change itself; the next change
 * or the next start writes the whole list again.
 */
function mirroredProjects(db: BetterSqlite3.Database, databaseFile: string): ProjectsRepository {
  const table = projectsRepository(db);
  const listFile = projectListFile(databaseFile);
  const save = (projects: readonly ProjectRecord[]): void => {
    try {
      writeProjectList(listFile, projects);
    } catch {
      // The mirror is a spare copy; the database still has the change.
    }
  };
  return {
    ...table,
    upsert: (project) => {
      table.upsert(project);
      save(table.list());
    },
    remove: (projectId) => {
      save(table.list().filter((p) => p.projectId !== projectId));
      return table.remove(projectId);
    },
  };
}

function wrap(file: string, db: BetterSqlite3.Database, release: () => void = () => {}): Store {
  const runs = runsRepository(db);
  return {
    file,
    projects: mirroredProjects(db, file),
    runs,
    events: eventsRepository(db),
    settings: settingsRepository(db),
    reindex: (project) => reindexProject(db, runs, project),
    indexRecord: (project, kind, key, taskId) => indexRecord(db, runs, project, kind, key, taskId),
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => {
      if (db.open) db.close();
      release();
    },
  };
}

/** Opens the store; throws a StoreError (STORE_CORRUPT, STORE_TOO_NEW, …) when the file cannot be trusted. */
export function openStore(options: OpenDatabaseOptions): Store {
  // The folder first: the owner file below is its first write.
  preparePrivateFolder(options.file);
  if (!options.exclusive) return wrap(options.file, openDatabase(options));
  // The owner file goes next to the database, so its folder must exist first (a fresh machine).
  mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
  const release = claimOwnership(options.file);
  try {
    return wrap(options.file, openDatabase(options), release);
  } catch (error) {
    release();
    throw error;
  }
}

export interface RebuildOutcome {
  readonly store: Store;
  /** Where the damaged file was moved (null when there was no file). */
  readonly movedTo: string | null;
  /** Projects registered again: from projects.json, and any more the damaged file still yields. */
  readonly projects: readonly ProjectRecord[];
  readonly reindexed: readonly ReindexSummary[];
}

/** The name a damaged file is moved to: `<file>.damaged-<timestamp>`. */
export function damagedName(file: string, now: Date): string {
  return `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/**
 * Moves a damaged database aside (with its -wal and -shm files), creates a fresh one, registers
 * again the projects of projects.json and whatever more can still be read from the old file,
 * and reindexes them from their files of truth. App-only runs (asks, reviews, rejected
 * patches) of the old file are lost.
 */
export function rebuildStore(options: OpenDatabaseOptions & { readonly now?: () => Date }): RebuildOutcome {
  const { file } = options;
  const now = options.now ?? (() => new Date());
  // A database another live process owns is not damaged: never move it from under that process.
  if (options.exclusive) assertNotOwnedByOther(file);
  const salvaged = mergeProjects(readProjectList(projectListFile(file)).projects, existsSync(file) ? salvageProjects(file, options.nativeBinding) : []);
  let movedTo: string | null = null;
  if (existsSync(file)) {
    movedTo = damagedName(file, now());
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(file + suffix)) renameSync(file + suffix, movedTo + suffix);
    }
  }
  const store = openStore(options);
  const reindexed: ReindexSummary[] = [];
  for (const project of salvaged) {
    store.projects.upsert(project);
    if (existsSync(project.root)) reindexed.push(store.reindex(project));
  }
  return { store, movedTo, projects: salvaged, reindexed };
}

/** `first`, then those of `more` whose projectId and folder are both new. */
export function mergeProjects(first: readonly ProjectRecord[], more: readonly ProjectRecord[]): ProjectRecord[] {
  const merged = [...first];
  for (const project of more) {
    if (!merged.some((p) => p.projectId === project.projectId || p.root === project.root)) merged.push(project);
  }
  return merged;
}

/** Best effort: the projects a damaged file still yields (none when even that table is unreadable). */
function salvageProjects(file: string, nativeBinding: string | undefined): ProjectRecord[] {
  let db: BetterSqlite3.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    return projectsRepository(db).list();
  } catch {
    return [];
  } finally {
    db?.close();
  }
}
