import type { PatchStrategy } from './types.js';

/** What a code block's opening line (or first body line) says about the file it changes. */
export type BlockHeader =
  | { readonly kind: 'file'; readonly path: string; readonly strategy?: PatchStrategy; readonly declaredStrategy?: string }
  | { readonly kind: 'rename' };

const STRATEGY_WORDS: Readonly<Record<string, PatchStrategy>> = {
  replace: 'replace',
  'new-unified': 'unified',
  'standard-diff': 'unified',
  unified: 'unified',
  'unified-diff': 'unified',
  udiff: 'unified',
  'multi-search-replace': 'search-replace',
  'search-replace': 'search-replace',
  'search/replace': 'search-replace',
};

/** Maps a strategy word of either relaycode dialect (braces tolerated) to our strategy. */
export function strategyFromWord(word: string): PatchStrategy | undefined {
  const cleaned = word.trim().replace(/^[{[(]+|[}\])]+$/g, '').toLowerCase();
  return STRATEGY_WORDS[cleaned];
}

const COMMENT_MARKERS = ['<!--', '//', '/*', '--', '::', 'REM ', '#', ';', '%'] as const;
const BASIC_LANGS = /^(vb|vbnet|vb\.net|vbs|vbscript|vba|basic|bas|freebasic)$/i;

/**
 * Reads the info string of an opening fence: `typescript // src/a.ts new-unified`,
 * `yaml # deploy/app.yaml`, `// "docs/My File.md"`, `ts:src/a.ts`, `json // rename-file`.
 * Returns null when the block names no file (prose, shell snippets, the control block).
 */
