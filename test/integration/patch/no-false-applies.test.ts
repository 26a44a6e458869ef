// Issue 18: four ways a parser can write what it should refuse, each through the real `relay
// apply`: an answer, a before tree, and the exact tree after or the refusal code.
import { describe, expect, it } from 'vitest';
import { relay } from '../../helpers/cli.js';
import { emptyFolders, gitRepo, readTree } from '../../helpers/temp.js';

const CONTROL = '```yaml\nprojectId: demo\nuuid: 6a1f0d52-3c4b-4d5e-8f60-718293a4b5c6\ngitCommitMsg: "x"\n```\n';

interface ApplyRun {
  readonly root: string;
  readonly before: Map<string, string>;
  readonly exitCode: number;
  readonly result: { status: string; error: { code: string; message: string } | null };
}

async function apply(files: Record<string, string>, answer: string): Promise<ApplyRun> {
  const root = gitRepo(files);
  expect((await relay(['init', '--project-id', 'demo'], { cwd: root })).exitCode).toBe(0);
  const before = readTree(root);
  const run = await relay(['apply', '-', '--yes', '--json'], { cwd: root, input: answer });
  return { root, before, exitCode: run.exitCode, result: JSON.parse(run.stdout) as ApplyRun['result'] };
}

function expectRefused(run: ApplyRun, code: string): void {
  expect(run.result.status, JSON.stringify(run.result)).toBe('rejected');
  expect(run.result.error?.code).toBe(code);
  expect(run.exitCode).toBe(1);
  expect(readTree(run.root)).toEqual(run.before);
  expect(emptyFolders(run.root)).toEqual([]);
}

const FILES = { 'src/app.ts': 'export const app = 1;\n', 'scripts/deploy.sh': '#!/bin/sh\necho old\n' };

describe('1. a shebang, a comment sentence or a shell prompt is never a `# path` header', () => {
  it('ignores a bash block that starts with #!/usr/bin/env bash and applies the rest (no "!" folder)', async () => {
    const answer = `Run this once:\n\n\`\`\`bash\n#!/usr/bin/env bash\nset -e\nnpm ci\n\`\`\`\n\n\`\`\`ts // src/app.ts\nexport const app = 2;\n\`\`\`\n${CONTROL}`;
    const run = await apply(FILES, answer);
    expect(run.result.status).toBe('applied');
    expect(readTree(run.root)).toEqual(new Map([...run.before, ['src/app.ts', 'export const app = 2;\n']]));
  });

  it('ignores comment sentences and prompt lines as first lines', async () => {
    const answer = [
      '```bash\n# Install the dependencies first\nnpm install\n```',
      '```sh\n$ npm test\n> relay@1 test\n```',
      '```bash\n# npm run build\nls dist\n```',
      '```python\n# main.run()\nprint(1)\n```',
      '```ts // src/app.ts\nexport const app = 3;\n```',
      CONTROL,
    ].join('\n\n');
    const run = await apply(FILES, answer);
    expect(run.result.status).toBe('applied');
    expect(readTree(run.root)).toEqual(new Map([...run.before, ['src/app.ts', 'export const app = 3;\n']]));
  });

  it('keeps the shebang as content when the path is given in the header', async () => {
    const answer = `\`\`\`bash // scripts/deploy.sh\n#!/usr/bin/env bash\necho new\n\`\`\`\n${CONTROL}`;
    const run = await apply(FILES, answer);
    expect(run.result.status).toBe('applied');
    expect(readTree(run.root).get('scripts/deploy.sh')).toBe('#!/usr/bin/env bash\necho new\n');
  });

  it('refuses (rather than half-applies) a shebang block whose path is only in the heading above it', async () => {
    const answer = `### scripts/deploy.sh\n\n\`\`\`\n#!/usr/bin/env bash\necho new\n\`\`\`\n\n\`\`\`ts // src/app.ts\nexport const app = 4;\n\`\`\`\n${CONTROL}`;
    expectRefused(await apply(FILES, answer), 'UNHEADED_FILE_BLOCK');
  });
});

