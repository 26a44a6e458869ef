import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectAnswerFormats } from '../../../src/engine/patch/detect.js';
import { looksLikeProjectPath, parseFirstLineHeader } from '../../../src/engine/patch/header.js';
import { labelAbove } from '../../../src/engine/patch/labels.js';
import { parseGitDiff } from '../../../src/engine/patch/native/git-diff.js';
import { parseEnvelope } from '../../../src/engine/patch/native/v4a.js';
import { parseAnswer } from '../../../src/engine/patch/parse.js';
import { parseV4ASections } from '../../../src/engine/patch/strategies/v4a.js';
import type { FileOperation } from '../../../src/engine/patch/types.js';

const REPO = path.resolve(import.meta.dirname, '../../..');

function ops(text: string): FileOperation[] {
  const parsed = parseAnswer(text);
  if (!parsed.ok) throw new Error(`${parsed.error.code}: ${parsed.error.message}`);
  return parsed.value.operations.map(({ origin: _origin, ...op }) => op as FileOperation);
}

describe('what names a file', () => {
  it.each([
    ['#!/usr/bin/env bash'], ['# Install the dependencies'], ['$ npm test'], ['# npm run build'], ['// TODO: fix this'], ['# /usr/bin/env bash'], ['// e.g. x'], ['# v1.2'],
  ])('%s is never a path header', (line) => {
    expect(parseFirstLineHeader(line)).toBeNull();
  });

  it.each([
    ['// src/app.ts', 'src/app.ts'], ['# app/models.py', 'app/models.py'], ['<!-- docs/x.md -->', 'docs/x.md'], ['// filepath: src/app.ts', 'src/app.ts'], ['# Makefile', 'Makefile'], ['# .env.example', '.env.example'],
  ])('%s names %s', (line, path) => {
    expect(parseFirstLineHeader(line)).toEqual({ kind: 'file', path });
  });

  it('takes an extension-less path only when it exists in the project', () => {
    expect(looksLikeProjectPath('bin/serve')).toBe(false);
    expect(looksLikeProjectPath('bin/serve', (p) => p === 'bin/serve')).toBe(true);
    expect(looksLikeProjectPath('!/usr/bin/env')).toBe(false);
    expect(looksLikeProjectPath('/etc/logrotate.d/app')).toBe(true); // evidently a file (refused later as outside the project)
  });

  it.each([
    ['**src/app.ts**', 'label'], ['### src/app.ts', 'label'], ['File: src/app.ts', 'label'], ['`src/app.ts`', 'label'], ['src/app.ts', 'label'], ['**`src/app.ts`**', 'label'],
    ['### 1. `src/app.ts`', 'label'], ['**src/app.ts** (new file)', 'label'], ['**Updated `src/app.ts`:**', 'label'], ['**File:** src/app.ts', 'label'],
    ["Here's the updated `src/app.ts`:", 'sentence'], ['### Changes to `src/app.ts`', 'mention'],
  ])('%s above a fence is a %s for src/app.ts', (line, kind) => {
    expect(labelAbove([line, ''])).toMatchObject({ kind, path: 'src/app.ts' });
  });

  it.each([['**Example:**'], ['Drafts are skipped by `data.draft`:'], ['Run `npm test`:'], ['### Usage']])('%s is not a label', (line) => {
    expect(labelAbove([line])).toBeNull();
  });

  // A list item (or quote, or symbol) and a path alone: evidently about the file, but a list of
  // changed files may also end above an example, so the reader refuses instead of guessing.
  it.each([['- `src/app.ts`'], ['1. **src/app.ts**'], ['> src/app.ts'], ['📄 src/app.ts']])('%s is a mention, not a label', (line) => {
    expect(labelAbove([line])).toMatchObject({ kind: 'mention', path: 'src/app.ts' });
  });
});

