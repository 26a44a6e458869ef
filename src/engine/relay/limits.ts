import { CHECKED, relayFail, type RelayOutcome } from './errors.js';

/** The three size limits: src/shared holds them, so the window caps what it sends by the same numbers. */
export { MAX_CONTEXT_FILE_BYTES, MAX_DIFF_BYTES, MAX_PROMPT_BYTES } from '../../shared/facts.js';

/** Size of `text` as the backend will receive it: UTF-8 bytes, not UTF-16 code units. */
export function byteSize(text: string): number {
  return Buffer.byteLength(text, 'utf-8');
}

/** TOO_LARGE when `text` is over `maxBytes`; exactly `maxBytes` passes. */
export function checkSizeLimit(label: string, text: string, maxBytes: number): RelayOutcome<undefined> {
  const size = byteSize(text);
  return size > maxBytes ? relayFail('TOO_LARGE', `${label} is too large (${size} bytes; max ${maxBytes} bytes)`) : CHECKED;
}
