// The short version of `npm run faults`' parser fuzz: mutated answers through parse + plan must
// never throw or hang (their speed is a figure of `npm run faults`, not asserted here).
import { describe, expect, it } from 'vitest';
import { parserFuzz } from '../../../bench/faults/fuzz.js';

describe('parse + plan of 300 mutated answers', () => {
  it('never throws and never hangs', async () => {
    const result = await parserFuzz({ count: 300, seed: 5 });
    expect(result.figures.exceptions).toBe(0);
    expect(result.figures.answers).toBe(300);
    expect(result.violations.filter((v) => !v.includes('over 200 ms'))).toEqual([]);
  }, 120_000);
});
