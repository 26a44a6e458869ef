/**
 * A cheap first look at clipboard text: which answer formats it could hold. A watcher runs this
 * on every copy, so it only looks for each format's markers in one pass over the lines (short
 * anchored tests, nothing that could backtrack on a long line) and parses nothing; text it
 * returns nothing for is not an answer. A positive result only means "worth parsing":
 * parseAnswer / checkAnswer decide.
 */
import type { AnswerFormat } from './types.js';

/** Only the beginning of a line is looked at: markers are short and come first. */
const HEAD = 300;

const V4A = /^[ \t]*\*\*\* Begin Patch[ \t]*$/;
const SEARCH = /^[ \t]*<{5,9}[ \t]*SEARCH[ \t]*$/;
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/;
/** An info string or first line that names a file: `// src/a.ts`, `title="a.ts"`, `go:cmd/main.go`, `src/a.ts`. */
const NAMED = /(\/\/ ?[\w./-]+\.\w+|title="[^"]+"|^[\w+-]+:[\w./-]+\.\w+|^[\w.-]*\/[\w./-]+\.\w+$|^[\w-]+\.\w+$)/;
/** A label line above a fence: bold, heading or File: with something that has an extension, or a sentence naming a file before its colon. */
const LABEL =
  /^[ \t]*(\*\*|#{1,6} |File: |`).{0,200}?\w\.\w|`[\w./-]{1,200}\.\w{1,10}`[^`]{0,80}:[ \t]*$|^[ \t]*(\*\*)?(File|Filename|Path)(\*\*)?:|^[ \t]*(\*\*|#{1,6} )[^`]{0,200}?\b(Makefile|Dockerfile|Containerfile|Procfile|Gemfile|Rakefile|Jenkinsfile|Vagrantfile|Justfile)\b/i;
/** A first line inside a fence that is a comment naming a file: `// src/a.ts`, `# app/models.py`, `<!-- x.html -->`. */
const COMMENT_PATH = /^[ \t]*(\/\/|#|<!--|--|;|\/\*)[ \t]*(file ?(path|name)?:[ \t]*)?[\w./-]{1,200}\.\w{1,10}\b/i;
const PROJECT_ID = /^[ \t]*["']?project_?id["']?[ \t]*:/i;

/** The formats the text shows markers of, in a stable order; empty when it cannot be an answer. */
export function detectAnswerFormats(text: string): AnswerFormat[] {
  const found = new Set<AnswerFormat>();
  let start = 0;
  let previous = '';
  let beforePrevious = '';
  let fenceOpened = false;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, Math.min(end, start + HEAD));
    start = end + 1;
    const first = line.trimStart()[0];
    if (fenceOpened && COMMENT_PATH.test(line)) found.add('whole-file');
    fenceOpened = false;
    if (first === '*' && V4A.test(line)) found.add('v4a');
    else if (first === '<' && SEARCH.test(line)) found.add('search-replace');
    else if (first === 'd' && line.startsWith('diff --git ')) found.add('git-diff');
    else if (first === '@' && line.startsWith('@@') && previous.startsWith('+++ ') && beforePrevious.startsWith('--- ')) found.add('git-diff');
    else if ((first === '`' || first === '~') && FENCE.test(line)) {
      const info = line.replace(FENCE, '').trim();
      if (NAMED.test(info) || LABEL.test(previous) || (previous.trim() === '' && LABEL.test(beforePrevious))) found.add('whole-file');
      else fenceOpened = info.length < 40; // a first-line path comment may follow
    } else if (first === 'p' || first === 'P' || first === '"' || first === "'") {
      if (PROJECT_ID.test(line)) found.add('relay');
    }
    beforePrevious = previous;
    previous = line;
  }
  return ORDER.filter((f) => found.has(f));
}

const ORDER: readonly AnswerFormat[] = ['v4a', 'search-replace', 'git-diff', 'whole-file', 'relay'];

/** Whether clipboard text is worth parsing as an answer in any format. */
export function mayBeAnswer(text: string): boolean {
  return detectAnswerFormats(text).length > 0;
}
