import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refExists } from '../../../src/engine/git/branch.js';
import { diffFailureDetail, diffText } from '../../../src/engine/git/diff.js';
import { detectDefaultBranch, gitDiff, gitDiffBase } from '../../../src/engine/relay/git-context.js';
import { gitIn, gitRepo, tempDir } from '../../helpers/temp.js';

describe('git verbs for the relay', () => {
  describe('diffText()', () => {
    it('returns the diff trimmed, and git\'s message as a failure value', async () => {
      const repo = gitRepo({ 'a.txt': 'one\n' });
      writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\n');
      const diff = await diffText(repo, ['HEAD', '--']);
      expect(diff.ok && diff.value.endsWith('+two')).toBe(true);
      const failed = await diffText(repo, ['nope...HEAD', '--']);
      expect(failed.ok).toBe(false);
      expect(!failed.ok && failed.error.message).toMatch(/^fatal: /);
      expect((await diffText(tempDir(), ['HEAD'])).ok).toBe(false);
    });

    it('names a failure even when git printed nothing', () => {
      expect(diffFailureDetail('  ', '')).toBe('git diff failed');
      expect(diffFailureDetail('', 'out')).toBe('out');
    });
  });

  it('refExists() tells branches that exist from those that do not', async () => {
    const repo = gitRepo();
    expect(await refExists(repo, 'main')).toBe(true);
    expect(await refExists(repo, 'master')).toBe(false);
    expect(await refExists(tempDir(), 'main')).toBe(false);
  });

  it('detectDefaultBranch() prefers main, then master, skipping one that holds HEAD, then HEAD~1, else null', async () => {
    const repo = gitRepo();
    gitIn(repo, 'switch', '-q', '-c', 'topic');
    gitIn(repo, 'commit', '-q', '--allow-empty', '-m', 'topic work');
    expect(await detectDefaultBranch(repo)).toBe('main');
    gitIn(repo, 'branch', 'master', 'main');
    expect(await detectDefaultBranch(repo)).toBe('main');
    gitIn(repo, 'branch', '-m', 'main', 'trunk');
    expect(await detectDefaultBranch(repo)).toBe('master');
    gitIn(repo, 'branch', '-D', 'master');
    expect(await detectDefaultBranch(repo)).toBe('HEAD~1');
    // On master itself (the only branch), master holds HEAD: its diff would be empty.
    const onMaster = gitRepo();
    gitIn(onMaster, 'branch', '-m', 'main', 'master');
    expect(await detectDefaultBranch(onMaster)).toBeNull();
    gitIn(onMaster, 'commit', '-q', '--allow-empty', '-m', 'second');
    expect(await detectDefaultBranch(onMaster)).toBe('HEAD~1');
  });

  it('gitDiff() is silent where gitDiffBase() is strict', async () => {
    const plain = tempDir();
    expect(await gitDiff(plain)).toEqual({ ok: true, value: '' });
    expect(await gitDiffBase(plain, 'main')).toMatchObject({ ok: false, error: { code: 'DIFF_FAILED', message: expect.stringMatching(/^Failed to collect git diff against main: /) } });
  });
});
