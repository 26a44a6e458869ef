import { describe, expect, it } from 'vitest';
import { DEFAULT_INTAKE_LIMITS, intakeAnswer } from '../../../src/engine/patch/intake.js';

const code = (input: string | Uint8Array, limits = DEFAULT_INTAKE_LIMITS): string => {
  const result = intakeAnswer(input, limits);
  return result.ok ? 'ok' : result.error.code;
};

describe('intakeAnswer', () => {
  it('passes UTF-8 text through, as bytes or as a string', () => {
    const text = 'Héllo ✓ 𝄞\n```ts // a.ts\nx\n```\n';
    expect(intakeAnswer(Buffer.from(text, 'utf8'))).toEqual({ ok: true, value: text });
    expect(intakeAnswer(text)).toEqual({ ok: true, value: text });
  });

  it('refuses bytes that are not UTF-8 and says where', () => {
    const bytes = Buffer.concat([Buffer.from('line one\nline two caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    const result = intakeAnswer(bytes);
    expect(result.ok ? null : result.error).toMatchObject({ code: 'ANSWER_NOT_UTF8' });
    expect(result.ok ? '' : result.error.message).toContain('byte 21 (line 2)');
  });

  it.each([
    ['an overlong encoding', [0xc0, 0xaf]],
    ['a UTF-16 surrogate encoded in UTF-8', [0xed, 0xa0, 0x80]],
    ['a truncated sequence', [0x61, 0xe2, 0x82]],
    ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('refuses %s', (_name, bytes) => {
    expect(code(Uint8Array.from(bytes))).toBe('ANSWER_NOT_UTF8');
  });

  it('names UTF-16 when the bytes start with its byte-order mark', () => {
    const result = intakeAnswer(Buffer.from('\uFEFFhi\n', 'utf16le'));
    expect(result.ok ? '' : result.error.message).toContain('UTF-16');
  });

  it('refuses a string with an unpaired surrogate', () => {
    expect(code('fine \uD800 broken')).toBe('ANSWER_NOT_UTF8');
    expect(code('paired \uD834\uDD1E ok')).toBe('ok');
  });

  it('refuses NUL bytes, as bytes and as a string, naming the line', () => {
    expect(code(Buffer.from('a\nb\0c\n'))).toBe('ANSWER_HAS_NUL');
    const result = intakeAnswer('a\nb\n\0');
    expect(result.ok ? '' : result.error.message).toContain('line 3');
  });

  it('refuses a line over the limit, counting UTF-8 bytes, and takes one at the limit', () => {
    const limits = { maxBytes: 1_000_000, maxLineBytes: 1024 };
    expect(code(`ok\n${'x'.repeat(1024)}\n`, limits)).toBe('ok');
    expect(code(`ok\n${'x'.repeat(1025)}\n`, limits)).toBe('ANSWER_LINE_TOO_LONG');
    // 400 characters of 3 bytes each: 1,200 bytes
    expect(code(`${'€'.repeat(400)}`, limits)).toBe('ANSWER_LINE_TOO_LONG');
    const result = intakeAnswer(Buffer.from(`a\nb\n${'y'.repeat(2000)}`), limits);
    expect(result.ok ? '' : result.error.message).toContain('Line 3');
  });

  it('refuses an answer over the size limit before looking at it', () => {
    expect(code('z'.repeat(2049), { maxBytes: 2048, maxLineBytes: 65536 })).toBe('ANSWER_TOO_LARGE');
  });
});
