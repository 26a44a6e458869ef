import { describe, expect, it } from 'vitest';
import { parseResponse } from '../../../src/engine/patch/parse.js';
import type { FileOperation, ParsedResponse } from '../../../src/engine/patch/types.js';

const CONTROL = '```yaml\nprojectId: demo\nuuid: 0b5c3a52-1d7e-4c55-9d3c-5b6f6f1a2b3c\ngitCommitMsg: "feat: x"\n```';

function parsed(text: string): ParsedResponse {
  const result = parseResponse(text);
  if (!result.ok) throw new Error(`expected a patch, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** The operations, without where in the answer each came from (tested on its own). */
function ops(text: string): FileOperation[] {
  return parsed(text).operations.map(({ origin: _origin, ...op }) => op as FileOperation);
}

describe('parseResponse', () => {
  describe('file block headers', () => {
    it('reads `lang // path strategy`', () => {
      expect(ops(`Some prose.\n\n\`\`\`typescript // src/a.ts new-unified\n@@ ... @@\n-a\n+b\n\`\`\`\n\n${CONTROL}`)).toEqual([
        { kind: 'write', path: 'src/a.ts', strategy: 'unified', body: '@@ ... @@\n-a\n+b', declaredStrategy: 'new-unified' },
      ]);
    });

    it('reads `# path` headers for Python, YAML and shell', () => {
      const list = ops(`\`\`\`python # app/main.py\nprint(1)\n\`\`\`\n\`\`\`yaml # deploy/app.yaml multi-search-replace\n<<<<<<< SEARCH\na: 1\n=======\na: 2\n>>>>>>> REPLACE\n\`\`\`\n${CONTROL}`);
      expect(list.map((o) => (o.kind === 'write' ? [o.path, o.strategy] : o.kind))).toEqual([
        ['app/main.py', 'replace'],
        ['deploy/app.yaml', 'search-replace'],
      ]);
    });

    it("reads Visual Basic's apostrophe comment, and a quoted path right after the apostrophe is still a path", () => {
      const list = ops(`\`\`\`vb ' src/M.vb multi-search-replace\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\`\`\`\n\`\`\`vb 'src/a.vb'\nx\n\`\`\`\n${CONTROL}`);
      expect(list.map((o) => (o.kind === 'write' ? [o.path, o.strategy] : o.kind))).toEqual([
        ['src/M.vb', 'search-replace'],
        ['src/a.vb', 'replace'],
      ]);
    });

    it('reads quoted paths with spaces, and unquoted ones that still name a file', () => {
      const list = ops(`\`\`\`md // "docs/Release Process.md" new-unified\n@@\n-a\n+b\n\`\`\`\n\`\`\`md // docs/My Notes.md\nhello\n\`\`\`\n${CONTROL}`);
      expect(list.map((o) => (o.kind === 'write' ? o.path : ''))).toEqual(['docs/Release Process.md', 'docs/My Notes.md']);
    });

    it('accepts both strategy dialects, with or without braces', () => {
      const body = '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE';
      for (const word of ['multi-search-replace', 'search-replace', '{multi-search-replace}']) {
        expect(ops(`\`\`\`js // a.js ${word}\n${body}\n\`\`\`\n${CONTROL}`)[0]).toMatchObject({ strategy: 'search-replace' });
      }
      for (const word of ['new-unified', 'standard-diff', 'unified']) {
        expect(ops(`\`\`\`js // a.js ${word}\n@@\n-a\n+b\n\`\`\`\n${CONTROL}`)[0]).toMatchObject({ strategy: 'unified' });
      }
      expect(ops(`\`\`\`js // a.js replace\n<<<<<<< SEARCH\n\`\`\`\n${CONTROL}`)[0]).toMatchObject({ strategy: 'replace' });
    });

    it('reads a header without a language tag and the `lang:path` form', () => {
      expect(ops(`\`\`\` // lib/x.js\nx\n\`\`\`\n\`\`\`ts:src/y.ts\ny\n\`\`\`\n${CONTROL}`).map((o) => (o.kind === 'write' ? o.path : ''))).toEqual(['lib/x.js', 'src/y.ts']);
    });

    it('takes a path comment on the first body line when the fence names none, and drops that line', () => {
      expect(ops(`\`\`\`ts\n// src/util/math.ts\nexport const one = 1;\n\`\`\`\n${CONTROL}`)).toEqual([
        { kind: 'write', path: 'src/util/math.ts', strategy: 'replace', body: 'export const one = 1;' },
      ]);
    });

    it('reads tilde fences', () => {
      expect(ops(`~~~ts // a.ts\nconst a = 1;\n~~~\n${CONTROL}`)).toHaveLength(1);
    });
  });

  describe('blocks that are prose', () => {
    it('never turns a shell snippet without a path header into a file', () => {
      const result = parsed(`Run:\n\n\`\`\`bash\nnpm install zod\n\`\`\`\n\n\`\`\`\nnull\n\`\`\`\n\n\`\`\`ts // a.ts\nx\n\`\`\`\n${CONTROL}`);
      expect(result.operations.map((o) => (o.kind === 'write' ? o.path : o.kind))).toEqual(['a.ts']);
      expect(result.reasoning.join('\n')).toContain('npm install zod');
    });

    it('does not take comment lines that are not paths as headers', () => {
      const result = parsed(`\`\`\`bash\n# install the deps\nnpm ci\n\`\`\`\n\`\`\`js // a.js\nx\n\`\`\`\n${CONTROL}`);
      expect(result.operations).toHaveLength(1);
    });
  });

  describe('fences', () => {
    it('keeps inner ``` fences of a Markdown file wrapped in four backticks', () => {
      const doc = '# Title\n\n```bash\nnpm test\n```\n\nEnd.';
      expect(ops(`\`\`\`\`markdown // docs/a.md\n${doc}\n\`\`\`\`\n${CONTROL}`)[0]).toMatchObject({ body: doc });
    });

    it('pairs inner fences of a Markdown file wrapped in a same-length fence', () => {
      const doc = '# Title\n\n```bash\nnpm test\n```\n\n```js\nx()\n```\n\nEnd.';
      expect(ops(`\`\`\`markdown // docs/a.md\n${doc}\n\`\`\`\n\n${CONTROL}`)[0]).toMatchObject({ body: doc });
    });

    it('closes a fence only with the same character and at least the same length', () => {
      const body = '~~~\n``\n```not-a-close';
      expect(ops(`\`\`\`\`text // notes.txt\n${body}\n\`\`\`\`\n${CONTROL}`)[0]).toMatchObject({ body });
    });

    it('strips the indentation of an indented fence (a block inside a list item)', () => {
      expect(ops(`1. Change it:\n\n   \`\`\`ts // a.ts\n   const a = 1;\n     nested();\n   \`\`\`\n${CONTROL}`)[0]).toMatchObject({ body: 'const a = 1;\n  nested();' });
    });
  });

  describe('strategy inference without a strategy word', () => {
    it('infers search-replace when the body is only SEARCH/REPLACE blocks', () => {
      expect(ops(`\`\`\`js // a.js\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\`\`\`\n${CONTROL}`)[0]).toMatchObject({ strategy: 'search-replace' });
    });

    it('infers a diff when the body starts with diff headers or a hunk', () => {
      expect(ops(`\`\`\`js // a.js\n--- a.js\n+++ a.js\n@@ -1 +1 @@\n-a\n+b\n\`\`\`\n${CONTROL}`)[0]).toMatchObject({ strategy: 'unified' });
      expect(ops(`\`\`\`js // a.js\n@@ ... @@\n-a\n+b\n\`\`\`\n${CONTROL}`)[0]).toMatchObject({ strategy: 'unified' });
    });

    it('treats a document that merely shows such lines as a full replacement', () => {
      const doc = '# Resolving conflicts\n\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> branch\n\nand a SEARCH block:\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE';
      expect(ops(`\`\`\`\`md // docs/git.md\n${doc}\n\`\`\`\`\n${CONTROL}`)[0]).toMatchObject({ strategy: 'replace', body: doc });
    });

    it('follows the body when the header names the other patch format', () => {
      const result = parsed(`\`\`\`js // a.js new-unified\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\`\`\`\n${CONTROL}`);
      expect(result.operations[0]).toMatchObject({ strategy: 'search-replace' });
      expect(result.warnings.join()).toContain('SEARCH/REPLACE');
    });
  });

  describe('other operations', () => {
    it('reads delete markers in several comment styles', () => {
      for (const marker of ['//TODO: delete this file', '// TODO: delete this file', '# TODO: delete this file']) {
        expect(ops(`\`\`\`ts // old.ts\n${marker}\n\`\`\`\n${CONTROL}`)).toEqual([{ kind: 'delete', path: 'old.ts' }]);
      }
    });

    it('reads rename blocks, one or several', () => {
      expect(ops(`\`\`\`json // rename-file\n{ "from": "a.ts", "to": "b/a.ts" }\n\`\`\`\n${CONTROL}`)).toEqual([{ kind: 'rename', from: 'a.ts', to: 'b/a.ts' }]);
      expect(ops(`\`\`\`json // rename-file\n[{ "from": "a", "to": "b" }, { "from": "c", "to": "d" }]\n\`\`\`\n${CONTROL}`)).toHaveLength(2);
    });

    it('refuses a rename block that is not JSON', () => {
      const result = parseResponse(`\`\`\`json // rename-file\nfrom a to b\n\`\`\`\n${CONTROL}`);
      expect(result.ok ? null : result.error.code).toBe('INVALID_RENAME_BLOCK');
    });
  });

  describe('the control block', () => {
    it('reads a bare-fenced block with keys in any order followed by prose', () => {
      const result = parsed('```js // a.js\nx\n```\n\n```\ngitCommitMsg: "fix"\nuuid: 1c39bfb4-8e08-4961-8de9-eea706968e83\nprojectId: demo\n```\n\nThat is all.');
      expect(result.control).toMatchObject({ projectId: 'demo', uuid: '1c39bfb4-8e08-4961-8de9-eea706968e83', gitCommitMsg: 'fix' });
      expect(result.reasoning).toContain('That is all.');
    });

    it('reads a trailing unfenced block', () => {
      const result = parsed('```js // a.js\nx\n```\n\nprojectId: demo\nuuid: 1c39bfb4-8e08-4961-8de9-eea706968e83\npromptSummary: "do x"\n');
      expect(result.control).toMatchObject({ projectId: 'demo', promptSummary: 'do x' });
    });

    it('falls back to reading keys line by line when the YAML is invalid', () => {
      const result = parsed('```js // a.js\nx\n```\n```yaml\nprojectId: demo\nuuid: 1c39bfb4-8e08-4961-8de9-eea706968e83\ngitCommitMsg: feat: add: colons\nchangeSummary: [oops\n```');
      expect(result.control).toMatchObject({ projectId: 'demo', gitCommitMsg: 'feat: add: colons' });
    });

    it('takes the last control block when several are present', () => {
      const result = parsed(`\`\`\`yaml\nprojectId: old\nuuid: aaaa\n\`\`\`\n\`\`\`js // a.js\nx\n\`\`\`\n${CONTROL}`);
      expect(result.control.projectId).toBe('demo');
    });

    it('is not confused by a YAML file block', () => {
      const result = parsed(`\`\`\`yaml // config/app.yaml\nprojectId: inside-a-file\n\`\`\`\n${CONTROL}`);
      expect(result.control.projectId).toBe('demo');
      expect(result.operations[0]).toMatchObject({ path: 'config/app.yaml', body: 'projectId: inside-a-file' });
    });

    it('refuses a uuid that could not be a file name', () => {
      const result = parseResponse('```js // a.js\nx\n```\n```yaml\nprojectId: demo\nuuid: ../../etc/passwd\n```');
      expect(result.ok ? null : result.error.code).toBe('INVALID_CONTROL_BLOCK');
    });
  });

  describe('answers that are not patches', () => {
    it.each([
      ['empty', '', 'EMPTY_RESPONSE'],
      ['prose only', 'Sure! Here is how you could do it.', 'NO_CONTROL_BLOCK'],
      ['no control block', '```ts // a.ts\nx\n```', 'NO_CONTROL_BLOCK'],
      ['control block without projectId', '```ts // a.ts\nx\n```\n```yaml\nuuid: 1234\n```', 'NO_CONTROL_BLOCK'],
      ['control block without uuid', '```ts // a.ts\nx\n```\n```yaml\nprojectId: demo\n```', 'INVALID_CONTROL_BLOCK'],
      ['no file blocks', CONTROL, 'NO_OPERATIONS'],
      ['cut off inside a block', '```ts // a.ts multi-search-replace\n<<<<<<< SEARCH\na\n=======\nb', 'TRUNCATED_RESPONSE'],
      ['cut off after a complete block', `\`\`\`ts // a.ts\nx\n\`\`\`\n\`\`\`ts // b.ts\nhalf`, 'TRUNCATED_RESPONSE'],
    ])('%s → %s', (_name, text, code) => {
      const result = parseResponse(text);
      expect(result.ok ? 'ok' : result.error.code).toBe(code);
    });
  });

  it('parses a CRLF clipboard like an LF one', () => {
    const lf = `Prose.\n\n\`\`\`go // main.go multi-search-replace\n<<<<<<< SEARCH\n\tx := 1\n=======\n\tx := 2\n>>>>>>> REPLACE\n\`\`\`\n${CONTROL}\n`;
    expect(parsed(lf.replace(/\n/g, '\r\n'))).toEqual(parsed(lf));
  });
});

