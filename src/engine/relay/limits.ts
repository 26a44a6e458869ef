import { CHECKED, relayFail, type RelayOutcome } from './errors.js';

/** Largest context (file or text) sent to a backend, in UTF-8 bytes. */
export const MAX_CONTEXT_FILE_BYTES = 200_000;
/** Largest git diff sent to a backend, in UTF-8 bytes. */
export const MAX_DIFF_BYTES = 300_000;
/** Largest whole prompt envelope sent to a backend, in UTF-8 bytes. */
export const MAX_PROMPT_BYTES = 500_000;

/** Size of `text` as the backend will receive it: UTF-8 bytes, not UTF-16 code units. */
export function byteSize(text: string): number {
  return Buffer.byteLength(text, 'utf-8');
}

/** TOO_LARGE when `text` is over `maxBytes`; exactly `maxBytes` passes. */
export function checkSizeLimit(label: string, text: string, maxBytes: number): RelayOutcome<undefined> {
  const size = byteSize(text);
  return size > maxBytes ? relayFail('TOO_LARGE', `${label} is too large (${size} bytes; max ${maxBytes} bytes)`) : CHECKED;
}
