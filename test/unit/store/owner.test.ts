// One process per database: a second exclusive open is refused while the first one's process
// lives; a leftover of a dead process is taken over; closing gives the file up.
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, rebuildStore, StoreError } from '../../../src/engine/store/index.js';
import { ownerFile } from '../../../src/engine/store/owner.js';
import { tempDir } from '../../helpers/temp.js';

/** A pid that surely belongs to no live process: a child that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

function refusal(open: () => unknown): StoreError {
  try {
    open();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('expected a StoreError');
}

describe('exclusive stores', () => {
  it('refuses a second owner while the first process lives, and names it', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    const store = openStore({ file, exclusive: true });
    expect(existsSync(ownerFile(file))).toBe(true);
    // Another live process owns it (the test runner's parent stands in for the tray app).
    writeFileSync(ownerFile(file), JSON.stringify({ pid: process.ppid }));
    const error = refusal(() => openStore({ file, exclusive: true }));
    expect(error.code).toBe('STORE_IN_USE');
    expect(error.message).toContain(`pid ${process.ppid}`);
    // Rebuilding refuses too, and moves nothing aside.
    expect(refusal(() => rebuildStore({ file, exclusive: true })).code).toBe('STORE_IN_USE');
    expect(existsSync(file)).toBe(true);
    store.close();
  });

  it('takes over the leftover of a process that died, and gives the file up on close', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    writeFileSync(ownerFile(file), JSON.stringify({ pid: deadPid() }));
    const store = openStore({ file, exclusive: true });
    store.projects.list();
    store.close();
    expect(existsSync(ownerFile(file))).toBe(false);
    // Reopening after a clean close works, and a non-exclusive open never looks.
    openStore({ file, exclusive: true }).close();
    const shared = openStore({ file });
    shared.close();
  });
});