describe('Markdown files wrapped in a same-length fence', () => {
  const wrap = (doc: string, after = ''): string => `Docs:\n\n\`\`\`markdown // docs/a.md\n${doc}\n\`\`\`\n${after}\n${CONTROL}`;

  it('keeps inner blocks without a language tag too', () => {
    const doc = '# T\n\n```bash\nnpm test\n```\n\nOutput:\n\n```\nok\n```\n\nEnd.';
    expect(ops(wrap(doc, '\nThat is the doc.\n'))[0]).toMatchObject({ body: doc });
  });

  it('stops before the next file block', () => {
    const doc = '# T\n\n```\nplain\n```';
    const result = ops(`\`\`\`md // a.md\n${doc}\n\`\`\`\n\n\`\`\`ts // b.ts\nb\n\`\`\`\n${CONTROL}`);
    expect(result.map((o) => (o.kind === 'write' ? [o.path, o.body] : []))).toEqual([
      ['a.md', doc],
      ['b.ts', 'b'],
    ]);
  });

  it('does not swallow a bare-fenced control block', () => {
    const doc = '# T\n\n```js\nx\n```';
    const result = parsed(`\`\`\`md // a.md\n${doc}\n\`\`\`\n\n\`\`\`\nprojectId: demo\nuuid: abc123\n\`\`\``);
    expect(result.operations[0]).toMatchObject({ body: doc });
    expect(result.control.uuid).toBe('abc123');
  });
});

