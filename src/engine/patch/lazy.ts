/**
 * Finds "lazy" placeholders in a full-file replacement or in replacement text: lines that stand
 * for code the model left out (`// ... existing code ...`, `# rest unchanged`, `{/* rest of the
 * form *\/}`). Writing them would delete that code, so the edit is refused. Ordinary comments that
 * merely mention such words (`# Same as above, but raises`) are not placeholders.
 */

/** How comments look in a file, by its kind: Markdown-like documents only have HTML comments. */
function commentLine(path: string | undefined): RegExp {
  if (path && /\.(md|mdx|markdown|rst|txt|adoc)$/i.test(path)) return /^\s*<!--\s*(.*?)\s*-->\s*$/;
  return /^\s*(?:\/\/+|#+|--|;+|::|REM\s|%+|\/\*+|\*|<!--|\{\/\*)\s*(.*?)\s*(?:\*\/\}?|-->)?\s*$/;
}

/**
 * A bare `...` line stands for left-out code in languages where it cannot be code (JSON, JS,
 * Go, …). In Python it is code (Ellipsis) and in documents prose, so only these count.
 */
function bareEllipsisIsPlaceholder(path: string | undefined): boolean {
  return path !== undefined && /\.(json|jsonc|js|mjs|cjs|jsx|ts|tsx|go|rs|java|kt|swift|c|h|cc|cpp|hpp|cs|rb|php|css|scss|less|html|vue|svelte|ya?ml|toml|ini|sql|sh|bash)$/i.test(path);
}

const ELLIPSIS = /(\.\.\.|…)/;
/** An ellipsis standing alone at either end of the comment ("... other methods", "other methods ..."). */
const EDGE_ELLIPSIS = /^(\.\.\.|…)(\s|$)|(^|\s)(\.\.\.|…)$/;
/** Words that, next to an ellipsis anywhere in a comment, say "code left out". */
const STRONG = /\b(rest|remaining|existing|unchanged|omitted|previous(ly)?|as before|unmodified|truncated|same as)\b/i;
/** Weaker words that count only when the comment starts or ends with the ellipsis. */
const WEAK = /\b(other|code|above|below|same|etc|remain\w*|methods|functions|imports|fields|properties|styles|rules|tests|cases)\b/i;
/** Whole-comment phrases (anchored: inside a longer sentence the same words are ordinary prose). */
const PHRASES = [
  /^\(?(todo:?\s*)?(keep |see )?(the )?rest( of (the )?[\w.\-/ ]{1,40})?( (is|are|remains?|stays?))?( (unchanged|the same|as (is|before)))?\)?\.?$/i,
  /^\(?(keep |the |all |other )?existing [\w ]{1,30}( here| remains?| unchanged| as is)?\)?\.?$/i,
  /^[\w ]{0,30}\b(code|content|everything|the rest) (above|below)( (is|remains?|stays?))? unchanged\.?$/i,
  /\bomitted for brevity\b/i,
  /^[\w ]{0,30}\b(remains?|stays?|left|is|are) unchanged\.?$/i,
  /^\(?(same as (before|above|previously|the original|original))\)?\.?$/i,
  /^(the )?(other|remaining) [\w ]{1,40} (unchanged|(stay|stays|remain|remains|are|is) (the same|unchanged|as (is|before)))\.?$/i,
  /^\(?(unchanged|no changes?|same)( (below|above|here))?\)?\.?$/i,
  // "your existing loop here", "my existing handlers"
  /^\(?(your|my|our) existing [\w ]{1,30}( here| remains?| unchanged| as is)?\)?\.?$/i,
  // "previous code", "original implementation", "code from before"
  /^\(?(the |your )?(previous|original|old|prior) (code|implementation|logic|content|body|version|functions?|methods?|stuff)( here| unchanged| as is| remains?)?\)?\.?$/i,
  /^\(?(code|content|everything|the rest) from (before|above|the original)\)?\.?$/i,
  // "unchanged: sub()", "same as before: helpers"
  /^(unchanged|same as before|as before|no changes?)\s*:\s*\S.{0,60}$/i,
  // "TODO: paste the rest of your file here"
  /\b(paste|insert|put|add|keep|copy) (in )?(the |your )?(rest|remainder|remaining)\b/i,
  /\brest of (your|the) (file|code|component|class|module|implementation)\b/i,
  // "[...]", "[rest of the component]", "<existing code>", "<snip>"
  /^\[\s*(\.\.\.|…|rest|remaining|existing|other|previous|original|unchanged|snip)[^\]]{0,40}\]$/i,
  /^<\s*(\.\.\.|…|rest|remaining|existing|other|previous|original|unchanged|snip)[^>]{0,40}>$/i,
  // "..", ". . .", "⋯", "etc.", "snip"
  /^(\.\s*){2,}$/,
  /^[⋯⋮…]+$/,
  /^(etc\.?|snip(ped)?|\.\.\.\s*snip\s*\.\.\.)$/i,
  // "(parse() unchanged)", "parse() stays the same", "keep parse as is": a named piece left out
  /^\(?[\w.$]+(\(\))?( (function|method|class|body|impl(ementation)?|code|logic))? (is |are )?(unchanged|stays the same|stay the same|remains? the same|as before|as is|not shown)\)?\.?$/i,
  /^\(?keep( the)? [\w.$]+(\(\))?( (function|method|class|body|code|logic))? (as is|unchanged|as before|the same)\)?\.?$/i,
  // "TODO: keep your existing parse() here", "remaining functions as before", "✂️ snip"
  /\b(keep|paste|insert|put) (your |the )?(existing|original|previous|old) [\w.$()]+/i,
  /^(remaining|other|rest of the) [\w ]{1,30} (as before|unchanged|as is|the same)\.?$/i,
  /^[✂️\s]*snip(ped)?[✂️\s]*$/iu,
];