describe('native answers', () => {
  it('reads a fenced V4A envelope, a heredoc-wrapped one and an unfenced one alike', () => {
    const envelope = '*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    return 1\n+    return 2\n*** Add File: b.py\n+x = 1\n*** Delete File: c.py\n*** End Patch';
    const expected = [
      { kind: 'write', path: 'a.py', strategy: 'v4a', body: '@@ def f():\n-    return 1\n+    return 2' },
      { kind: 'write', path: 'b.py', strategy: 'replace', body: 'x = 1' },
      { kind: 'delete', path: 'c.py' },
    ];
    expect(ops(`Done:\n\n\`\`\`\n${envelope}\n\`\`\`\n`)).toEqual(expected);
    expect(ops(`\`\`\`bash\napply_patch <<'EOF'\n${envelope}\nEOF\n\`\`\`\n`)).toEqual(expected);
    expect(ops(`Done.\n\n${envelope}\n\nThat is all.`)).toEqual(expected);
  });

  it('reads Move to as a rename followed by the update of the new path', () => {
    const parsed = parseEnvelope(['*** Begin Patch', '*** Update File: a.py', '*** Move to: lib/a.py', '@@', '-x', '+y', '*** End Patch'], 1);
    expect(parsed.ok && parsed.value.map((o) => o.kind + ':' + (o.kind === 'rename' ? `${o.from}>${o.to}` : o.path))).toEqual(['rename:a.py>lib/a.py', 'write:lib/a.py']);
  });

  it('splits an update into sections; consecutive @@ lines are nested anchors', () => {
    expect(parseV4ASections('@@ class Foo\n@@     def bar(self):\n-        return 1\n+        return 2\n@@\n x\n+y\n*** End of File')).toEqual([
      { anchors: ['class Foo', '    def bar(self):'], lines: [{ op: 'del', text: '        return 1' }, { op: 'add', text: '        return 2' }], eof: false },
      { anchors: [], lines: [{ op: 'ctx', text: 'x' }, { op: 'add', text: 'y' }], eof: true },
    ]);
  });

  it('refuses an envelope without *** End Patch as cut off', () => {
    const parsed = parseAnswer('*** Begin Patch\n*** Add File: a.py\n+x = 1\n');
    expect(parsed.ok ? 'ok' : parsed.error.code).toBe('TRUNCATED_RESPONSE');
  });

  it('strips a/ and b/ only when both header paths carry them (or one is /dev/null)', () => {
    const paths = (minus: string, plus: string): string[] => {
      const parsed = parseGitDiff([`--- ${minus}`, `+++ ${plus}`, '@@ -1 +1 @@', '-a', '+b'], 1);
      return parsed?.ok ? parsed.value.map((o) => (o.kind === 'write' ? o.path : o.kind)) : [];
    };
    expect(paths('a/src/x.ts', 'b/src/x.ts')).toEqual(['src/x.ts']);
    expect(paths('src/x.ts', 'src/x.ts')).toEqual(['src/x.ts']);
    expect(paths('/dev/null', 'b/a/new.ts')).toEqual(['a/new.ts']);
    expect(paths('a/only.ts', 'only.ts')).toEqual(['only.ts']);
  });

  it('reads git headers: new file without hunks, deleted file, rename without hunks', () => {
    const parsed = parseGitDiff(
      ['diff --git a/empty.txt b/empty.txt', 'new file mode 100644', 'index 0000000..e69de29', 'diff --git a/old.txt b/old.txt', 'deleted file mode 100644', 'index 1234567..0000000', 'diff --git a/x.ts b/y.ts', 'similarity index 100%', 'rename from x.ts', 'rename to y.ts'],
      1,
    );
    expect(parsed?.ok && parsed.value.map(({ origin: _o, ...op }) => op)).toEqual([
      { kind: 'write', path: 'empty.txt', strategy: 'replace', body: '' },
      { kind: 'delete', path: 'old.txt' },
      { kind: 'rename', from: 'x.ts', to: 'y.ts' },
    ]);
  });

  it('does not take a removed "-- comment" line followed by an added "++ x" line for a file header', () => {
    const parsed = parseGitDiff(['--- a/q.sql', '+++ b/q.sql', '@@ -1,3 +1,3 @@', ' select 1;', '--- old comment', '+++ new comment', ' select 2;'], 1);
    expect(parsed?.ok && parsed.value.length).toBe(1);
  });

  it('takes SEARCH/REPLACE paths from the first line, the line above, a path line between blocks, or the previous block', () => {
    const block = (s: string, r: string): string => `<<<<<<< SEARCH\n${s}\n=======\n${r}\n>>>>>>> REPLACE`;
    const answer = `a.py\n\`\`\`python\n${block('a', 'A')}\nb.py\n${block('b', 'B')}\n\`\`\`\n\n\`\`\`python\n${block('c', 'C')}\n\`\`\`\n\n\`\`\`python\nd.py\n${block('d', 'D')}\n\`\`\`\n`;
    expect(ops(answer).map((o) => (o.kind === 'write' ? [o.path, o.strategy] : []))).toEqual([
      ['a.py', 'search-replace'],
      ['b.py', 'search-replace'],
      ['b.py', 'search-replace'],
      ['d.py', 'search-replace'],
    ]);
  });

  it('refuses a SEARCH/REPLACE block without its end marker even when the fence closes', () => {
    const parsed = parseAnswer('a.py\n```python\n<<<<<<< SEARCH\na\n=======\nb\n```\n');
    expect(parsed.ok ? 'ok' : parsed.error.code).toBe('TRUNCATED_RESPONSE');
  });

  it('never makes a file of a path-less snippet, a shell block or a REPL session', () => {
    const parsed = parseAnswer('Install:\n\n```bash\nnpm i zod\n```\n\n```python\n>>> area(2)\n12.56\n```\n\n```\nok\n```\n');
    expect(parsed.ok ? 'ok' : parsed.error.code).toBe('NOTHING_TO_APPLY');
  });

  it("reads the answer as Relay's own format when it has a control block, and as native otherwise", () => {
    const body = '```ts // src/a.ts\nexport const a = 1;\n```\n';
    const relay = parseAnswer(`${body}\`\`\`yaml\nprojectId: p\nuuid: u-1\n\`\`\`\n`);
    const native = parseAnswer(body);
    expect(relay.ok && [relay.value.dialect, relay.value.control?.projectId]).toEqual(['relay', 'p']);
    expect(native.ok && [native.value.dialect, native.value.control]).toEqual(['native', null]);
    // Relay's strategy words without the control block: the block that ends the format is missing.
    const cut = parseAnswer('```ts // src/a.ts new-unified\n@@\n-a\n+b\n```\n');
    expect(cut.ok ? 'ok' : cut.error.code).toBe('NO_CONTROL_BLOCK');
  });
});

