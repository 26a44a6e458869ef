// One process owns a database at a time. Two runtimes on one file (the tray app and `relay ui`
// share the app's data folder) would number events from the same seq, and each would take the
// other's running tasks for those of a dead process. The owner leaves its pid beside the file;
// a pid that is no longer alive is a crash's leftover, and is taken over.
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { StoreError } from './errors.js';

/** The file beside the database that names its owner. */
export function ownerFile(databaseFile: string): string {
  return `${databaseFile}.owner`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ownerPid(file: string): number | null {
  try {
    const pid = Number((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Throws STORE_IN_USE when another live process owns the database. */
export function assertNotOwnedByOther(databaseFile: string, pid = process.pid): void {
  const owner = ownerPid(ownerFile(databaseFile));
  if (owner !== null && owner !== pid && alive(owner)) {
    throw new StoreError(
      'STORE_IN_USE',
      `Another Relay Desk (pid ${owner}) is using ${databaseFile}. Use its window (the tray app, or the URL its \`relay ui\` printed), stop it first, or give this one another --data-dir. If no such process is Relay Desk, delete ${ownerFile(databaseFile)}.`,
      databaseFile,
    );
  }
}

/** Claims the database for this process; returns the function that gives it up. */
export function claimOwnership(databaseFile: string, pid = process.pid): () => void {
  const file = ownerFile(databaseFile);
  for (let attempt = 0; ; attempt += 1) {
    try {
      writeFileSync(file, `${JSON.stringify({ pid, since: new Date().toISOString() })}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw new StoreError('STORE_OPEN_FAILED', `Cannot claim ${databaseFile}: ${(error as Error).message}`, databaseFile, { cause: error });
      assertNotOwnedByOther(databaseFile, pid);
      // A leftover of a process that died (or of this one): take it over.
      unlinkSync(file);
    }
  }
  return () => {
    if (ownerPid(file) !== pid) return;
    try {
      unlinkSync(file);
    } catch {
      // already gone: nothing to give up
    }
  };
}
