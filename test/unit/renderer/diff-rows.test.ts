import { createTwoFilesPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../src/engine/patch/summary.js';
import { diffPath, hunkSides, parseUnifiedDiff, splitRows, unifiedRows, type DiffLine } from '../../../src/renderer/lib/diff-rows.js';

const numbers = (lines: readonly DiffLine[]) => lines.map((l) => [l.type, l.oldNo, l.newNo, l.text]);

describe('diff rows', () => {
  describe('parseUnifiedDiff()', () => {
    it('reads the engine’s own diffs (createTwoFilesPatch) with old and new line numbers', () => {
      const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
      const after = 'a\nb\nc\nD\ne\nf\ng\nh\ni\n';
      const [file] = parseUnifiedDiff(unifiedDiff('src/x.ts', before, after));
      expect(file).toMatchObject({ path: 'src/x.ts', oldPath: 'src/x.ts', newPath: 'src/x.ts', added: 2, removed: 1, binary: false });
      expect(file!.hunks).toHaveLength(1);
      expect(numbers(file!.hunks[0]!.lines)).toEqual([
        ['context', 1, 1, 'a'],
        ['context', 2, 2, 'b'],
        ['context', 3, 3, 'c'],
        ['del', 4, null, 'd'],
        ['add', null, 4, 'D'],
        ['context', 5, 5, 'e'],
        ['context', 6, 6, 'f'],
        ['context', 7, 7, 'g'],
        ['context', 8, 8, 'h'],
        ['add', null, 9, 'i'],
      ]);
    });

    it('numbers a created file from 1 and names it by its new path', () => {
      const [file] = parseUnifiedDiff(unifiedDiff('docs/new.md', null, 'one\ntwo\n'));
      expect(file).toMatchObject({ path: 'docs/new.md', oldPath: null, newPath: 'docs/new.md', added: 2, removed: 0 });
      expect(numbers(file!.hunks[0]!.lines)).toEqual([
        ['add', null, 1, 'one'],
        ['add', null, 2, 'two'],
      ]);
    });

    it('names a deleted file by its old path', () => {
      const [file] = parseUnifiedDiff(unifiedDiff('old.txt', 'x\n', null));
      expect(file).toMatchObject({ path: 'old.txt', oldPath: 'old.txt', newPath: null, added: 0, removed: 1 });
    });

    it('marks the line that has no newline at the end of the file', () => {
      const [file] = parseUnifiedDiff(createTwoFilesPatch('a/f', 'b/f', 'x\ny', 'x\nz', '', '', { context: 3 }));
      const lines = file!.hunks[0]!.lines;
      expect(lines.find((l) => l.text === 'y')).toMatchObject({ type: 'del', noNewline: true });
      expect(lines.find((l) => l.text === 'z')).toMatchObject({ type: 'add', noNewline: true });
      expect(lines.find((l) => l.text === 'x')).toMatchObject({ noNewline: false });
    });

    it('splits a git diff of several files, with quoted paths, binaries and several hunks', () => {
      const text = [
        'diff --git a/src/a.ts b/src/a.ts',
        'index 1111111..2222222 100644',
        '--- a/src/a.ts',
        '+++ b/src/a.ts',
        '@@ -1 +1 @@',
        '-export const a = 1;',
        '+export const a = 2;',
        '@@ -10,2 +10,3 @@ function f() {',
        ' keep',
        '+added',
        ' keep2',
        'diff --git "a/docs/Release Process.md" "b/docs/Release Process.md"',
        '--- "a/docs/Release Process.md"',
        '+++ "b/docs/Release Process.md"',
        '@@ -0,0 +1 @@',
        '+hello',
        'diff --git a/logo.png b/logo.png',
        'Binary files a/logo.png and b/logo.png differ',
        '',
      ].join('\n');
      const files = parseUnifiedDiff(text);
      expect(files.map((f) => [f.path, f.added, f.removed, f.binary])).toEqual([
        ['src/a.ts', 2, 1, false],
        ['docs/Release Process.md', 1, 0, false],
        ['logo.png', 0, 0, true],
      ]);
      expect(files[0]!.hunks.map((h) => [h.oldStart, h.newStart])).toEqual([
        [1, 1],
        [10, 10],
      ]);
      expect(numbers(files[0]!.hunks[1]!.lines)).toEqual([
        ['context', 10, 10, 'keep'],
        ['add', null, 11, 'added'],
        ['context', 11, 12, 'keep2'],
      ]);
      expect(files[1]!.hunks[0]!.lines[0]).toMatchObject({ newNo: 1 });
    });

    it('keeps lines that look like headers inside a hunk ("--- " as a deleted line)', () => {
      const [file] = parseUnifiedDiff(unifiedDiff('notes.md', '-- dash\nkeep\n', 'keep\n+++ plus\n'));
      expect(file!.hunks[0]!.lines.map((l) => `${l.type}:${l.text}`)).toEqual(['del:-- dash', 'context:keep', 'add:+++ plus']);
    });

    it('returns nothing for empty text', () => {
      expect(parseUnifiedDiff('')).toEqual([]);
    });
  });

  it('diffPath() strips a/ and b/, unquotes, and maps /dev/null to null', () => {
    expect(diffPath('a/src/x.ts')).toBe('src/x.ts');
    expect(diffPath('b/src/x.ts\t2030-01-01')).toBe('src/x.ts');
    expect(diffPath('"a/with space.md"')).toBe('with space.md');
    expect(diffPath('/dev/null')).toBeNull();
  });

  describe('views', () => {
    const file = parseUnifiedDiff(unifiedDiff('f.txt', 'a\nb\nc\nd\n', 'a\nB\nC\nX\nd\n'))[0]!;

    it('unified: the hunk header, then every line in order', () => {
      const rows = unifiedRows(file);
      expect(rows[0]).toEqual({ kind: 'hunk', header: '@@ -1,4 +1,5 @@' });
      expect(rows.slice(1).map((r) => (r.kind === 'line' ? `${r.line.type}:${r.line.text}` : 'hunk'))).toEqual(['context:a', 'del:b', 'del:c', 'add:B', 'add:C', 'add:X', 'context:d']);
    });

    it('split: deletions pair with additions in order; the longer side leaves blanks; context sits on both sides', () => {
      const rows = splitRows(file).filter((r) => r.kind === 'pair');
      expect(rows.map((r) => (r.kind === 'pair' ? [r.left?.text ?? null, r.left?.oldNo ?? null, r.right?.text ?? null, r.right?.newNo ?? null] : null))).toEqual([
        ['a', 1, 'a', 1],
        ['b', 2, 'B', 2],
        ['c', 3, 'C', 3],
        [null, null, 'X', 4],
        ['d', 4, 'd', 5],
      ]);
    });

    it('split: a deletion after additions starts a new change block', () => {
      const [f] = parseUnifiedDiff(['--- a/x', '+++ b/x', '@@ -1,2 +1,2 @@', '+new1', '-old1', '-old2', '+new2', ''].join('\n'));
      const pairs = splitRows(f!).flatMap((r) => (r.kind === 'pair' ? [[r.left?.text ?? null, r.right?.text ?? null]] : []));
      expect(pairs).toEqual([
        [null, 'new1'],
        ['old1', 'new2'],
        ['old2', null],
      ]);
    });

    it('hunkSides() gives the old text (context + deleted) and the new text (context + added)', () => {
      expect(hunkSides(file.hunks[0]!)).toEqual({ old: ['a', 'b', 'c', 'd'], new: ['a', 'B', 'C', 'X', 'd'] });
    });
  });
});