/** Rules and dashes around a comment's words ("--- unchanged ---", "=== rest ===") say nothing. */
function withoutRules(text: string): string {
  return text.replace(/^[-=*~_#\s]{3,}|[-=*~_#\s]{3,}$/g, '').trim();
}

/**
 * Spread and rest syntax in a comment (`...args`, `{ ...defaults }`) is code talk, not an ellipsis:
 * the dots are dropped unless the word itself is a placeholder word (`...rest of the file`).
 */
function withoutSpreads(text: string): string {
  return text.replace(/(?:\.\.\.|…)([A-Za-z_$][\w$]*)/g, (whole, word: string) => (STRONG.test(word) || WEAK.test(word) ? whole : word));
}

/**
 * A line of code that only stands in for a body, with a comment saying so:
 * `...  # unchanged`, `pass  # existing logic`, `{}  // same as before`.
 */
const STUB_WITH_COMMENT = /^\s*(\.\.\.|…|pass|\{\s*\}|\{\s*(\.\.\.|…)\s*\})\s*(#|\/\/)\s*(.*)$/;
const STUB_WORDS = /\b(unchanged|existing|same|as before|omitted|elided|rest|previous(ly)?|original)\b/i;

/**
 * Returns the placeholder lines found (1-based line numbers), ignoring lines already in the
 * original (given as text, or as a function so that it is only read when a candidate is found).
 * `path` tells the file's kind (how comments look, whether a bare `...` is code).
 */
export function findLazyPlaceholders(content: string, original: string | null | (() => string), path?: string): Array<{ line: number; text: string }> {
  let originalLines: Set<string> | null = null;
  const inOriginal = (line: string): boolean => {
    if (originalLines === null) {
      const text = typeof original === 'function' ? original() : (original ?? '');
      originalLines = new Set(text.split(/\r?\n/).map((l) => l.trim()));
    }
    return originalLines.has(line);
  };
  const comment = commentLine(path);
  const bareEllipsis = bareEllipsisIsPlaceholder(path);
  const found: Array<{ line: number; text: string }> = [];
  content.split('\n').forEach((raw, index) => {
    const line = raw.replace(/\r$/, '');
    if (line.length > 160) return;
    const trimmed = line.trim();
    let lazy = false;
    const stub = STUB_WITH_COMMENT.exec(line);
    if (stub && STUB_WORDS.test(stub[4]!)) lazy = true;
    else if (bareEllipsis && /^(\.\.\.|…),?$/.test(trimmed)) lazy = true;
    else {
      const m = comment.exec(line);
      if (!m) return;
      const text = withoutRules(withoutSpreads(m[1]!.trim()));
      if (text === '') return;
      lazy =
        /^(\.\.\.|…)+$/.test(text) ||
        (ELLIPSIS.test(text) && STRONG.test(text)) ||
        (EDGE_ELLIPSIS.test(text) && WEAK.test(text)) ||
        PHRASES.some((p) => p.test(text));
    }
    if (lazy && !inOriginal(trimmed)) found.push({ line: index + 1, text: trimmed });
  });
  return found;
}
