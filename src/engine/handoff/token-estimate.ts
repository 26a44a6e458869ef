// A provider-neutral token estimate. Briefs go to different providers with different tokenizers,
// so an exact count for one would be wrong for the other; about four characters per token is
// the usual rule of thumb for English and code, and it is cheap, stable and deterministic.

/** Characters counted as one token. */
export const CHARS_PER_TOKEN = 4;

/** Estimated tokens of `text` (code points / 4, rounded up). */
export function estimateTokens(text: string): number {
  let codePoints = 0;
  for (const _ of text) codePoints += 1;
  return Math.ceil(codePoints / CHARS_PER_TOKEN);
}

/** The most characters that stay within `tokens` by the same estimate. */
export function charsForTokens(tokens: number): number {
  return Math.max(0, Math.floor(tokens) * CHARS_PER_TOKEN);
}
