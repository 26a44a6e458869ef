// The short version of `npm run faults`' lock checks: processes taking the project lock with a
// shared witness file that catches any double hold, with and without holders killed mid-hold.
import { afterAll, describe, expect, it } from 'vitest';
import { lockStress } from '../../../bench/faults/locks.js';
import { removeTemps } from '../../../bench/faults/util.js';

afterAll(removeTemps);

describe('the project lock under stress', () => {
  it('4 processes × 150 takes: never two holders at once, and nothing left after', async () => {
    const result = await lockStress({ processes: 4, takes: 150, kills: 0, seed: 1 });
    expect(result.violations).toEqual([]);
    expect(result.figures['takes completed']).toBe(600);
    expect(result.figures['double holds']).toBe(0);
  }, 120_000);

  it('holders SIGKILLed while they hold it: the others reclaim it, still never two at once', async () => {
    const result = await lockStress({ processes: 3, takes: 60, kills: 4, seed: 2, holdSpins: 3_000_000 });
    expect(result.violations).toEqual([]);
    expect(result.figures['double holds']).toBe(0);
    expect(result.figures['processes killed']).toBe(4);
  }, 120_000);
});
