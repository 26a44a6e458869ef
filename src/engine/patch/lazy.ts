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
  /\b(the )?rest( of (the )?[\w.\-/]+( [\w.\-/]+)?)?( (is|are|remains?|stays?))? (unchanged|the same|as (is|before))\b/i,
  // "existing styles" only as the whole comment: inside a sentence it is ordinary prose.
  /^\(?(keep |the )?existing (code|implementation|methods|functions|content|logic|imports|tests|styles|rules|fields|properties|config(uration)?)( here| remains?| unchanged| as is)?\)?\.?$/i,
  /\b(code|content|everything|the rest) (above|below)( (is|remains?|stays?))? unchanged\b/i,
  /\bomitted for brevity\b/i,
  /\b(remains?|stays?|left) unchanged\b/i,
  /\bsame as (before|above|previously|the original|original)\b/i,
  /\b(other|remaining) [\w ]{1,40} unchanged\b/i,
  /^\(?(unchanged|no changes?|same)\)?( (below|above|here))?\.?$/i,
];

/**
 * A line of code that only stands in for a body, with a comment saying so:
 * `...  # unchanged`, `pass  # existing logic`, `{}  // same as before`.
 */
const STUB_WITH_COMMENT = /^\s*(\.\.\.|…|pass|\{\s*\}|\{\s*(\.\.\.|…)\s*\})\s*(#|\/\/)\s*(.*)$/;
const STUB_WORDS = /\b(unchanged|existing|same|as before|omitted|elided|rest|previous(ly)?|original)\b/i;

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
    const stub = STUB_WITH_COMMENT.exec(line);
    if (stub && STUB_WORDS.test(stub[4]!) && !inOriginal(line.trim())) {
      found.push({ line: index + 1, text: line.trim() });
      return;
    }
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
