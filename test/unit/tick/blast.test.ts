import { describe, expect, it } from 'vitest';
import { parseRawNumstatZ } from '../../../src/engine/git/diff.js';
import { blastLine, blastRadius, countLines, newFilePatch } from '../../../src/engine/tick/blast.js';

describe('parseRawNumstatZ()', () => {
  it('joins raw statuses with numstat counts, binary files with no lines', () => {
    const output = [
      ':100644 100644 422c2b7 0000000 M', 'a.txt',
      ':100644 100644 badc806 0000000 M', 'bin.dat',
      ':100644 000000 587be6b 0000000 D', 'd.txt',
      ':000000 100644 0000000 3e75765 A', 'dir with space/n.txt',
      '2\t1\ta.txt', '-\t-\tbin.dat', '0\t1\td.txt', '1\t0\tdir with space/n.txt', '',
    ].join('\0');
    expect(parseRawNumstatZ(output)).toEqual([
      { path: 'a.txt', change: 'modified', added: 2, deleted: 1, binary: false },
      { path: 'bin.dat', change: 'modified', added: 0, deleted: 0, binary: true },
      { path: 'd.txt', change: 'deleted', added: 0, deleted: 1, binary: false },
      { path: 'dir with space/n.txt', change: 'added', added: 1, deleted: 0, binary: false },
    ]);
  });

  it('is empty for an empty diff', () => {
    expect(parseRawNumstatZ('')).toEqual([]);
  });
});

describe('blast radius', () => {
  it('sums lines (new untracked files included) and counts new files', () => {
    const b = blastRadius([
      { path: 'a', change: 'modified', added: 3, deleted: 2, binary: false },
      { path: 'b', change: 'added', added: 4, deleted: 0, binary: false },
      { path: 'c', change: 'untracked', added: 10, deleted: 0, binary: false },
      { path: 'd', change: 'deleted', added: 0, deleted: 7, binary: false },
    ]);
    expect(b).toEqual({ files_touched: 4, lines_added: 17, lines_deleted: 9, new_files: 2 });
    expect(blastLine(b)).toBe('4 files, +17/-9, 2 new');
  });

  it('is zero for no change', () => {
    expect(blastLine(blastRadius([]))).toBe('0 files, +0/-0, 0 new');
  });
});

describe('countLines()', () => {
  it('counts like git: a last line without newline counts, empty is zero, NUL means binary', () => {
    expect(countLines(Buffer.from('a\nb\n'))).toEqual({ lines: 2, binary: false });
    expect(countLines(Buffer.from('a\nb'))).toEqual({ lines: 2, binary: false });
    expect(countLines(Buffer.from(''))).toEqual({ lines: 0, binary: false });
    expect(countLines(Buffer.from([0x61, 0, 0x62]))).toEqual({ lines: 0, binary: true });
  });
});

describe('newFilePatch()', () => {
  it('writes a creation hunk', () => {
    expect(newFilePatch('src/n.ts', Buffer.from('a\nb\n'))).toBe('diff --git a/src/n.ts b/src/n.ts\nnew file mode 100644\n--- /dev/null\n+++ b/src/n.ts\n@@ -0,0 +1,2 @@\n+a\n+b\n');
  });
  it('marks a missing final newline and binary content', () => {
    expect(newFilePatch('x', Buffer.from('a'))).toContain('@@ -0,0 +1 @@\n+a\n\\ No newline at end of file\n');
    expect(newFilePatch('x.bin', Buffer.from([0, 1]))).toContain('Binary files /dev/null and b/x.bin differ');
  });
});

describe('parseHeadPosition() and parseGitVersion()', () => {
  it('reads the commit and the branch, or no branch when detached', async () => {
    const { parseHeadPosition, parseGitVersion } = await import('../../../src/engine/git/head.js');
    const sha = 'a'.repeat(40);
    expect(parseHeadPosition(`${sha}\nrefs/heads/main\n`)).toEqual({ commit: sha, branch: 'refs/heads/main' });
    expect(parseHeadPosition(`${sha}\nHEAD\n`)).toEqual({ commit: sha, branch: null });
    expect(parseHeadPosition('')).toEqual({ commit: null, branch: null });
    expect(parseGitVersion('git version 2.39.5\n')).toBe('2.39.5');
  });
});