describe('detectAnswerFormats', () => {
  const corpus = (name: string): string[] =>
    readdirSync(path.join(REPO, 'fixtures', name))
      .filter((n) => /^\d{3}-/.test(n))
      .map((n) => readFileSync(path.join(REPO, 'fixtures', name, n, 'response.md'), 'utf8'));

  it('finds markers in every answer of the native corpora that changes files', () => {
    const answers = [...corpus('native-corpus'), ...corpus('native-corpus-extra')].filter((a) => parseAnswer(a).ok);
    expect(answers.length).toBeGreaterThan(60);
    for (const answer of answers) expect(detectAnswerFormats(answer), answer.slice(0, 200)).not.toEqual([]);
  });

  it('names the formats it sees', () => {
    expect(detectAnswerFormats('*** Begin Patch\n*** Add File: a\n+x\n*** End Patch')).toEqual(['v4a']);
    expect(detectAnswerFormats('a.py\n```python\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```')).toEqual(['search-replace']);
    expect(detectAnswerFormats('--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b')).toEqual(['git-diff']);
    expect(detectAnswerFormats('**src/a.ts**\n\n```ts\nx\n```')).toEqual(['whole-file']);
  });

  it.each([
    ['prose', 'Sure, the function returns early when the list is empty, so the loop never runs.'],
    ['a code snippet', '```ts\nconst x = items.map((i) => i * 2);\n```'],
    ['a shell session', '```console\n$ npm test\n> 12 passing\n```'],
    ['a stack trace', 'TypeError: Cannot read properties of undefined\n    at run (/app/src/index.ts:12:5)\n    at main (/app/src/index.ts:40:3)'],
    ['JSON', '{\n  "name": "demo",\n  "version": "1.0.0"\n}'],
    ['a log', '2024-06-01T12:00:00Z INFO started\n2024-06-01T12:00:01Z WARN slow request path=/api/items'],
    ['a markdown list of files', 'Changed:\n- src/a.ts\n- src/b.ts'],
    ['an email', 'Hi team,\n\nthe release is on Friday.\n\n-- \nAnn'],
  ])('finds nothing in %s', (_name, text) => {
    expect(detectAnswerFormats(text)).toEqual([]);
  });
});
