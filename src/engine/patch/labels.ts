/**
 * How answers name the file a code block is for when the fence line does not: a line right
 * above the fence (`**src/app.ts**`, `### src/app.ts`, `File: src/app.ts`, `` `src/app.ts` ``, a
 * bare path) or a sentence ending in a colon that names one path in backticks ("Here's the
 * updated `src/errors.ts`:"). Pure functions over prose lines.
 */
import { hasCommonExtension, looksLikeProjectPath, PART_OF_FILE, type PathExists } from './header.js';

/** What the prose right above a fence says about it. */
export type LabelAbove =
  /** The line is nothing but a path (in one of the label forms). */
  | { readonly kind: 'label'; readonly path: string; readonly line: string }
  /** A heading, bold or `File:` line that names one path among other words ("### Changes to src/app.ts"). */
  | { readonly kind: 'mention'; readonly path: string; readonly line: string }
  /** A sentence ending in a colon that names exactly one path in backticks. */
  | { readonly kind: 'sentence'; readonly path: string; readonly line: string };


/** Strips Markdown decoration around a label: heading marks, bold/italic, list bullets, a trailing colon. */
function undecorate(line: string): { text: string; decorated: boolean } {
  let text = line.trim();
  let decorated = false;
  // A list item ("- `src/app.ts`") is never a label: a list of changed files often ends right above an example.
  if (/^([-*+]|\d{1,2}[.)])\s/.test(text)) return { text: '', decorated: false };
  const heading = /^#{1,6}\s+(.*)$/.exec(text);
  if (heading) {
    text = heading[1]!.trim().replace(/\s+#+$/, '');
    decorated = true;
  }
  for (let i = 0; i < 2; i += 1) {
    const wrapped = /^(\*\*|__|\*|_)(.+)\1(:?)$/.exec(text);
    if (!wrapped) break;
    text = `${wrapped[2]!.trim()}${wrapped[3]}`;
    decorated = true;
  }
  text = text.replace(/\s*:$/, '').trim();
  // "### 1. src/app.ts", "### Step 2: src/app.ts", "src/app.ts (new file)", "src/app.ts — updated"
  text = text.replace(/^(\d{1,2}[.)]|step \d{1,2}[:.)]?)\s+/i, '').replace(/\s+(\([^()]{1,40}\)|[-–—]\s+[\w ]{1,30})$/, '').trim();
  const wrappedAgain = /^(\*\*|__|\*|_)(.+)\1$/.exec(text);
  if (wrappedAgain) text = wrappedAgain[2]!.trim();
  // A colon inside the bold part: **File:** src/app.ts, **src/app.ts:**
  const boldStart = /^(\*\*|__)(.+?)\1\s*/.exec(text);
  if (boldStart) {
    text = `${boldStart[2]} ${text.slice(boldStart[0].length)}`.trim().replace(/\s*:$/, '');
    decorated = true;
  }
  return { text, decorated };
}

const FILE_WORD = /^(?:file(?:name)?|file ?path|path|new file|create|updated?|edit(?:ed)?)\s*:\s*(.+)$/i;
/** A heading or bold line that only says the file is new or updated: "Updated `src/app.ts`", "New file src/x.ts". */
const FILE_STATE = /^(?:the\s+)?(?:updated|new|created?|modified|full|complete|revised|fixed|final|entire|whole)(?:\s+file)?\s+(\S+)(?:\s+file)?$/i;

