import { readFileSync, writeFileSync } from 'node:fs';
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

  it('treats a fresh unreadable lock as held (being written) and an old one as stale', () => {
    const file = path.join(tempDir(), 'lock.json');
    writeFileSync(file, '');
    const now = Date.now();
    expect(inspectLock(file, now).state).toBe('held');
    expect(acquireTickLock(file, me('r'), now).acquired).toBe(false);
    expect(inspectLock(file, now + 60_000).state).toBe('stale');
    expect(acquireTickLock(file, me('r'), now + 60_000).acquired).toBe(true);
  });

  it('does not reclaim while another run holds the reclaim file', () => {
    const file = path.join(tempDir(), 'lock.json');
    writeFileSync(file, JSON.stringify({ ...me('dead'), pid: DEAD_PID }));
    writeFileSync(`${file}.reclaim`, JSON.stringify(me('reclaimer')));
    expect(acquireTickLock(file, me('r2'))).toMatchObject({ acquired: false, reason: 'another run is reclaiming a stale lock' });
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