export function parseFenceInfo(info: string): BlockHeader | null {
  const text = info.trim();
  if (text.length === 0) return null;
  // Docs-site style: ```python title="app/main.py" (a strategy word may follow).
  const titled = /\b(?:title|file|filename|path)=(["'])([^"']+)\1\s*(\S*)\s*$/.exec(text);
  if (titled) return parsePathAndStrategy(`"${titled[2]}"${titled[3] ? ` ${titled[3]}` : ''}`);
  const firstSpace = text.search(/\s/);
  const firstToken = firstSpace === -1 ? text : text.slice(0, firstSpace);
  if (COMMENT_MARKERS.some((m) => firstToken.startsWith(m))) return parseCommentHeader(text);
  const rest = firstSpace === -1 ? '' : text.slice(firstSpace).trim();
  // `lang:path` (the style some editors use)
  const colon = firstToken.indexOf(':');
  if (colon > 0 && rest === '') {
    const candidate = firstToken.slice(colon + 1);
    return looksLikePath(candidate, false) ? { kind: 'file', path: candidate } : null;
  }
  if (rest === '') return null;
  if (COMMENT_MARKERS.some((m) => rest.startsWith(m))) return parseCommentHeader(rest);
  // Visual Basic comments start with an apostrophe (```vb ' src/M.vb). Only for the BASIC family
  // and only with a space after it, so a quoted path ('my file.vb') is still read as one.
  if (/^'\s/.test(rest) && BASIC_LANGS.test(firstToken)) return parsePathAndStrategy(rest.slice(1).trim());
  // `lang path [strategy]` without a comment marker: only when the path is unmistakably one.
  const header = parsePathAndStrategy(rest);
  if (header && header.kind === 'file' && !header.path.includes(' ') && looksLikePath(header.path, true)) return header;
  return null;
}

/**
 * Reads a first body line such as `// src/a.ts` or `# scripts/run.sh new-unified`, used when the
 * fence line names no file. Stricter than the fence form: the path must contain a folder or an
 * extension and no unquoted spaces.
 */
export function parseFirstLineHeader(line: string): BlockHeader | null {
  const text = line.trim();
  const marker = COMMENT_MARKERS.find((m) => text.startsWith(m));
  if (!marker) return null;
  const header = parseCommentHeader(text);
  if (!header || header.kind !== 'file') return header;
  const unquoted = stripMarker(text, marker);
  if (!/^["'`]/.test(unquoted) && header.path.includes(' ')) return null;
  return looksLikePath(header.path, true) ? header : null;
}

/** A line that is nothing but a file path (aider writes the path bare above its blocks). */
export function parseBarePathLine(line: string): BlockHeader | null {
  const bare = line.trim().replace(/^\*\*|\*\*$/g, '').replace(/:$/, '').trim();
  const unquoted = /^(`|"|')(.+)\1$/.exec(bare)?.[2] ?? bare;
  if (unquoted === '' || /\s/.test(unquoted)) return null;
  return parseFirstLineHeader(`// ${unquoted}`);
}

function stripMarker(text: string, marker: string): string {
  let rest = text.slice(marker.length).trim();
  if (marker === '<!--') rest = rest.replace(/-->\s*$/, '').trim();
  if (marker === '/*') rest = rest.replace(/\*\/\s*$/, '').trim();
  return rest;
}

function parseCommentHeader(text: string): BlockHeader | null {
  const marker = COMMENT_MARKERS.find((m) => text.startsWith(m));
  if (!marker) return null;
  return parsePathAndStrategy(stripMarker(text, marker));
}

function parsePathAndStrategy(input: string): BlockHeader | null {
  // Labels some answers put before the path: "File: src/a.ts", "filepath: …", "New file: …".
  const rest = input.replace(/^(new file|file ?path|file(name)?|path|create|updated?|edit(ed)?)\s*:\s*/i, '');
  if (rest.length === 0) return null;
  if (/^rename[-_ ]file$/i.test(rest)) return { kind: 'rename' };
  let path: string;
  let strategyWord: string | undefined;
  const quote = rest[0];
  if (quote === '"' || quote === "'" || quote === '`') {
    const end = rest.indexOf(quote, 1);
    if (end === -1) return null;
    path = rest.slice(1, end);
    const tail = rest.slice(end + 1).trim();
    if (tail !== '') {
      if (!strategyFromWord(tail)) return null;
      strategyWord = tail;
    }
  } else {
    const tokens = rest.split(/\s+/);
    const last = tokens[tokens.length - 1]!;
    if (tokens.length > 1 && strategyFromWord(last)) {
      strategyWord = last;
      tokens.pop();
    }
    const candidate = tokens.join(' ');
    if (!candidate.includes(' ') || /\.[A-Za-z0-9_-]+$/.test(candidate)) {
      // One token, or an unquoted path with spaces that still ends in a file extension.
      path = candidate;
    } else if (looksLikePath(tokens[0]!, true)) {
      // "src/a.ts (updated)": the first token is the path, the rest is commentary.
      path = tokens[0]!;
    } else {
      return null;
    }
  }
  // "// src/a.ts:" — a colon closing the header line is punctuation, not part of the name.
  path = path.trim().replace(/(\.[A-Za-z0-9_-]+|\/[^/\s]+):$/, '$1');
  if (path.length === 0 || !looksLikePath(path, false)) return null;
  if (strategyWord === undefined) return { kind: 'file', path };
  return { kind: 'file', path, strategy: strategyFromWord(strategyWord)!, declaredStrategy: strategyWord };
}

/** A loose test that a string names a file rather than being prose or a command. */
function looksLikePath(candidate: string, requireFolderOrExtension: boolean): boolean {
  if (candidate.length === 0 || candidate.length > 400) return false;
  if (/[<>|*?\r\n\t]/.test(candidate) || candidate.includes('://') || /=["']/.test(candidate)) return false;
  if (/[.,:;!]$/.test(candidate) && !/\.\w+$/.test(candidate)) return false;
  const last = candidate.split(/[\\/]/).pop() ?? '';
  const hasFolder = /[\\/]/.test(candidate);
  const hasExtension = /^[^.\s]*[^\s]*\.[A-Za-z0-9_-]+$/.test(last) || /^\.[A-Za-z0-9_.-]+$/.test(last);
  const wellKnown = /^(Makefile|Dockerfile|Procfile|Gemfile|Rakefile|Jenkinsfile|Vagrantfile|LICENSE|README|CHANGELOG|CODEOWNERS)$/i.test(last);
  if (requireFolderOrExtension) return hasFolder || hasExtension || wellKnown;
  return true;
}
