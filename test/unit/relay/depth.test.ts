import { describe, expect, it } from 'vitest';
import { MAX_RELAY_DEPTH, nextRelayDepth, parseDepth } from '../../../src/engine/relay/depth.js';

describe('depth guard', () => {
  it('allows one level only', () => {
    expect(MAX_RELAY_DEPTH).toBe(1);
  });

  describe('parseDepth()', () => {
    it.each([
      ['0', 0],
      ['1', 1],
      ['7', 7],
      ['1abc', 0],
      ['-1', 0],
      [' 1', 0],
      ['1.0', 0],
      ['', 0],
      [undefined, 0],
    ])('reads %j as %i (digits only, anything else is 0)', (raw, depth) => {
      expect(parseDepth(raw)).toBe(depth);
    });
  });

  describe('nextRelayDepth()', () => {
    it('gives 1 when unset, "0" or "1abc"', () => {
      expect(nextRelayDepth({})).toEqual({ ok: true, value: 1 });
      expect(nextRelayDepth({ PHONE_A_FRIEND_DEPTH: '0' })).toEqual({ ok: true, value: 1 });
      expect(nextRelayDepth({ PHONE_A_FRIEND_DEPTH: '1abc' })).toEqual({ ok: true, value: 1 });
    });

    it('refuses at "1" and above with the depth message', () => {
      for (const raw of ['1', '2', '10']) {
        expect(nextRelayDepth({ PHONE_A_FRIEND_DEPTH: raw })).toEqual({ ok: false, error: { code: 'DEPTH_LIMIT', message: 'Relay depth limit reached; refusing nested relay invocation' } });
      }
    });
  });
});
