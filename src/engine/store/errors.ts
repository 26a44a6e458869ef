/** Why the store refused to open or to go on. */
export type StoreErrorCode =
  /** The file is not a SQLite database, or its pages are damaged. Rebuild it with `rebuildStore`. */
  | 'STORE_CORRUPT'
  /** The database was written by a newer Relay Desk (it has migrations this build does not know). */
  | 'STORE_TOO_NEW'
  /** A recorded migration differs from this build's migration of the same version. */
  | 'STORE_MIGRATION_MISMATCH'
  /** A migration failed; it was rolled back and the database is as it was. */
  | 'STORE_MIGRATION_FAILED'
  /** better-sqlite3's native module could not be loaded (e.g. built for another Node/Electron ABI). */
  | 'STORE_NATIVE_MODULE'
  /** The file could not be opened (permissions, missing folder, locked). */
  | 'STORE_OPEN_FAILED'
  /** Another live Relay Desk process owns the database (see owner.ts). */
  | 'STORE_IN_USE';

/**
 * The store fails closed: anything that makes the database untrustworthy stops it with this
 * named error instead of running on a half-migrated or damaged file.
 */
export class StoreError extends Error {
  override readonly name = 'StoreError';

  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly file: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True for SQLite errors that mean the file is not (or no longer) a sound database. */
export function isCorruption(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'));
}