describe('2. a SEARCH/REPLACE edit of a missing file is refused; only an empty SEARCH creates one', () => {
  it('refuses a SEARCH block for a file that does not exist, naming what it expected', async () => {
    const answer = `\`\`\`ts // src/middleware.ts\n<<<<<<< SEARCH\nexport function auth() {}\n=======\nexport function auth() { return true; }\n>>>>>>> REPLACE\n\`\`\`\n${CONTROL}`;
    const run = await apply(FILES, answer);
    expectRefused(run, 'FILE_NOT_FOUND');
    expect(run.result.error?.message).toContain('src/middleware.ts does not exist; the edit expects it to contain "export function auth() {}"');
  });

  it('refuses it with the strategy word too, and creates a file from an empty SEARCH', async () => {
    const refused = `\`\`\`ts // src/middleware.ts multi-search-replace\n<<<<<<< SEARCH\nexport function auth() {}\n=======\nx\n>>>>>>> REPLACE\n\`\`\`\n${CONTROL}`;
    expectRefused(await apply(FILES, refused), 'FILE_NOT_FOUND');
    const created = `\`\`\`ts // src/middleware.ts multi-search-replace\n<<<<<<< SEARCH\n=======\nexport const m = 1;\n>>>>>>> REPLACE\n\`\`\`\n${CONTROL}`;
    const run = await apply(FILES, created);
    expect(run.result.status).toBe('applied');
    expect(readTree(run.root).get('src/middleware.ts')).toBe('export const m = 1;\n');
  });
});

describe('3. a hunk whose context differs in more than whitespace is unmatched', () => {
  const distance = [
    'package geo',
    '',
    'func Haversine(a, b Point) float64 {',
    '\th := hav(a, b)',
    '\treturn 2 * earthRadiusKm * math.Asin(math.Sqrt(h))',
    '}',
    '',
    '// Valid reports whether p is a real coordinate.',
    'func (p Point) Valid() bool {',
    '\treturn true',
    '}',
    '',
  ].join('\n');

  it('refuses a diff written against `2 * R *` for a file that says `2 * earthRadiusKm *`, showing the file\'s lines', async () => {
    const diff = '```go // geo/distance.go new-unified\n@@ -4,5 +4,10 @@\n \treturn 2 * R * math.Asin(math.Sqrt(h))\n }\n \n+// Miles converts kilometres to statute miles.\n+func Miles(km float64) float64 {\n+\treturn km * 0.621371\n+}\n+\n // Valid reports whether p is a real coordinate.\n func (p Point) Valid() bool {\n```\n';
    const run = await apply({ 'geo/distance.go': distance }, `${diff}${CONTROL}`);
    expectRefused(run, 'HUNK_NOT_FOUND');
    expect(run.result.error?.message).toContain('return 2 * earthRadiusKm * math.Asin(math.Sqrt(h))');
    expect(run.result.error?.message).toMatch(/closest lines in the file \(\d+% alike\)/);
  });

  it('applies the same hunk when it differs only in whitespace, indentation and blank lines', async () => {
    const diff = '```go // geo/distance.go new-unified\n@@ -40,5 +40,10 @@\n     return   2 * earthRadiusKm * math.Asin(math.Sqrt(h))\n }\n \n \n+// Miles converts kilometres to statute miles.\n+func Miles(km float64) float64 {\n+    return km * 0.621371\n+}\n+\n // Valid reports whether p is a real coordinate.\n func (p Point) Valid() bool {\n```\n';
    const run = await apply({ 'geo/distance.go': distance }, `${diff}${CONTROL}`);
    expect(run.result.status, JSON.stringify(run.result)).toBe('applied');
    expect(readTree(run.root).get('geo/distance.go')).toBe(
      distance.replace('}\n\n// Valid', '}\n\n// Miles converts kilometres to statute miles.\nfunc Miles(km float64) float64 {\n\treturn km * 0.621371\n}\n\n// Valid'),
    );
  });
});

describe('4. no silent partial apply: a block evidently meant for a file is understood or refuses the answer', () => {
  const labels = [
    ['a bold path', '**src/extra.ts**'],
    ['a heading', '### src/extra.ts'],
    ['a File: line', 'File: src/extra.ts'],
    ['a heading that mentions the path', '### Changes to `src/extra.ts`'],
  ];
  it.each(labels)('refuses the whole answer when a block under %s carries no header', async (_name, label) => {
    const answer = `\`\`\`ts // src/app.ts\nexport const app = 5;\n\`\`\`\n\n${label}\n\n\`\`\`ts\nexport const extra = 1;\n\`\`\`\n${CONTROL}`;
    const run = await apply(FILES, answer);
    expectRefused(run, 'UNHEADED_FILE_BLOCK');
    expect(run.result.error?.message).toContain('src/extra.ts');
  });

  it('takes a block whose info string is only a path', async () => {
    const answer = `\`\`\`src/extra.ts\nexport const extra = 1;\n\`\`\`\n\n\`\`\`ts // src/app.ts\nexport const app = 6;\n\`\`\`\n${CONTROL}`;
    const run = await apply(FILES, answer);
    expect(run.result.status).toBe('applied');
    expect(readTree(run.root)).toEqual(new Map([...run.before, ['src/app.ts', 'export const app = 6;\n'], ['src/extra.ts', 'export const extra = 1;\n']]));
  });

  it('still ignores path-less snippets (commands, examples, output) silently', async () => {
    const answer = `Install:\n\n\`\`\`bash\nnpm i zod\n\`\`\`\n\n**Example:**\n\n\`\`\`ts\nimport { app } from './app';\nconsole.log(app);\n\`\`\`\n\nOutput:\n\n\`\`\`\n7\n\`\`\`\n\n\`\`\`ts // src/app.ts\nexport const app = 7;\n\`\`\`\n${CONTROL}`;
    const run = await apply(FILES, answer);
    expect(run.result.status).toBe('applied');
    expect(readTree(run.root)).toEqual(new Map([...run.before, ['src/app.ts', 'export const app = 7;\n']]));
  });
});

