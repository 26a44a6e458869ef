import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stateDir } from './state.js';
import { currentOwner, ownerIsGone, type ProcessOwner } from '../fs/process.js';

const LOCK_FILE = 'lock.json';

/** A held project lock; release it exactly once. */
export interface ProjectLock {
  release(): void;
}

/**
 * Takes `.relaycode/lock.json` so that two processes (the app and the CLI) never run
 * transactions on the same project at once. A lock whose owner is gone is taken over.
 * Returns the living owner when the lock is held.
 */
export function acquireProjectLock(root: string, now: Date = new Date()): ProjectLock | { heldBy: ProcessOwner } {
  const dir = stateDir(root);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, LOCK_FILE);
  const owner = currentOwner(now);
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      writeFileSync(file, JSON.stringify(owner), { flag: 'wx' });
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder: ProcessOwner | null = null;
      try {
        holder = JSON.parse(readFileSync(file, 'utf8')) as ProcessOwner;
      } catch {
        holder = null; // unreadable: written by a process that died mid-write
      }
      if (holder && holder.pid === process.pid && !ownerIsGone(holder)) return { heldBy: holder };
      if (holder && !ownerIsGone(holder)) return { heldBy: holder };
      rmSync(file, { force: true });
    }
  }
  return { heldBy: { pid: -1, bootId: '', startedAt: '' } };
}