function unquote(text: string): string {
  return /^(`|"|')(.+)\1$/.exec(text.trim())?.[2] ?? text.trim();
}

/** The path a pure label line names, or null. */
function labelPath(line: string, exists?: PathExists): string | null {
  const { text, decorated } = undecorate(line);
  const fileWord = FILE_WORD.exec(text) ?? (decorated ? FILE_STATE.exec(text) : null);
  const candidate = unquote(fileWord ? fileWord[1]!.replace(/^(\*\*|__)|(\*\*|__)$/g, '').trim() : text);
  if (candidate === '' || /\s/.test(candidate)) return null;
  if (looksLikeProjectPath(candidate, exists)) return candidate.replace(/^\.\//, '');
  // A bold, heading or `File:` line holding nothing but a folder path (`**scripts/deploy**`):
  // an extension-less file (a script), named as plainly as any other.
  return (decorated || fileWord) && /^(\.\/)?[\w.-]+(\/[\w.-]+)+$/.test(candidate) && !candidate.endsWith('/') ? candidate.replace(/^\.\//, '') : null;
}

/**
 * Whether a token in running text names a file: a folder and an extension, a common extension
 * (`app.py`, not `data.draft` or `os.path`), or a file that exists in the project.
 */
function namesFile(token: string, exists?: PathExists): boolean {
  if (token === '' || !looksLikeProjectPath(token, exists)) return false;
  return hasCommonExtension(token) || exists?.(token.replace(/^\.\//, '')) === true || (/\//.test(token) && /\.[A-Za-z]\w*$/.test(token));
}

/** Path-like tokens of a line: backticked spans first, else bare words with a folder or an extension. */
function pathTokens(text: string, exists?: PathExists): string[] {
  const ticked = [...text.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  const words = ticked.length > 0 ? ticked : text.split(/\s+/).map((w) => w.replace(/^[("'*_]+|[)"'*_,.;:!?]+$/g, ''));
  return [...new Set(words.filter((w) => namesFile(w, exists)))];
}

/**
 * Reads the prose right above a fence (its last non-blank line, at most two blank lines up).
 * Null when it says nothing about a file.
 */
export function labelAbove(proseLines: readonly string[], exists?: PathExists): LabelAbove | null {
  let at = proseLines.length - 1;
  // The label may be followed by up to two blank lines.
  for (let blanks = 0; blanks < 2 && at >= 0 && proseLines[at]!.trim() === ''; blanks += 1) at -= 1;
  if (at < 0) return null;
  const line = proseLines[at]!;
  const trimmed = line.trim();
  if (trimmed === '' || trimmed.length > 300) return null;
  const path = labelPath(trimmed, exists);
  // "**src/a.ts** (excerpt)", "### src/a.ts (add at the bottom)": the line names the file but says
  // the block is a part of it: a mention, never the whole file.
  if (path !== null) return PART_OF_FILE.test(trimmed) ? { kind: 'mention', path, line: trimmed } : { kind: 'label', path, line: trimmed };
  // A list item, quote or symbol followed by nothing but a path ("1. **src/a.ts**", "- `src/a.ts`",
  // "> src/a.ts", "📄 src/a.ts") evidently names the block's file, but a list of changed files
  // can also end right above an example: it is a mention, which the reader refuses rather than
  // guessing either way.
  const bare = trimmed.replace(/^(?:[-*+>]|\d{1,2}[.)]|[^\p{L}\p{N}\s`*_"'.\/~]+)\s+/u, '');
  if (bare !== trimmed) {
    const named = labelPath(bare, exists);
    if (named !== null) return { kind: 'mention', path: named, line: trimmed };
  }
  const { text, decorated } = undecorate(trimmed);
  const fileWord = FILE_WORD.test(text);
  if (decorated || fileWord) {
    const tokens = pathTokens(text, exists);
    if (tokens.length === 1) return { kind: 'mention', path: tokens[0]!.replace(/^\.\//, ''), line: trimmed };
    return null;
  }
  if (trimmed.endsWith(':')) {
    const ticked = [...trimmed.matchAll(/`([^`]+)`/g)].map((m) => m[1]!.trim()).filter((t) => !/\s/.test(t) && namesFile(t, exists));
    const unique = [...new Set(ticked)];
    if (unique.length === 1) return { kind: 'sentence', path: unique[0]!.replace(/^\.\//, ''), line: trimmed };
  }
  return null;
}

/** Fence languages whose blocks are commands or terminal output, not files, unless a label says otherwise. */
const SHELL_LANGUAGES = /^(bash|sh|shell|zsh|fish|ksh|csh|tcsh|console|terminal|shell-session|shellsession|sh-session|powershell|pwsh|ps1|ps|cmd|bat|batch|dos|doscon|text-output|output)$/i;

/** Whether a fence's info string marks it as a shell command or terminal session. */
export function isShellFence(info: string): boolean {
  const lang = info.trim().split(/[\s{:]/)[0] ?? '';
  return SHELL_LANGUAGES.test(lang);
}