// Found by an independent probe: answers in the assistants' own formats (no control block).
describe('native answers that must not write a wrong tree', () => {
  const CALC = {
    'src/a.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n\nexport const NAME = "calc";\n',
    'app/main.py': 'def main():\n    print("hello")\n    return 0\n',
  };
  const SWAP = '```diff\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,3 +1,3 @@\n export function add(a: number, b: number): number {\n-  return a + b;\n+  return b + a;\n }\n```\n';

  it.each([['```ts path=src/c.ts'], ['```ts file=src/c.ts'], ['```ts:title=src/c.ts'], ['```ts {filename: src/c.ts}']])('reads the path of %s, never "key=path" as a file name', async (fence) => {
    const run = await apply(CALC, `${SWAP}\n${fence}\nexport const c = 1;\n\`\`\`\n`);
    expect(run.result.status).toBe('applied');
    const after = readTree(run.root);
    expect(after.get('src/c.ts')).toBe('export const c = 1;\n');
    expect([...after.keys()].filter((p) => p.includes('='))).toEqual([]);
  });

  it('refuses a new-file diff (from /dev/null) for a file that exists as FILE_EXISTS, not a hunk mismatch', async () => {
    expectRefused(await apply(CALC, '```diff\ndiff --git a/src/a.ts b/src/a.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/a.ts\n@@ -0,0 +1 @@\n+export const a = 1;\n```\n'), 'FILE_EXISTS');
  });

  it('refuses an empty labelled block for an existing file (EMPTY_REPLACEMENT) instead of wiping it', async () => {
    expectRefused(await apply(CALC, '**src/a.ts**\n\n```ts\n```\n'), 'EMPTY_REPLACEMENT');
  });

  it('refuses a hunk whose body was flattened to its header\'s level (the relative indentation disagrees)', async () => {
    expectRefused(await apply(CALC, '```diff\n--- a/app/main.py\n+++ b/app/main.py\n@@ -1,3 +1,3 @@\n def main():\n-print("hello")\n+print("bye")\n return 0\n```\n'), 'HUNK_NOT_FOUND');
  });

  it.each([['**.git/hooks/pre-commit**'], ['**.GIT/config**'], ['`.git/config`'], ['**src/../.git/hooks/pre-commit**']])('refuses the whole answer when a block is labelled %s (UNSAFE_PATH), not dropping it', async (label) => {
    expectRefused(await apply(CALC, `${SWAP}\n${label}\n\n\`\`\`sh\n#!/bin/sh\necho pwned\n\`\`\`\n`), 'UNSAFE_PATH');
  });

  it.each([['2. **`src/b.ts`**'], ['- `src/b.ts`'], ['> src/b.ts']])('refuses the whole answer when a block follows a list item or quote naming only %s', async (label) => {
    expectRefused(await apply(CALC, `${SWAP}\n${label}\n\n\`\`\`ts\nexport const b = 1;\n\`\`\`\n`), 'UNHEADED_FILE_BLOCK');
  });

  it('takes "In `src/c.ts` add this:" as a new file, and refuses it for a file that exists (a part, placed nowhere)', async () => {
    const created = await apply(CALC, `${SWAP}\nIn \`src/c.ts\` add this:\n\n\`\`\`ts\nexport const c = 1;\n\`\`\`\n`);
    expect(created.result.status).toBe('applied');
    expect(readTree(created.root).get('src/c.ts')).toBe('export const c = 1;\n');
    expectRefused(await apply(CALC, `${SWAP}\nIn \`src/a.ts\` add this:\n\n\`\`\`ts\nexport const c = 1;\n\`\`\`\n`), 'UNHEADED_FILE_BLOCK');
  });

  it.each([['// <existing code>'], ['// your existing loop here'], ['// previous code'], ['// (no changes below)'], ['// unchanged: sub()'], ['// --- unchanged ---'], ['// TODO: paste the rest of your file here'], ['// [...]'], ['// . . .'], ['// snip']])(
    'refuses a whole file with the placeholder %s (LAZY_PLACEHOLDER)',
    async (placeholder) => {
      const answer = `**src/a.ts**\n\n\`\`\`ts\nexport function add(a: number, b: number): number {\n  return b + a;\n}\n\n${placeholder}\n\nexport const NAME = "calc";\n\`\`\`\n`;
      expectRefused(await apply(CALC, answer), 'LAZY_PLACEHOLDER');
    },
  );
});

