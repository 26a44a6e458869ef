/**
 * Finds "lazy" placeholders in a full-file replacement: comment lines that stand for code the
 * model left out (`// ... existing code ...`, `# rest unchanged`). Writing such a file would
 * delete that code, so the replacement is refused.
 */
const COMMENT_LINE = /^\s*(?:\/\/+|#+|--|;+|\/\*+|\*|<!--|\{\/\*)\s*(.*?)\s*(?:\*\/\}?|-->)?\s*$/;
const ELLIPSIS = /(\.\.\.|…)/;
const EDGE_ELLIPSIS = /^(\.\.\.|…)|(\.\.\.|…)$/;
/** Words that, next to an ellipsis anywhere in a comment, say "code left out". */
const STRONG = /\b(rest|remaining|existing|unchanged|omitted|previous(ly)?|as before|unmodified|truncated|same as)\b/i;
/** Weaker words that count only when the comment starts or ends with the ellipsis ("// ... other methods ..."). */
const WEAK = /\b(other|code|above|below|same|etc|remain\w*|methods|functions|imports|fields|properties|styles|rules|tests|cases)\b/i;
const PHRASES = [
  /\brest of (the )?[\w.\-/]+( [\w.\-/]+)?( (is|are|remains?|stays?))? (unchanged|the same|as (is|before))\b/i,
  /\bexisting (code|implementation|methods|functions|content|logic|imports|tests|styles|rules)\b/i,
  /\b(code|content|everything|the rest) (above|below)( (is|remains?|stays?))? unchanged\b/i,
  /\bomitted for brevity\b/i,
  /\b(remains?|stays?|left) unchanged\b/i,
  /^(unchanged|no changes?)( (below|above|here))?\.?$/i,
];

/**
 * Returns the placeholder lines found (1-based line numbers), ignoring lines already in the
 * original (given as text, or as a function so that it is only read when a candidate is found).
 */
export function findLazyPlaceholders(content: string, original: string | null | (() => string)): Array<{ line: number; text: string }> {
  let originalLines: Set<string> | null = null;
  const inOriginal = (line: string): boolean => {
    if (originalLines === null) {
      const text = typeof original === 'function' ? original() : (original ?? '');
      originalLines = new Set(text.split(/\r?\n/).map((l) => l.trim()));
    }
    return originalLines.has(line);
  };
  const found: Array<{ line: number; text: string }> = [];
  content.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    if (line.length > 160) return;
    const m = COMMENT_LINE.exec(line);
    if (!m) return;
    const text = m[1]!.trim();
    const lazy =
      /^(\.\.\.|…)+$/.test(text) ||
      (ELLIPSIS.test(text) && STRONG.test(text)) ||
      (EDGE_ELLIPSIS.test(text) && WEAK.test(text)) ||
      PHRASES.some((p) => p.test(text));
    if (lazy && !inOriginal(line.trim())) found.push({ line: index + 1, text: line.trim() });
  });
  return found;
}
