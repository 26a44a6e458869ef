/**
 * The one door every answer comes through (a file or stdin for `relay apply`, the clipboard, the
 * window's paste): bytes that are not UTF-8 text, NUL bytes, absurdly long lines and oversized
 * answers are refused here, with a typed error, before anything is parsed or planned. Parsing and
 * planning can then rely on bounded lines, and U+FFFD never reaches a file.
 */
import { isUtf8 } from 'node:buffer';
import { fail, ok, type Result } from '../result.js';

/** Why the intake refused an answer. */
export type IntakeFailureCode = 'ANSWER_TOO_LARGE' | 'ANSWER_NOT_UTF8' | 'ANSWER_HAS_NUL' | 'ANSWER_LINE_TOO_LONG';

/** How much an answer may hold. */
export interface IntakeLimits {
  /** The whole answer, in UTF-8 bytes. */
  readonly maxBytes: number;
  /** One line of the answer, in UTF-8 bytes. */
  readonly maxLineBytes: number;
}

/** 2 MB answers (the clipboard watcher's size limit) with lines up to 64 KB. */
export const DEFAULT_INTAKE_LIMITS: IntakeLimits = { maxBytes: 2_000_000, maxLineBytes: 65_536 };

/** A UTF-16 surrogate without its other half: text that came from invalid bytes. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** 1-based line number of a byte or character offset. */
function lineAt(text: string | Uint8Array, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i += 1) if ((typeof text === 'string' ? text.charCodeAt(i) : text[i]) === 10) line += 1;
  return line;
}

/** Offset of the first byte that does not belong to a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const need = b < 0x80 ? 0 : b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k += 1) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    // Overlong three-byte forms, UTF-16 surrogates and code points past U+10FFFF.
    const second = bytes[i + 1] ?? 0;
    if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return i;
    i += need + 1;
  }
  return bytes.length;
}

function tooLong(line: number, bytes: number, limits: IntakeLimits): Result<never, IntakeFailureCode> {
  return fail(
    'ANSWER_LINE_TOO_LONG',
    `Line ${line} of the answer is ${bytes.toLocaleString('en')} bytes long; answers may have lines of at most ${limits.maxLineBytes.toLocaleString('en')} bytes (patch.maxLineBytes in relay.config.json). A line that long is minified or generated output, not an edit to review. Nothing was applied.`,
  );
}

/** Checks line lengths of decoded text (UTF-8 bytes counted only for lines that could exceed the limit). */
function checkLines(text: string, limits: IntakeLimits): Result<void, IntakeFailureCode> {
  let start = 0;
  let line = 1;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const chars = end - start;
    // A character is at most 3 UTF-8 bytes (4 for a surrogate pair, which is 2 characters).
    if (chars * 3 > limits.maxLineBytes) {
      const bytes = Buffer.byteLength(text.slice(start, end), 'utf8');
      if (bytes > limits.maxLineBytes) return tooLong(line, bytes, limits);
    }
    start = end + 1;
    line += 1;
  }
  return ok(undefined);
}

/**
 * Turns raw input into answer text, or refuses it: too large, not UTF-8 (the byte offset and
 * line are named), a NUL byte, or a line over the limit. A string (the clipboard) is checked
 * the same way: lone surrogates are its form of invalid UTF-8.
 */
export function intakeAnswer(input: string | Uint8Array, limits: IntakeLimits = DEFAULT_INTAKE_LIMITS): Result<string, IntakeFailureCode> {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length;
  if (size > limits.maxBytes) {
    return fail('ANSWER_TOO_LARGE', `The answer is ${size.toLocaleString('en')} bytes; Relay Desk takes answers of at most ${limits.maxBytes.toLocaleString('en')} bytes (patch.maxAnswerBytes in relay.config.json). Nothing was applied; ask for the change in smaller parts.`);
  }
  let text: string;
  if (typeof input === 'string') {
    if (LONE_SURROGATE.test(input)) {
      return fail('ANSWER_NOT_UTF8', 'The answer holds broken characters (unpaired UTF-16 surrogates), so it is not valid text. Nothing was applied; copy the answer again.');
    }
    text = input;
  } else {
    if (!isUtf8(input)) {
      const at = firstInvalidUtf8(input);
      const utf16 = input[0] === 0xff && input[1] === 0xfe ? ' It looks like UTF-16; save it as UTF-8.' : '';
      return fail('ANSWER_NOT_UTF8', `The answer is not valid UTF-8 text: byte ${at} (line ${lineAt(input, at)}) is not part of a UTF-8 character.${utf16} Nothing was applied.`);
    }
    text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  }
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    return fail('ANSWER_HAS_NUL', `The answer contains a NUL byte (line ${lineAt(text, nul)}): it is binary data, not text an assistant wrote. Nothing was applied.`);
  }
  const lines = checkLines(text, limits);
  return lines.ok ? ok(text) : lines;
}