// Found by a second probe: a block that is a part of an existing file is never written as all of it.
describe('parts of a file are never written as the whole file', () => {
  const BASE = {
    'src/util.ts': 'export interface Opts {\n  help: boolean;\n}\n\nexport function parse(args: string[]): Opts {\n  return { help: args.includes("--help") };\n}\n',
    'package.json': '{\n  "name": "demo"\n}\n',
  };
  const HELPER = '```ts\nexport function isVerbose(args: string[]): boolean {\n  return args.includes("-v");\n}\n```\n';

  it.each([['**src/util.ts** (excerpt)'], ['### `src/util.ts` (add at the bottom)'], ['File: src/util.ts (partial)'], ['**src/util.ts** (lines 1–5)']])('refuses a block under %s (UNHEADED_FILE_BLOCK)', async (label) => {
    expectRefused(await apply(BASE, `Add a helper.\n\n${label}\n\n${HELPER}`), 'UNHEADED_FILE_BLOCK');
  });

  it.each([["Here's the relevant part of `src/util.ts`:"], ['And in `src/util.ts` we need:'], ['Finally, `src/util.ts` needs a helper:']])('refuses a block after "%s" for a file that exists', async (sentence) => {
    expectRefused(await apply(BASE, `${sentence}\n\n${HELPER}`), 'UNHEADED_FILE_BLOCK');
  });

  it("still takes \"Here's the updated `src/util.ts`:\" as the whole file", async () => {
    const run = await apply(BASE, `Here's the updated \`src/util.ts\`:\n\n${HELPER}`);
    expect(run.result.status).toBe('applied');
    expect(readTree(run.root).get('src/util.ts')).toContain('isVerbose');
  });

  it.each([['// src/util.ts (excerpt)'], ['// In src/util.ts:'], ['// ----- src/util.ts -----']])('refuses a block whose first line is %s rather than dropping it or writing it whole', async (first) => {
    expectRefused(await apply(BASE, `\`\`\`ts\n${first}\nexport const x = 1;\n\`\`\`\n`), 'UNHEADED_FILE_BLOCK');
  });

  it.each([['```typescript {title="src/util.ts"}'], ['```ts [src/util.ts]'], ['```ts filepath=src/util.ts']])('refuses a block opened with %s rather than dropping it', async (fence) => {
    const answer = `**src/new.ts**\n\n\`\`\`ts\nexport const n = 1;\n\`\`\`\n\n${fence}\nexport const x = 1;\n\`\`\`\n`;
    const run = await apply(BASE, answer);
    if (run.result.status === 'applied') expect(readTree(run.root).get('src/util.ts')).toBe('export const x = 1;\n');
    else expectRefused(run, 'UNHEADED_FILE_BLOCK');
  });

  it('a shell block whose first line is `# package.json` is a command, not that file', async () => {
    const run = await apply(BASE, 'Add a start script:\n\n```bash\n# package.json\nnpm pkg set scripts.start="node dist/app.js"\n```\n');
    expect(run.result.status).toBe('rejected');
    expect(run.result.error?.code).toBe('NOTHING_TO_APPLY');
    expect(readTree(run.root)).toEqual(run.before);
  });

  it.each([['// (parse() unchanged)'], ['// parse() stays the same'], ['// keep parse as is'], ['// TODO: keep your existing parse() here'], ['// remaining functions as before']])('refuses the placeholder %s (LAZY_PLACEHOLDER)', async (placeholder) => {
    const answer = `**src/util.ts**\n\n\`\`\`ts\nexport interface Opts {\n  help: boolean;\n  verbose: boolean;\n}\n\n${placeholder}\n\`\`\`\n`;
    expectRefused(await apply(BASE, answer), 'LAZY_PLACEHOLDER');
  });
});

describe('an extension-less file named plainly above its block', () => {
  it.each([['**scripts/deploy**'], ['### scripts/deploy'], ['File: scripts/deploy']])('is created from %s (not dropped while the rest applies)', async (label) => {
    const answer = `**src/new.ts**\n\n\`\`\`ts\nexport const n = 1;\n\`\`\`\n\n${label}\n\n\`\`\`sh\n#!/bin/sh\necho deploy\n\`\`\`\n`;
    const run = await apply({ 'src/app.ts': 'export const app = 1;\n' }, answer);
    expect(run.result.status).toBe('applied');
    const after = readTree(run.root);
    expect(after.get('scripts/deploy')).toBe('#!/bin/sh\necho deploy\n');
    expect(after.get('src/new.ts')).toBe('export const n = 1;\n');
  });
});
