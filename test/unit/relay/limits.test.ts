import { describe, expect, it } from 'vitest';
import { RelayError } from '../../../src/engine/relay/errors.js';
import { byteSize, ensureSizeLimit, MAX_CONTEXT_FILE_BYTES, MAX_DIFF_BYTES, MAX_PROMPT_BYTES } from '../../../src/engine/relay/limits.js';

describe('limits', () => {
  it('are the spec values', () => {
    expect([MAX_CONTEXT_FILE_BYTES, MAX_DIFF_BYTES, MAX_PROMPT_BYTES]).toEqual([200_000, 300_000, 500_000]);
  });

  it('measure UTF-8 bytes, not characters', () => {
    expect(byteSize('é')).toBe(2);
    expect(byteSize('✓')).toBe(3);
    expect(byteSize('😀')).toBe(4);
  });

  describe('ensureSizeLimit()', () => {
    it('passes exactly at the limit and refuses one byte over, naming the sizes', () => {
      expect(() => ensureSizeLimit('Context file', 'x'.repeat(10), 10)).not.toThrow();
      let error: unknown;
      try {
        ensureSizeLimit('Context file', 'x'.repeat(11), 10);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RelayError);
      expect((error as RelayError).code).toBe('TOO_LARGE');
      expect((error as RelayError).message).toBe('Context file is too large (11 bytes; max 10 bytes)');
    });

    it('counts a multibyte character that crosses the limit', () => {
      expect(() => ensureSizeLimit('Git diff', `${'x'.repeat(8)}é`, 10)).not.toThrow();
      expect(() => ensureSizeLimit('Git diff', `${'x'.repeat(9)}é`, 10)).toThrow('Git diff is too large (11 bytes; max 10 bytes)');
    });
  });
});
