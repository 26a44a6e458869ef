import { describe, expect, it } from 'vitest';
import { parseLog, readLog, unquotePath } from '../../../src/engine/git/log.js';
import { gitIn, gitRepo, tempDir, writeFiles } from '../../helpers/temp.js';

const R = '\x1e';
const U = '\x1f';

describe('git log', () => {
  describe('parseLog()', () => {
    it('reads commits with their files, newest first as given', () => {
      const sha1 = 'a'.repeat(40);
      const sha2 = 'b'.repeat(40);
      const out = `${R}${sha1}${U}2026-05-10T12:00:00+02:00${U}Ada${U}fix: keep | and\ttabs\n\nsrc/a.ts\nsrc/b.ts\n${R}${sha2}${U}2026-05-09T08:00:00Z${U}Bob${U}initial\n\nREADME.md\n`;
      expect(parseLog(out)).toEqual([
        { sha: sha1, date: '2026-05-10T12:00:00+02:00', author: 'Ada', subject: 'fix: keep | and\ttabs', files: ['src/a.ts', 'src/b.ts'] },
        { sha: sha2, date: '2026-05-09T08:00:00Z', author: 'Bob', subject: 'initial', files: ['README.md'] },
      ]);
    });

    it('reads commits without files and skips garbage', () => {
      const sha = 'c'.repeat(40);
      expect(parseLog(`noise\n${R}${sha}${U}2026-01-01T00:00:00Z${U}A${U}s\n${R}not-a-sha${U}x${U}y${U}z\n`)).toEqual([
        { sha, date: '2026-01-01T00:00:00Z', author: 'A', subject: 's', files: [] },
      ]);
      expect(parseLog('')).toEqual([]);
    });
  });

  describe('unquotePath()', () => {
    it("undoes git's C quoting and leaves plain paths alone", () => {
      expect(unquotePath('src/a.ts')).toBe('src/a.ts');
      expect(unquotePath('"tab\\there"')).toBe('tab\there');
      expect(unquotePath('"quote\\"d"')).toBe('quote"d');
      expect(unquotePath('"caf\\303\\251.md"')).toBe('café.md');
    });
  });

  describe('readLog()', () => {
    it('is empty in a repository without commits', async () => {
      const root = tempDir();
      gitIn(root, 'init', '-q', '-b', 'main');
      expect(await readLog(root, { maxCount: 5 })).toEqual([]);
    });

    it('lists files per commit with --name-only, for HEAD or a range', async () => {
      const root = gitRepo({ 'a.txt': '1\n' });
      const base = gitIn(root, 'rev-parse', 'HEAD').trim();
      writeFiles(root, { 'src/b.ts': 'b\n', 'caf\u00e9 "x".md': 'c\n' });
      gitIn(root, 'add', '-A');
      gitIn(root, 'commit', '-q', '-m', 'second');
      const head = gitIn(root, 'rev-parse', 'HEAD').trim();
      const all = await readLog(root, { maxCount: 10, nameOnly: true });
      expect(all.map((c) => c.subject)).toEqual(['second', 'initial']);
      expect(all[0]!.files).toEqual(['caf\u00e9 "x".md', 'src/b.ts']);
      expect(all[0]!.sha).toBe(head);
      const range = await readLog(root, { maxCount: 10, nameOnly: true, range: `${base}..${head}` });
      expect(range.map((c) => c.sha)).toEqual([head]);
      expect((await readLog(root, { maxCount: 1 }))[0]!.files).toEqual([]);
    });
  });
});
