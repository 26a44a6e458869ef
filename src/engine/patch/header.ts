import { protectedHit } from '../fs/protected.js';
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
export function parseFenceInfo(info: string, exists?: PathExists): BlockHeader | null {
  const text = info.trim();
  if (text.length === 0) return null;
  // Docs-site style: ```python title="app/main.py" (a strategy word may follow).
  const titled = /\b(?:title|file|filename|path|name)=(["'])([^"']+)\1\s*(\S*)\s*$/.exec(text);
  if (titled) return parsePathAndStrategy(`"${titled[2]}"${titled[3] ? ` ${titled[3]}` : ''}`);
  // The same unquoted (```ts path=src/a.ts, ```ts:title=src/a.ts) or as an attribute object
  // (```ts {filename: src/a.ts}): the value is the path, never `key=value` as a whole.
  const keyed = /(?:^|[\s:{,])(?:title|file|filename|path|name)\s*[=:]\s*(["']?)([^\s"'{},]+)\1\s*\}?\s*(\S*)\s*$/i.exec(text);
  if (keyed) return looksLikeProjectPath(keyed[2]!, exists) ? parsePathAndStrategy(`"${keyed[2]}"${keyed[3] ? ` ${keyed[3]}` : ''}`) : null;
  const firstSpace = text.search(/\s/);
  const firstToken = firstSpace === -1 ? text : text.slice(0, firstSpace);
  if (COMMENT_MARKERS.some((m) => firstToken.startsWith(m))) return parseCommentHeader(text);
  const rest = firstSpace === -1 ? '' : text.slice(firstSpace).trim();
  // `lang:path` (the style some editors use)
  const colon = firstToken.indexOf(':');
  if (colon > 0 && rest === '') {
    const candidate = firstToken.slice(colon + 1);
    return looksLikeProjectPath(candidate, exists) ? { kind: 'file', path: candidate } : null;
  }
  // A path-only info string (```src/app.ts): only a real-looking path, never a language tag.
  if (rest === '') return /[/.]/.test(firstToken) && looksLikeProjectPath(firstToken, exists) ? { kind: 'file', path: firstToken } : null;
  if (COMMENT_MARKERS.some((m) => rest.startsWith(m))) return parseCommentHeader(rest);
  // Visual Basic comments start with an apostrophe (```vb ' src/M.vb). Only for the BASIC family
  // and only with a space after it, so a quoted path ('my file.vb') is still read as one.
  if (/^'\s/.test(rest) && BASIC_LANGS.test(firstToken)) return parsePathAndStrategy(rest.slice(1).trim());
  // `lang path [strategy]` without a comment marker: only when the path is unmistakably one.
  const header = parsePathAndStrategy(rest);
  if (header && header.kind === 'file' && !header.path.includes(' ') && looksLikeProjectPath(header.path, exists)) return header;
  return null;
}

/**
 * Reads a first body line such as `// src/a.ts` or `# scripts/run.sh new-unified`, used when the
 * fence line names no file. Stricter than the fence form: the line must look like a project path
 * (see looksLikeProjectPath), so a shebang, a comment sentence or a shell prompt is never one.
 */
export function parseFirstLineHeader(line: string, exists?: PathExists): BlockHeader | null {
  const text = line.trim();
  if (text.startsWith('#!')) return null; // a shebang, never a path header
  const marker = COMMENT_MARKERS.find((m) => text.startsWith(m));
  if (!marker) return null;
  const header = parseCommentHeader(text);
  if (!header || header.kind !== 'file') return header;
  const unquoted = stripMarker(text, marker);
  if (!/^["'`]/.test(unquoted) && header.path.includes(' ')) return null;
  return looksLikeProjectPath(header.path, exists) ? header : null;
}

/** A line that is nothing but a file path (aider writes the path bare above its blocks). */
export function parseBarePathLine(line: string, exists?: PathExists): BlockHeader | null {
  const bare = line.trim().replace(/^\*\*|\*\*$/g, '').replace(/:$/, '').trim();
  const unquoted = /^(`|"|')(.+)\1$/.exec(bare)?.[2] ?? bare;
  if (unquoted === '' || /\s/.test(unquoted)) return null;
  return parseFirstLineHeader(`// ${unquoted}`, exists);
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

/** Words next to a path that say the block is a part of the file, not all of it (labels use it too). */
export const PART_OF_FILE = /\b(excerpt|partial|part|snippet|fragment|portion|section|lines?\s*\d|add(ed|ition)?|append|insert|bottom|top|end|new (function|method|helper|class|export)|only|changes?|diff|relevant|example)\b/i;

function parsePathAndStrategy(input: string): BlockHeader | null {
  // Labels some answers put before the path: "File: src/a.ts", "filepath: …", "New file: …".
  const rest = input.replace(/^(new file|file ?path|file(name)?|path|create|updated?|edit(ed)?)\s*:\s*/i, '');
  if (rest.length === 0) return null;
  if (/^rename[-_ ]file$/i.test(rest)) return { kind: 'rename' };
  let path: string;
  let strategyWord: string | undefined;
  const quote = rest[0];
  const quoted = quote === '"' || quote === "'" || quote === '`';
  if (quoted) {
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
    } else if (/^(\(.*\)|[-–—]\s.*)$/.test(tokens.slice(1).join(' ')) && looksLikeProjectPath(tokens[0]!)) {
      // "src/a.ts (updated)", "src/a.ts - new file": the first token is the path, the rest is
      // commentary; "src/a.ts (excerpt)", "src/a.ts — add at the end" say it is a part: no header.
      if (PART_OF_FILE.test(tokens.slice(1).join(' '))) return null;
      path = tokens[0]!;
    } else {
      return null;
    }
  }
  // "// src/a.ts:" — a colon closing the header line is punctuation, not part of the name.
  path = path.trim().replace(/(\.[A-Za-z0-9_-]+|\/[^/\s]+):$/, '$1');
  // A quoted path in a header is a path by the writer's own say-so, whatever it holds: the path
  // chokepoint judges it (and refuses `.git::$INDEX_ALLOCATION`), rather than the block being
  // dropped as prose and the rest of the answer applied without it.
  if (path.length === 0 || (quoted ? /[\r\n]/.test(path) : !looksLikePath(path, false))) return null;
  if (strategyWord === undefined) return { kind: 'file', path };
  return { kind: 'file', path, strategy: strategyFromWord(strategyWord)!, declaredStrategy: strategyWord };
}

/** Whether a project-relative path exists; lets an extension-less name such as `bin/serve` count as a path. */
export type PathExists = (relative: string) => boolean;

/** Characters no path in an answer has: shell syntax, globs, a shebang's `!`, control characters. */
const NOT_IN_PATHS = /[<>|*?!$`;&\r\n\t]/;

/** File names without an extension that are still plainly files. */
const KNOWN_NAMES = new Set([
  'Makefile', 'makefile', 'GNUmakefile', 'Dockerfile', 'Containerfile', 'Procfile', 'Gemfile', 'Rakefile', 'Jenkinsfile',
  'Vagrantfile', 'Brewfile', 'Pipfile', 'Justfile', 'justfile', 'Caddyfile', 'Tiltfile', 'Earthfile', 'Snakefile',
  'LICENSE', 'LICENCE', 'COPYING', 'NOTICE', 'AUTHORS', 'CONTRIBUTORS', 'CODEOWNERS', 'OWNERS', 'README', 'CHANGELOG', 'VERSION',
]);

/** Extensions files in a project commonly have (a backticked `data.draft` or `os.path` in a sentence is code, not a file). */
const COMMON_EXTENSIONS = new Set(
  (
    'ts tsx js jsx mjs cjs mts cts json jsonc json5 md mdx markdown txt rst adoc py pyi pyx ipynb rb erb go rs java kt kts scala groovy gradle swift m mm ' +
    'c h cc cpp cxx hpp hh cs fs fsx vb php pl pm lua r jl dart ex exs erl hrl clj cljs edn elm hs ml mli nim zig v sol ' +
    'sh bash zsh fish ps1 psm1 bat cmd html htm xhtml vue svelte astro css scss sass less styl svg xml xsl yml yaml toml ini cfg conf ' +
    'env properties lock sql prisma graphql gql proto tf tfvars hcl nix dockerfile mk cmake csv tsv tex bib po pot ' +
    'example sample template tpl tmpl j2 jinja hbs mustache ejs pug liquid njk gitignore gitattributes editorconfig npmrc nvmrc ' +
    'babelrc eslintrc prettierrc stylelintrc browserslistrc dockerignore service timer socket plist entitlements xcconfig ' +
    'gemspec podspec cabal mod sum work patch diff snap out log cron crontab rules'
  ).split(' '),
);

/** Whether a path's last segment has an extension files commonly have (or is a well-known name). */
export function hasCommonExtension(candidate: string): boolean {
  const last = candidate.split(/[\\/]/).pop() ?? '';
  if (KNOWN_NAMES.has(last)) return true;
  const ext = /\.([A-Za-z0-9_-]+)$/.exec(last)?.[1]?.toLowerCase();
  return ext !== undefined && COMMON_EXTENSIONS.has(ext);
}

/** Language tags that contain a dot but are not file names. */
const DOTTED_LANGUAGES = /^(vb\.net|asp\.net|node\.js|next\.js|nuxt\.js|vue\.js|react\.js|d3\.js|three\.js|chart\.js|express\.js|ember\.js|socket\.io)$/i;

/** The last segment has an extension with a letter in it (`app.ts`, `.env`), not a version (`v1.2`). */
function hasExtension(name: string): boolean {
  return /^[^\s]*[^.\s]\.[A-Za-z0-9_-]*[A-Za-z][A-Za-z0-9_-]*$/.test(name) || /^\.[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(name);
}

/** A loose test that a string could name a file at all (an explicit header may name `scripts/run`). */
function looksLikePath(candidate: string, requireFolderOrExtension: boolean): boolean {
  if (candidate.length === 0 || candidate.length > 400) return false;
  // `key=value` is an attribute (```ts path=src/a.ts), never a file name.
  if (NOT_IN_PATHS.test(candidate) || candidate.includes('://') || /=["']/.test(candidate) || /^[A-Za-z_][\w-]*=/.test(candidate)) return false;
  if (/[.,:;]$/.test(candidate) && !/\.\w+$/.test(candidate)) return false;
  if (/:\s/.test(candidate) || /^-/.test(candidate)) return false; // "Example: x.yaml", "--flag"
  if (!requireFolderOrExtension) return true;
  return looksLikeProjectPath(candidate);
}

/**
 * Whether a guessed path (a first-line comment, a line above a block, a path-only info string)
 * really names a file: an extension, a well-known extension-less name (Makefile, Dockerfile…),
 * a path that exists in the project, or an absolute / parent / home path that is evidently a
 * file somewhere (taken so that it is refused as unsafe rather than silently dropped). A
 * shebang, a shell prompt, a command or a sentence never is.
 */
export function looksLikeProjectPath(candidate: string, exists?: PathExists): boolean {
  if (!looksLikePath(candidate, false)) return false;
  // A path into .git or Relay Desk's own files is taken as one, so that the answer is refused as
  // unsafe instead of that block being dropped while the rest applies.
  if (/[\\/]/.test(candidate) && protectedHit(candidate.replace(/\\/g, '/').replace(/^(\.\/)+/, '')) !== null) return true;
  const last = candidate.split(/[\\/]/).pop() ?? '';
  if (last === '' || DOTTED_LANGUAGES.test(candidate)) return false;
  if (hasExtension(last) || KNOWN_NAMES.has(last)) return true;
  if (/^(\/|~[\\/]|[A-Za-z]:[\\/]|\.\.[\\/])/.test(candidate) && /[\\/]./.test(candidate.slice(1))) return true;
  return exists?.(candidate.replace(/^\.\//, '')) === true;
}
