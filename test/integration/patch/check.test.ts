// checkAnswer: "does this answer apply to this project?" without writing, and the refusal a
// person and the assistant can act on (file, block, closest lines, reply in the answer's format).
import { describe, expect, it } from 'vitest';
import { checkAnswer, commitMessageFromProse, derivedUuid, responseHash, type PatchRefusal } from '../../../src/engine/patch/check.js';
import { readTree, tempDir, writeFiles } from '../../helpers/temp.js';

const APP = ['export function total(items: number[]): number {', '  let sum = 0;', '  for (const item of items) sum += item;', '  return sum;', '}', ''].join('\n');
const PY = ['def area(r):', '    return 3.14 * r * r', '', '', 'def volume(r, h):', '    return area(r) * h', ''].join('\n');

function project(): string {
  const root = tempDir('relay-check-');
  writeFiles(root, { 'src/app.ts': APP, 'geo/shapes.py': PY, 'README.md': '# demo\n' });
  return root;
}

function refusal(root: string, answer: string): PatchRefusal {
  const checked = checkAnswer(root, answer);
  if (checked.ok) throw new Error(`expected a refusal, got a plan of ${checked.value.plan.changes.length} change(s)`);
  return checked.error;
}

describe('checkAnswer', () => {
  it('plans a native answer without writing anything', () => {
    const root = project();
    const before = readTree(root, []);
    const answer = 'Use reduce:\n\nsrc/app.ts\n```ts\n<<<<<<< SEARCH\n  let sum = 0;\n  for (const item of items) sum += item;\n  return sum;\n=======\n  return items.reduce((a, b) => a + b, 0);\n>>>>>>> REPLACE\n```\n';
    const checked = checkAnswer(root, answer);
    expect(checked.ok).toBe(true);
    if (!checked.ok) return;
    expect(checked.value.plan.changes).toEqual([{ path: 'src/app.ts', before: APP, after: 'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\n' }]);
    expect(checked.value.parsed.dialect).toBe('native');
    expect(checked.value.uuid).toBe(derivedUuid(responseHash(answer)));
    expect(checked.value.gitCommitMsg).toBe('Use reduce');
    expect(readTree(root, [])).toEqual(before);
  });

  it('derives the same uuid for the same answer (CRLF or not) and another for a different one', () => {
    const root = project();
    const answer = '**README.md**\n\n```md\n# demo\n\nMore.\n```\n';
    const a = checkAnswer(root, answer);
    const b = checkAnswer(root, answer.replace(/\n/g, '\r\n'));
    const c = checkAnswer(root, answer.replace('More.', 'Less.'));
    expect(a.ok && b.ok && c.ok).toBe(true);
    if (!a.ok || !b.ok || !c.ok) return;
    expect(a.value.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(b.value.uuid).toBe(a.value.uuid);
    expect(c.value.uuid).not.toBe(a.value.uuid);
  });

  it('falls back to a commit message describing the change', () => {
    const checked = checkAnswer(project(), '**README.md**\n\n```md\n# demo 2\n```\n');
    expect(checked.ok && checked.value.gitCommitMsg).toBe('Update README.md');
  });

  it("keeps Relay's own format as before: the control block's uuid and message, and a projectId check", () => {
    const root = project();
    const control = (id: string): string => `\`\`\`yaml\nprojectId: ${id}\nuuid: 1f2e3d4c-0000-4000-8000-000000000001\ngitCommitMsg: "docs: more"\n\`\`\`\n`;
    const answer = (id: string): string => `\`\`\`md // README.md\n# demo\n\nMore.\n\`\`\`\n${control(id)}`;
    const checked = checkAnswer(root, answer('demo'), { projectId: 'demo' });
    expect(checked.ok && [checked.value.parsed.dialect, checked.value.uuid, checked.value.gitCommitMsg]).toEqual(['relay', '1f2e3d4c-0000-4000-8000-000000000001', 'docs: more']);
    const other = checkAnswer(root, answer('other'), { projectId: 'demo' });
    expect(other.ok ? 'ok' : other.error.code).toBe('PROJECT_ID_MISMATCH');
  });
});

describe('refusals say which file and block failed, show the closest lines, and carry a reply in the format of the answer', () => {
  it('a SEARCH block that does not match: closest lines with a similarity figure, and a SEARCH/REPLACE reply', () => {
    const error = refusal(project(), 'src/app.ts\n```ts\n<<<<<<< SEARCH\n  let total = 0;\n  for (const item of items) total += item;\n=======\n  let total = 1;\n>>>>>>> REPLACE\n```\n');
    expect(error.code).toBe('SEARCH_NOT_FOUND');
    expect(error.block).toEqual({ format: 'search-replace', line: 3, path: 'src/app.ts' }); // the SEARCH line
    expect(error.closest).toMatchObject({ startLine: 2, lines: ['  let sum = 0;', '  for (const item of items) sum += item;'] });
    expect(error.closest!.similarity).toBeGreaterThan(0.5);
    expect(error.closest!.similarity).toBeLessThan(1);
    expect(error.reply).toContain('The SEARCH block for src/app.ts');
    expect(error.reply).toContain('  let sum = 0;\n  for (const item of items) sum += item;');
    expect(error.reply).toContain('Please resend that SEARCH/REPLACE block against the current file.');
    expect(error.message).toMatch(/closest lines in the file \(\d+% alike\)/);
  });

  it('a diff hunk that does not match: a reply that asks for the diff again', () => {
    const error = refusal(project(), '```diff\n--- a/geo/shapes.py\n+++ b/geo/shapes.py\n@@ -1,2 +1,2 @@\n def area(radius):\n-    return 3.14 * radius * radius\n+    return math.pi * radius * radius\n```\n');
    expect(error.code).toBe('HUNK_NOT_FOUND');
    expect(error.block?.format).toBe('git-diff');
    expect(error.closest?.lines).toEqual(['def area(r):', '    return 3.14 * r * r']);
    expect(error.reply).toMatch(/^The diff hunk for geo\/shapes.py .* did not match the file/);
    expect(error.reply).toContain('Please resend the diff for that file against the current file.');
  });

  it('a V4A section that does not match: a reply that asks for the patch again', () => {
    const error = refusal(project(), '*** Begin Patch\n*** Update File: geo/shapes.py\n@@ def volume(r, h):\n-    return area(r) * height\n+    return area(r) * h * 1.0\n*** End Patch\n');
    expect(error.code).toBe('HUNK_NOT_FOUND');
    expect(error.block?.format).toBe('v4a');
    expect(error.reply).toContain('*** Update File section for geo/shapes.py');
    expect(error.reply).toContain('Please resend the patch (*** Begin Patch … *** End Patch) against the current file.');
  });

  it('an ambiguous edit: the lines where it matches, and a request for more context', () => {
    const root = tempDir('relay-check-');
    writeFiles(root, { 'a.py': 'x = 1\nprint(x)\n\ny = 2\nprint(x)\n' });
    const error = refusal(root, 'a.py\n```python\n<<<<<<< SEARCH\nprint(x)\n=======\nprint(x, flush=True)\n>>>>>>> REPLACE\n```\n');
    expect(error.code).toBe('SEARCH_AMBIGUOUS');
    expect(error.lines).toEqual([2, 5]);
    expect(error.reply).toContain('matches more than one place in the file (lines 2, 5)');
    expect(error.reply).toContain('a few more unchanged lines');
  });

  it.each([
    ['a whole file with a placeholder', '**src/app.ts**\n\n```ts\nexport function total(items: number[]): number {\n  // ... existing code ...\n}\n```\n', 'LAZY_PLACEHOLDER', 'is not complete: it has a placeholder'],
    ['a path outside the project', '### ../elsewhere/app.ts\n\n```ts\nexport const x = 1;\n```\n', 'UNSAFE_PATH', 'outside the project'],
    ['an answer cut off', '*** Begin Patch\n*** Add File: src/new.ts\n+export const a = 1;\n', 'TRUNCATED_RESPONSE', 'was cut off'],
    ['nothing to apply', 'Run it like this:\n\n```bash\nnpm test\n```\n', 'NOTHING_TO_APPLY', 'could not find any file change'],
    ['a SEARCH on a missing file', 'src/missing.ts\n```ts\n<<<<<<< SEARCH\nexport const a = 1;\n=======\nexport const a = 2;\n>>>>>>> REPLACE\n```\n', 'FILE_NOT_FOUND', 'src/missing.ts does not exist in the project'],
    ['an Add File of an existing file', '*** Begin Patch\n*** Add File: README.md\n+# other\n*** End Patch\n', 'FILE_EXISTS', 'README.md already exists'],
    ['a delete of a missing file', '*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n', 'DELETE_MISSING', 'deletes gone.txt, which does not exist'],
    ['a block whose heading says more than the path', '### Changes to `src/app.ts`\n\n```ts\nconst x = 1;\n```\n', 'UNHEADED_FILE_BLOCK', 'seems meant for src/app.ts'],
    ['a labelled block that is a piece of the file', '**src/app.ts**\n\n```ts\n  let sum = 1;\n```\n', 'FRAGMENT_NOT_FILE', 'is a part of the file, not the whole of it'],
  ])('%s → %s, with a reply', (_name, answer, code, replyText) => {
    const error = refusal(project(), answer);
    expect(error.code).toBe(code);
    expect(error.reply).toContain(replyText);
  });

  it('has no reply for what the assistant cannot fix (the project id)', () => {
    const answer = '```md // README.md\nx\n```\n```yaml\nprojectId: elsewhere\nuuid: abc\n```\n';
    const checked = checkAnswer(project(), answer, { projectId: 'demo' });
    expect(checked.ok ? null : [checked.error.code, checked.error.reply]).toEqual(['PROJECT_ID_MISMATCH', undefined]);
  });
});

describe('commitMessageFromProse', () => {
  it.each([
    [['Sure! Here is a helper to convert the result to miles:'], 'Here is a helper to convert the result to miles'],
    [['Of course. **Dark mode** only needs the colour variables swapped.'], 'Dark mode only needs the colour variables swapped'],
    [['You can support `-word` exclusions with a small change in `matches`: split the words.'], 'You can support -word exclusions with a small change in matches'],
    [['Ok.'], null],
    [[], null],
  ])('%j → %j', (reasoning, message) => {
    expect(commitMessageFromProse(reasoning)).toBe(message);
  });

  it('keeps a subject to 72 characters', () => {
    expect(commitMessageFromProse([`${'word '.repeat(30)}end.`])!.length).toBeLessThanOrEqual(72);
  });
});