describe('more answer shapes', () => {
  it('applies a plain ```diff block that names its files, one operation per file', () => {
    const body = 'diff --git a/src/a.ts b/src/a.ts\nindex 1..2 100644\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/lib/c.js b/lib/c.js\n--- a/lib/c.js\n+++ b/lib/c.js\n@@ -1 +1 @@\n-c\n+d';
    const list = ops(`\`\`\`diff\n${body}\n\`\`\`\n${CONTROL}`);
    expect(list.map((o) => (o.kind === 'write' ? [o.path, o.strategy] : []))).toEqual([
      ['src/a.ts', 'unified'],
      ['lib/c.js', 'unified'],
    ]);
    expect(list[0]).toMatchObject({ body: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-a\n+b' });
  });

  it('reads a path followed by commentary, and a "File:" label', () => {
    expect(ops(`\`\`\`ts // src/a.ts (updated)\nx\n\`\`\`\n\`\`\`py\n# File: app/main.py\ny\n\`\`\`\n${CONTROL}`).map((o) => (o.kind === 'write' ? o.path : ''))).toEqual(['src/a.ts', 'app/main.py']);
  });

  it('accepts projectID / project_id spellings in the control block', () => {
    expect(parsed('```ts // a.ts\nx\n```\n```yaml\nproject_id: demo\nUUID: abc\n```').control).toMatchObject({ projectId: 'demo', uuid: 'abc' });
  });
});

describe('an answer wrapped in one outer fence', () => {
  it('is parsed from the inside', () => {
    const inner = `Change:\n\n\`\`\`ts // a.ts\nx\n\`\`\`\n\n${CONTROL}`;
    expect(ops(`\`\`\`\`markdown\n${inner}\n\`\`\`\``)).toHaveLength(1);
  });
});
