import { describe, expect, it } from 'vitest';
import { applySearchReplace } from '../../../src/engine/patch/strategies/search-replace.js';
import { applyUnifiedDiff } from '../../../src/engine/patch/strategies/unified.js';
import { applyReplace } from '../../../src/engine/patch/strategies/replace.js';
import { fromFileText, toFileText } from '../../../src/engine/patch/text.js';

function sr(content: string | null, body: string): string {
  const result = applySearchReplace(content === null ? null : toFileText(content), body, 'f');
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return fromFileText(result.value.file);
}

function srError(content: string, body: string): string {
  const result = applySearchReplace(toFileText(content), body, 'f');
  return result.ok ? 'applied' : result.error.code;
}

function diff(content: string | null, body: string): string | null {
  const result = applyUnifiedDiff(content === null ? null : toFileText(content), body, 'f');
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value.file === null ? null : fromFileText(result.value.file);
}

function diffError(content: string | null, body: string): string {
  const result = applyUnifiedDiff(content === null ? null : toFileText(content), body, 'f');
  return result.ok ? 'applied' : result.error.code;
}

const block = (search: string, replace: string): string => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE`;

describe('search-replace', () => {
  it('replaces an exact match', () => {
    expect(sr('a\nb\nc\n', block('b', 'B'))).toBe('a\nB\nc\n');
  });

  it('applies several blocks in order, including adjacent ones', () => {
    expect(sr('1\n2\n3\n4\n', `${block('1\n2', 'one\ntwo')}\n\n${block('3', 'three')}`)).toBe('one\ntwo\nthree\n4\n');
  });

  it('deletes with an empty REPLACE', () => {
    expect(sr('keep\ndrop me\nkeep too\n', '<<<<<<< SEARCH\ndrop me\n=======\n>>>>>>> REPLACE')).toBe('keep\nkeep too\n');
  });

  it('refuses a SEARCH that matches twice, even exactly', () => {
    expect(srError('x\nreturn\nx\nreturn\n', block('x\nreturn', 'y'))).toBe('SEARCH_AMBIGUOUS');
  });

  it('refuses a SEARCH that is not there', () => {
    expect(srError('a\nb\n', block('zzz', 'y'))).toBe('SEARCH_NOT_FOUND');
  });

  it('matches ignoring trailing whitespace and keeps unchanged file lines as they were', () => {
    expect(sr('a  \nb\t\nc\n', block('a\nb\nc', 'a\nB\nc'))).toBe('a  \nB\nc\n');
  });

  it('matches with typographic quotes and dashes normalised', () => {
    expect(sr("const s = 'it’s — ok';\n", block("const s = 'it's - ok';", 'const s = "fine";'))).toBe('const s = "fine";\n');
  });

  it('keeps CRLF for every line of a CRLF file, including added ones', () => {
    expect(sr('a\r\nb\r\nc\r\n', block('b', 'B1\nB2'))).toBe('a\r\nB1\r\nB2\r\nc\r\n');
  });

  it('keeps a missing final newline and a BOM', () => {
    expect(sr('\uFEFFa\nb', block('b', 'B'))).toBe('\uFEFFa\nB');
  });

  it('maps spaces in the SEARCH to tabs in the file and writes the REPLACE with tabs', () => {
    const file = 'func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n';
    const search = '    if x {\n        return 1\n    }';
    const replace = '    if x {\n        log()\n        return 2\n    }';
    expect(sr(file, block(search, replace))).toBe('func f() {\n\tif x {\n\t\tlog()\n\t\treturn 2\n\t}\n}\n');
  });

  it('re-indents a 2-space SEARCH to a 4-space file, deeper new levels included', () => {
    const file = 'class A:\n    def f(self):\n        return 1\n';
    const search = '  def f(self):\n    return 1';
    const replace = '  def f(self):\n    if self:\n      return 2\n    return 1';
    expect(sr(file, block(search, replace))).toBe('class A:\n    def f(self):\n        if self:\n            return 2\n        return 1\n');
  });

  it('refuses an indentation match whose relative structure differs', () => {
    const file = 'if a:\n    x()\ny()\n';
    expect(srError(file, block('if a:\nx()\n    y()', 'z'))).toBe('SEARCH_NOT_FOUND');
  });

  it('matches after collapsing runs of inner whitespace (column-aligned code)', () => {
    expect(sr('  --a:    1;\n  --bb:   2;\n', block('  --a: 1;\n  --bb: 2;', '  --a: 3;\n  --bb: 4;'))).toBe('  --a: 3;\n  --bb: 4;\n');
  });

  it('tolerates a SEARCH that lost a blank line of the file', () => {
    const file = 'function a() {\n  one();\n\n  two();\n  three();\n}\n';
    expect(sr(file, block('  one();\n  two();\n  three();', '  one();\n  two();\n  four();'))).toBe('function a() {\n  one();\n\n  two();\n  four();\n}\n');
  });

  it('creates a new file from an empty SEARCH, and refuses that on a non-empty file', () => {
    expect(sr(null, block('', 'hello'))).toBe('hello\n');
    expect(srError('x\n', block('', 'hello'))).toBe('SEARCH_MALFORMED');
  });

  it('reports a block without its divider as malformed', () => {
    expect(srError('a\n', '<<<<<<< SEARCH\na\nb')).toBe('SEARCH_MALFORMED');
  });
});

describe('unified diff', () => {
  const file = 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n';

  it('places hunks by content whatever their line numbers say', () => {
    expect(diff(file, '@@ -90,3 +90,3 @@\n three\n-four\n+FOUR\n five\n')).toBe('one\ntwo\nthree\nFOUR\nfive\nsix\nseven\n');
  });

  it('applies hunks in any order', () => {
    expect(diff(file, '@@ ... @@\n six\n-seven\n+SEVEN\n@@ ... @@\n one\n-two\n+TWO\n')).toBe('one\nTWO\nthree\nfour\nfive\nsix\nSEVEN\n');
  });

  it('applies overlapping hunks once each', () => {
    expect(diff(file, '@@\n two\n-three\n+THREE\n four\n@@\n four\n-five\n+FIVE\n six\n')).toBe('one\ntwo\nTHREE\nfour\nFIVE\nsix\nseven\n');
  });

  it('accepts a diff without any header lines', () => {
    expect(diff(file, ' two\n-three\n+3\n four')).toBe('one\ntwo\n3\nfour\nfive\nsix\nseven\n');
  });

  it('treats empty lines as blank context', () => {
    expect(diff('a\n\nb\n', '@@\n a\n\n-b\n+c')).toBe('a\n\nc\n');
  });

  it('treats context lines that lost their leading space as context', () => {
    expect(diff(file, '@@\nthree\n-four\n+4\nfive')).toBe('one\ntwo\nthree\n4\nfive\nsix\nseven\n');
  });

  it('appends at the end of the file', () => {
    expect(diff(file, '@@\n six\n seven\n+eight')).toBe(`${file}eight\n`);
  });

  it('inserts lines that look like diff headers verbatim', () => {
    expect(diff('a\nb\n', '@@\n a\n+---\n+- item\n++++ plus\n b')).toBe('a\n---\n- item\n+++ plus\nb\n');
  });

  it('refuses an ambiguous hunk', () => {
    expect(diffError('x\ny\nx\ny\n', '@@\n x\n-y\n+z')).toBe('HUNK_AMBIGUOUS');
  });

  it('refuses stale context where the removed line differs', () => {
    expect(diffError('const TTL = 10;\nfunction a() {}\nfunction b() {}\n', '@@\n-const TTL = 5;\n+const TTL = 15;\n function a() {}\n function b() {}')).toBe('HUNK_NOT_FOUND');
  });

  it('refuses a hunk one of whose context lines differs in more than whitespace, however close', () => {
    const content = 'def a():\n    # compute the total\n    x = 1\n    y = 2\n    return x + y\n';
    expect(diffError(content, '@@\n def a():\n     # compute total\n     x = 1\n-    y = 2\n+    y = 3\n     return x + y')).toBe('HUNK_NOT_FOUND');
    // The same hunk with only whitespace and blank-line noise applies.
    expect(diff(content, '@@\n def a():\n\n     #   compute the total  \n     x = 1\n-    y = 2\n+    y = 3\n     return x + y')).toBe(content.replace('y = 2', 'y = 3'));
  });

  it("refuses a diff written against a different name (R) for the file's (earthRadiusKm)", () => {
    const content = 'func Haversine(a, b Point) float64 {\n\th := 1.0\n\treturn 2 * earthRadiusKm * math.Asin(math.Sqrt(h))\n}\n\n// Valid reports.\n';
    const body = '@@ -3,4 +3,8 @@\n \treturn 2 * R * math.Asin(math.Sqrt(h))\n }\n \n+// Miles converts.\n+func Miles(km float64) float64 { return km * 0.621371 }\n+\n // Valid reports.';
    expect(diffError(content, body)).toBe('HUNK_NOT_FOUND');
  });

  it('refuses to edit a file that does not exist, but creates one from /dev/null', () => {
    expect(diffError(null, '--- a/x.py\n+++ b/x.py\n@@\n a\n-b\n+c')).toBe('FILE_NOT_FOUND');
    expect(diff(null, '--- /dev/null\n+++ b/x.py\n@@ -0,0 +1,2 @@\n+a\n+b')).toBe('a\nb\n');
  });

  it('maps the file’s tabs when the diff uses spaces', () => {
    expect(diff('func a() {\n\tx()\n\ty()\n}\n', '@@\n     x()\n+    z()\n     y()')).toBe('func a() {\n\tx()\n\tz()\n\ty()\n}\n');
  });

  it('keeps a file without a final newline that way', () => {
    expect(diff('a\nb', '@@\n a\n-b\n+c\n\\ No newline at end of file')).toBe('a\nc');
  });

  it('refuses a hunk without context on a non-empty file', () => {
    expect(diffError('a\n', '@@ -1,0 +1,1 @@\n+b')).toBe('HUNK_NOT_FOUND');
  });
});

describe('full replacement', () => {
  it('keeps the old file’s line endings, BOM and final-newline state', () => {
    const result = applyReplace(toFileText('\uFEFFold\r\nfile'), 'new\ncontent', 'f');
    expect(result.ok && fromFileText(result.value)).toBe('\uFEFFnew\r\ncontent');
  });

  it('writes a new file with LF and a final newline', () => {
    const result = applyReplace(null, 'a\nb', 'f');
    expect(result.ok && fromFileText(result.value)).toBe('a\nb\n');
  });

  it.each([
    '// ... existing code ...',
    '# rest of the file unchanged',
    '/* ... */',
    '    // ... rest of build.js unchanged ...',
    '<!-- ... other sections ... -->',
    '// (rest of the code remains the same)',
    '// existing imports',
    '# ...',
    '// … other methods …',
    '// ...rest of the component',
    '// ...existing code',
  ])('refuses a placeholder: %s', (line) => {
    const result = applyReplace(toFileText('a\nb\nc\n'), `a\n${line}\nc`, 'f');
    expect(result.ok ? 'applied' : result.error.code).toBe('LAZY_PLACEHOLDER');
  });

  it.each([
    '// Loading...',
    '# TODO: handle errors',
    'print("...")',
    '    ...',
    '// see the docs for more',
    '// wait for the rest of the stream',
    '// Forward ...args to the logger unchanged.',
    '/* Spread: { ...defaults, ...overrides } keeps the later value. */',
  ])('allows ordinary lines: %s', (line) => {
    const result = applyReplace(toFileText('a\n'), `a\n${line}\n`, 'f');
    expect(result.ok).toBe(true);
  });

  it('allows a placeholder-like line that the file already had', () => {
    const result = applyReplace(toFileText('x\n// ... existing code ...\n'), 'y\n// ... existing code ...\n', 'f');
    expect(result.ok).toBe(true);
  });
});

describe('more defects with one clear meaning', () => {
  it('prefers the standard ======= divider over a Markdown underline in the SEARCH text', () => {
    expect(sr('Title\n=====\ntext\n', '<<<<<<< SEARCH\nTitle\n=====\ntext\n=======\nTitle\n=====\nnew text\n>>>>>>> REPLACE')).toBe('Title\n=====\nnew text\n');
  });

  it('takes the rest of a closed block as the last REPLACE when its end marker is missing', () => {
    expect(sr('a\nb\n', '<<<<<<< SEARCH\nb\n=======\nB\n')).toBe('a\nB\n');
  });

  it('creates a missing file from a block labelled as a patch but written as a whole file', () => {
    expect(diff(null, 'export const a = 1;')).toBe('export const a = 1;\n');
    expect(sr(null, 'export const a = 1;')).toBe('export const a = 1;\n');
    expect(diffError('x\n', 'export const a = 1;')).toBe('DIFF_MALFORMED');
    expect(srError('x\n', 'export const a = 1;')).toBe('SEARCH_MALFORMED');
  });

  it('refuses a REPLACE that stands in "// ... existing code ..." for code it removes', () => {
    const file = 'function a() {\n  one();\n  two();\n}\n';
    expect(srError(file, block('function a() {\n  one();\n  two();\n}', 'function a() {\n  // ... existing code ...\n  three();\n}'))).toBe('LAZY_PLACEHOLDER');
    expect(diffError(file, '@@\n function a() {\n-  one();\n-  two();\n+  // ... rest unchanged\n }')).toBe('LAZY_PLACEHOLDER');
  });
});

describe('answers that elide or repeat things', () => {
  it('splits a hunk at a "..." line that stands for skipped context', () => {
    const content = 'function a() {\n  one();\n  two();\n  three();\n  four();\n  five();\n}\n';
    expect(diff(content, '@@ ... @@\n function a() {\n-  one();\n+  uno();\n ...\n   four();\n-  five();\n+  cinco();\n }')).toBe('function a() {\n  uno();\n  two();\n  three();\n  four();\n  cinco();\n}\n');
  });

  it('ignores a repeated "// path" line before the diff headers', () => {
    expect(diff('a\nb\n', '// src/f.ts\n--- src/f.ts\n+++ src/f.ts\n@@\n a\n-b\n+c')).toBe('a\nc\n');
  });

  it('drops a first line that only repeats the block header, unless the file had it', () => {
    const dropped = applyReplace(toFileText('old\n'), '// src/a.ts\nexport const a = 1;', 'src/a.ts');
    expect(dropped.ok && fromFileText(dropped.value)).toBe('export const a = 1;\n');
    const kept = applyReplace(toFileText('// src/a.ts\nold\n'), '// src/a.ts\nnew', 'src/a.ts');
    expect(kept.ok && fromFileText(kept.value)).toBe('// src/a.ts\nnew\n');
  });
});
