// The short version of `npm run faults`' disk checks: a write failure injected at write steps of
// a real `relay apply` (once, and with the disk staying full), a real ENOSPC on a small tmpfs,
// and EROFS from a read-only bind mount (skipped, with a notice, where mounting is not allowed).
import { afterAll, describe, expect, it } from 'vitest';
import { injectedWriteFaults, readOnlyDisk, tmpfsEnospc } from '../../../bench/faults/disk.js';
import { removeTemps } from '../../../bench/faults/util.js';

afterAll(removeTemps);

describe('a full disk during relay apply', () => {
  it('ENOSPC at every 4th write step (injected): one line naming the file and the cause, never mixed, recovered by the next command', async () => {
    const result = await injectedWriteFaults({ scenarios: ['plain'], stride: 4, stickyEvery: 8 });
    expect(result.violations).toEqual([]);
    expect(result.figures['mixed trees']).toBe(0);
    expect(Number(result.figures['fault points'])).toBeGreaterThan(5);
  }, 240_000);

  it('EIO, EACCES and EROFS at a write step say so in one line as well', async () => {
    for (const code of ['EIO', 'EACCES', 'EROFS']) {
      const result = await injectedWriteFaults({ scenarios: ['plain'], code, stride: 15, stickyEvery: 1000 });
      expect(result.violations).toEqual([]);
    }
  }, 240_000);

  it('a real ENOSPC on a small tmpfs', async (ctx) => {
    const result = await tmpfsEnospc({ points: 4 });
    if (result.skipped) {
      console.warn(`skipped: ${result.skipped}`);
      ctx.skip();
    }
    expect(result.violations).toEqual([]);
    expect(result.figures['mixed trees']).toBe(0);
  }, 240_000);
});

describe('a read-only disk during relay apply', () => {
  it('EROFS from a read-only bind mount: one line, nothing changed, nothing left', async (ctx) => {
    const result = await readOnlyDisk();
    if (result.skipped) {
      console.warn(`skipped: ${result.skipped}`);
      ctx.skip();
    }
    expect(result.violations).toEqual([]);
  }, 120_000);
});
