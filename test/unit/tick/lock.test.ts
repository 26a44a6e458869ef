import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootId } from '../../../src/engine/fs/process.js';
import { acquireTickLock, inspectLock, type LockInfo } from '../../../src/engine/tick/lock.js';
import { tempDir } from '../../helpers/temp.js';

const me = (runId: string): LockInfo => ({ pid: process.pid, started_at: new Date().toISOString(), boot_id: bootId(), run_id: runId });
const DEAD_PID = 2 ** 22 + 4321;

describe('acquireTickLock()', () => {
  it('creates lock.json with pid, started_at and boot_id, and release removes it', () => {
    const file = path.join(tempDir(), 'relais/lock.json');
    const attempt = acquireTickLock(file, me('r1'));
    expect(attempt.acquired).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ pid: process.pid, boot_id: bootId(), run_id: 'r1' });
    expect(inspectLock(file).state).toBe('held');
    if (attempt.acquired) attempt.lock.release();
    expect(inspectLock(file).state).toBe('free');
  });

  it('refuses a second holder while the first is alive', () => {
    const file = path.join(tempDir(), 'lock.json');
    const first = acquireTickLock(file, me('r1'));
    const second = acquireTickLock(file, me('r2'));
    expect(first.acquired).toBe(true);
    expect(second).toMatchObject({ acquired: false, holder: { run_id: 'r1' } });
  });

  it('reclaims a lock whose process is dead, or which was taken before a reboot', () => {
    const file = path.join(tempDir(), 'lock.json');
    writeFileSync(file, JSON.stringify({ ...me('dead'), pid: DEAD_PID }));
    expect(inspectLock(file).state).toBe('stale');
    expect(acquireTickLock(file, me('r2')).acquired).toBe(true);
    writeFileSync(file, JSON.stringify({ ...me('old'), boot_id: 'another-boot' }));
    expect(acquireTickLock(file, me('r3')).acquired).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).run_id).toBe('r3');
  });

  it('honours a lock of the spec\'s own shape {pid, started_at, boot_id}: held while its pid runs, reclaimed once it is dead', () => {
    const file = path.join(tempDir(), 'lock.json');
    const live = { pid: process.pid, started_at: new Date().toISOString(), boot_id: bootId() };
    writeFileSync(file, JSON.stringify(live));
    expect(inspectLock(file)).toMatchObject({ state: 'held', holder: { pid: process.pid, run_id: null } });
    expect(acquireTickLock(file, me('r1'))).toMatchObject({ acquired: false, holder: { pid: process.pid } });
    writeFileSync(file, JSON.stringify({ ...live, pid: DEAD_PID }));
    expect(inspectLock(file).state).toBe('stale');
    expect(acquireTickLock(file, me('r2')).acquired).toBe(true);
  });

  it('treats an unreadable lock as held, fresh (being written) or old (never taken by age alone), unless it predates this boot', () => {
    const file = path.join(tempDir(), 'lock.json');
    writeFileSync(file, '');
    const now = Date.now();
    expect(inspectLock(file, now)).toMatchObject({ state: 'held', reason: expect.stringContaining('being written') });
    expect(acquireTickLock(file, me('r'), now).acquired).toBe(false);
    expect(inspectLock(file, now + 3_600_000)).toMatchObject({ state: 'held', reason: expect.stringContaining('unreadable') });
    expect(acquireTickLock(file, me('r'), now + 3_600_000).acquired).toBe(false);
    const beforeBoot = new Date(Date.now() - os.uptime() * 1000 - 3_600_000);
    utimesSync(file, beforeBoot, beforeBoot);
    expect(inspectLock(file).state).toBe('stale');
    expect(acquireTickLock(file, me('r')).acquired).toBe(true);
  });

  it('does not reclaim while a living process is breaking the same stale lock; a dead breaker is passed over', () => {
    const file = path.join(tempDir(), 'lock.json');
    const stale = `${JSON.stringify({ ...me('dead'), pid: DEAD_PID }, null, 2)}\n`;
    writeFileSync(file, stale);
    const key = createHash('sha256').update(stale).digest('hex').slice(0, 16);
    writeFileSync(`${file}.break-${key}-1`, JSON.stringify(me('breaker')));
    expect(acquireTickLock(file, me('r2'))).toMatchObject({ acquired: false, reason: expect.stringContaining('taking over the stale lock') });
    writeFileSync(`${file}.break-${key}-1`, JSON.stringify({ ...me('breaker'), pid: DEAD_PID }));
    expect(acquireTickLock(file, me('r3')).acquired).toBe(true);
    expect(readdirSync(path.dirname(file)).sort()).toEqual(['lock.json']);
  });
});

describe('stale temp files', () => {
  it('a temp file whose writer still runs is not stale; one without a pid, or with a dead pid, is', async () => {
    const { tempFileWriterAlive } = await import('../../../src/engine/tick/preflight.js');
    const alive = (pid: number) => pid === 4242;
    expect(tempFileWriterAlive('.BLOCKED.json.4242.ab12cd34.tmp', alive)).toBe(true);
    expect(tempFileWriterAlive('.BLOCKED.json.4243.ab12cd34.tmp', alive)).toBe(false);
    expect(tempFileWriterAlive('STATE.json.tmp', alive)).toBe(false);
  });
});
