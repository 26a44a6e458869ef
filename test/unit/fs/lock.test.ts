import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLockFile, inspectLockFile, parseLockOwner } from '../../../src/engine/fs/lock.js';
import { bootId } from '../../../src/engine/fs/process.js';
import { tempDir } from '../../helpers/temp.js';

const owner = (extra: Record<string, unknown> = {}) => ({ pid: process.pid, bootId: bootId(), startedAt: new Date().toISOString(), ...extra });

/** The pid of a process that has ended (and been reaped). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('acquireLockFile()', () => {
  it('creates the lock holding its owner, refuses a second taker while it is held, and release removes it', () => {
    const file = path.join(tempDir(), 'state/lock.json');
    const first = acquireLockFile(file, owner({ n: 1 }));
    expect(first.acquired).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, n: 1 });
    const second = acquireLockFile(file, owner({ n: 2 }));
    expect(second).toMatchObject({ acquired: false, reason: expect.stringContaining(`held by process ${process.pid}`) });
    if (first.acquired) expect(first.lock.release()).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(readdirSync(path.dirname(file))).toEqual([]);
  });

  it('release removes only the lock it wrote: a lock that is someone else\'s now is left alone', () => {
    const file = path.join(tempDir(), 'lock.json');
    const mine = acquireLockFile(file, owner());
    const theirs = JSON.stringify({ pid: process.pid, bootId: bootId(), startedAt: 'someone else' });
    writeFileSync(file, theirs);
    if (mine.acquired) expect(mine.lock.release()).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe(theirs);
  });

  it('never removes a lock file that is empty (its writer has not finished writing): it is held, whatever its age', () => {
    const file = path.join(tempDir(), 'lock.json');
    writeFileSync(file, '');
    const now = Date.now();
    expect(acquireLockFile(file, owner(), { nowMs: now })).toMatchObject({ acquired: false, reason: expect.stringContaining('being written') });
    expect(acquireLockFile(file, owner(), { nowMs: now + 86_400_000 })).toMatchObject({ acquired: false, reason: expect.stringContaining('unreadable') });
    expect(existsSync(file)).toBe(true);
  });

  it('reclaims a lock whose pid is not running (either spelling of the owner fields), and one from an earlier boot', () => {
    const file = path.join(tempDir(), 'lock.json');
    writeFileSync(file, JSON.stringify({ pid: deadPid(), bootId: bootId(), startedAt: 'x' }));
    expect(inspectLockFile(file).state).toBe('stale');
    const taken = acquireLockFile(file, owner());
    expect(taken.acquired).toBe(true);
    if (taken.acquired) taken.lock.release();
    writeFileSync(file, JSON.stringify({ pid: process.pid, boot_id: 'a-boot-long-ago', started_at: 'x' }));
    expect(acquireLockFile(file, owner()).acquired).toBe(true);
  });

  it('sweeps what dead takers left beside the lock: their temp files and spent break files', () => {
    const dir = tempDir();
    const file = path.join(dir, 'lock.json');
    const dead = deadPid();
    writeFileSync(path.join(dir, `.lock.json.${dead}.0badc0de.tmp`), '{}');
    writeFileSync(path.join(dir, `lock.json.break-0123456789abcdef-1`), JSON.stringify({ pid: dead }));
    writeFileSync(path.join(dir, 'unrelated.txt'), 'stays');
    expect(acquireLockFile(file, owner()).acquired).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['lock.json', 'unrelated.txt']);
  });
});

describe('judgeLock()', () => {
  it('takes a lock naming a running pid but no boot as stale: Relay Desk always writes its boot, so it came with the files', () => {
    const file = path.join(tempDir(), 'lock.json');
    writeFileSync(file, JSON.stringify({ pid: process.pid }));
    expect(inspectLockFile(file)).toMatchObject({ state: 'stale', reason: expect.stringContaining('no boot') });
    writeFileSync(file, JSON.stringify({ pid: process.pid, bootId: bootId() }));
    expect(inspectLockFile(file)).toMatchObject({ state: 'held' });
  });
});

describe('parseLockOwner()', () => {
  it('reads the tick spec\'s shape and the project lock\'s shape, and refuses what has no pid', () => {
    expect(parseLockOwner('{"pid": 12, "started_at": "t", "boot_id": "b"}')).toMatchObject({ pid: 12, bootId: 'b', startedAt: 't' });
    expect(parseLockOwner('{"pid": 12, "startedAt": "t", "bootId": "b"}')).toMatchObject({ pid: 12, bootId: 'b', startedAt: 't' });
    expect(parseLockOwner('{"pid": 12}')).toMatchObject({ pid: 12, bootId: null });
    expect(parseLockOwner('{"started_at": "t"}')).toBeNull();
    expect(parseLockOwner('{"pid": -1}')).toBeNull();
    expect(parseLockOwner('{"pid": 1')).toBeNull();
  });
});
