import { RelayError } from './errors.js';

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

/** Throws RelayError TOO_LARGE when `text` is over `maxBytes`; exactly `maxBytes` passes. */
export function ensureSizeLimit(label: string, text: string, maxBytes: number): void {
  const size = byteSize(text);
  if (size > maxBytes) throw new RelayError('TOO_LARGE', `${label} is too large (${size} bytes; max ${maxBytes} bytes)`);
}
