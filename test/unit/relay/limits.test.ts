import { describe, expect, it } from 'vitest';
import { byteSize, checkSizeLimit, MAX_CONTEXT_FILE_BYTES, MAX_DIFF_BYTES, MAX_PROMPT_BYTES } from '../../../src/engine/relay/limits.js';

describe('limits', () => {
  it('are the spec values', () => {
    expect([MAX_CONTEXT_FILE_BYTES, MAX_DIFF_BYTES, MAX_PROMPT_BYTES]).toEqual([200_000, 300_000, 500_000]);
  });

  it('measure UTF-8 bytes, not characters', () => {
    expect(byteSize('é')).toBe(2);
    expect(byteSize('✓')).toBe(3);
    expect(byteSize('😀')).toBe(4);
  });

  describe('checkSizeLimit()', () => {
    it('passes exactly at the limit and refuses one byte over with TOO_LARGE, naming the sizes', () => {
      expect(checkSizeLimit('Context file', 'x'.repeat(10), 10).ok).toBe(true);
      expect(checkSizeLimit('Context file', 'x'.repeat(11), 10)).toEqual({ ok: false, error: { code: 'TOO_LARGE', message: 'Context file is too large (11 bytes; max 10 bytes)' } });
    });

    it('counts a multibyte character that crosses the limit', () => {
      expect(checkSizeLimit('Git diff', `${'x'.repeat(8)}é`, 10).ok).toBe(true);
      expect(checkSizeLimit('Git diff', `${'x'.repeat(9)}é`, 10)).toMatchObject({ ok: false, error: { message: 'Git diff is too large (11 bytes; max 10 bytes)' } });
    });
  });
});
