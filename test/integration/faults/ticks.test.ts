// The short version of `npm run faults`' tick checks (ten concurrent runs are in
// test/integration/tick/lock.test.ts): the spec-shaped lock.json cases, and a SIGKILL during the
// tick's rollback, finished by the next run.
import { afterAll, describe, expect, it } from 'vitest';
import { specLockCases, tickRollbackKills } from '../../../bench/faults/ticks.js';
import { removeTemps } from '../../../bench/faults/util.js';

afterAll(removeTemps);

describe('relais/lock.json in the spec\'s shape {pid, started_at, boot_id}', () => {
  it('a live holder is honoured, a dead one (or one from an earlier boot) is reclaimed, one being written is waited for', async () => {
    const result = await specLockCases();
    expect(result.violations).toEqual([]);
    expect(result.figures).toEqual({
      'live holder': 'BLOCKED_LOCK_HELD',
      'dead holder': 'SUCCESS',
      'holder from an earlier boot (pid alive now)': 'SUCCESS',
      'lock being written (empty, fresh)': 'BLOCKED_LOCK_HELD',
    });
  }, 120_000);
});

describe('SIGKILL during the tick rollback', () => {
  it('the next run finishes the rollback: the tree back at the base commit, no lock, no rollback intent, no temp file', async () => {
    const result = await tickRollbackKills(3, 2, 11);
    expect(result.violations).toEqual([]);
    expect(result.figures['back at base after the next run']).toBe(3);
  }, 180_000);
});
