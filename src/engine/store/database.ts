import path from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { StoreError, isCorruption } from './errors.js';
import { migrate, type Migration } from './migrations.js';
import { nativeModuleHint } from './native.js';
import { createPrivateFile, ensureDataDir, tightenFile } from './paths.js';

export interface OpenDatabaseOptions {
  readonly file: string;
  /** better-sqlite3's nativeBinding: the Electron-ABI build under Electron (see native.ts). */
  readonly nativeBinding?: string;
  readonly migrations?: readonly Migration[];
  readonly now?: () => Date;
  /** Claim the file for this process (refusing with STORE_IN_USE when another live one has it); closing gives it up. */
  readonly exclusive?: boolean;
}

/**
 * Opens (creating if needed) the database file: WAL journal, foreign keys on, a quick
 * integrity check, then migrations. Anything untrustworthy throws a StoreError.
 */
export function openDatabase(options: OpenDatabaseOptions): BetterSqlite3.Database {
  const { file } = options;
  let db: BetterSqlite3.Database;
  preparePrivateFolder(file);
  try {
    // Created 0600 before SQLite sees it: SQLite gives the -wal and -shm it creates the same mode.
    createPrivateFile(file);
    for (const suffix of ['-wal', '-shm']) tightenFile(file + suffix);
    db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  } catch (error) {
    throw asStoreError(error, file);
  }
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable in WAL mode except for the last transactions before a power cut; the
    // files of truth in each project stay authoritative, so that trade is right here.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    const check = db.pragma('quick_check') as Array<{ quick_check: string }>;
    if (check.length !== 1 || check[0]?.quick_check !== 'ok') {
      const first = check[0]?.quick_check.split('\n').slice(0, 3).join('; ') ?? 'no answer';
      throw new StoreError('STORE_CORRUPT', corruptMessage(file, first), file);
    }
    migrate(db, file, { ...(options.migrations ? { migrations: options.migrations } : {}), ...(options.now ? { now: options.now } : {}) });
    return db;
  } catch (error) {
    db.close();
    throw asStoreError(error, file);
  }
}

/**
 * Creates the database's folder (0700) before anything — the owner file, SQLite — is written into
 * it; throws STORE_OPEN_FAILED with one sentence naming the folder, the reason, and the way out.
 */
export function preparePrivateFolder(file: string): void {
  const dir = path.dirname(file);
  const ready = ensureDataDir(dir);
  if (!ready.ok) throw new StoreError('STORE_OPEN_FAILED', ready.error.message, file);
}

function corruptMessage(file: string, detail: string): string {
  return `The Relay Desk database ${file} is damaged (${detail}). Your projects' history is safe in their own files: rebuild the database (\`relay ui --rebuild-db\`, or the app's "Rebuild history") to move this file aside and index the projects again.`;
}

/** Maps whatever opening threw to a named StoreError (StoreErrors pass through). */
export function asStoreError(error: unknown, file: string): StoreError {
  if (error instanceof StoreError) return error;
  const message = (error as Error)?.message ?? String(error);
  if (isCorruption(error)) return new StoreError('STORE_CORRUPT', corruptMessage(file, message), file, { cause: error });
  if (/NODE_MODULE_VERSION|was compiled against a different|invalid ELF header|Could not locate the bindings file|better_sqlite3\.node/i.test(message)) {
    return new StoreError('STORE_NATIVE_MODULE', `${message}\n${nativeModuleHint(process.versions)}`, file, { cause: error });
  }
  return new StoreError('STORE_OPEN_FAILED', `Cannot open the Relay Desk database ${file}: ${message}`, file, { cause: error });
}
