import { describe, expect, it } from 'vitest';
import { TRANSPORT_ERRORS } from '../../../src/shared/contract.js';
import { TRANSPORT_ERRORS as PLAIN } from '../../../src/shared/transport-errors.js';

describe('TRANSPORT_ERRORS', () => {
  it('are the stable codes pages and tests rely on, including the Electron sender check and the socket size limit', () => {
    expect(Object.values(TRANSPORT_ERRORS).sort()).toEqual(
      ['DISCONNECTED', 'INTERNAL', 'INVALID_INPUT', 'MALFORMED_MESSAGE', 'MESSAGE_TOO_LARGE', 'OUTPUT_INVALID', 'UNAVAILABLE', 'UNKNOWN_CHANNEL', 'UNTRUSTED_SENDER'],
    );
  });

  it('are one table: the contract re-exports the zod-free module the page uses', () => {
    expect(TRANSPORT_ERRORS).toBe(PLAIN);
  });
});
