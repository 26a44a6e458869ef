import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relay } from '../../helpers/cli.js';
import { answer, searchReplace } from '../../helpers/patches.js';
import { emptyFolders, gitRepo, readTree } from '../../helpers/temp.js';

// A multi-file answer: two edits, a new file in a new folder, a delete and a rename.
const files = {
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 1;\r\n',
  'src/old.ts': 'old\n',
  'docs/readme.md': '# doc\n',
};
const text = answer([
  { path: 'src/a.ts', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 2;') },
  { path: 'src/b.ts', strategy: 'new-unified', body: '@@ ... @@\n-export const b = 1;\n+export const b = 2;' },
  { path: 'src/deep/new/c.ts', body: 'export const c = 3;' },
  { path: 'src/old.ts', body: '//TODO: delete this file' },
]);

async function setUp(): Promise<{ root: string; before: Map<string, string>; patchFile: string }> {
  const root = gitRepo(files);
  await relay(['init', '--project-id', 'demo'], { cwd: root });
  const patchFile = path.join(root, '..', `${path.basename(root)}.answer.md`);
  writeFileSync(patchFile, text);
  return { root, before: readTree(root), patchFile };
}

describe('crash safety of `relay apply`', () => {
  it('the uninterrupted apply reaches the after state (the reference for the crash cases)', async () => {
    const { root, patchFile } = await setUp();
    expect((await relay(['apply', patchFile, '--yes'], { cwd: root })).exitCode).toBe(0);
    expect(readTree(root).get('src/deep/new/c.ts')).toBe('export const c = 3;\n');
  });

  it.each(['pending-written', 'file-written:0', 'file-written:1', 'file-written:2', 'all-written'])(
    'killed with SIGKILL at %s: the next command restores the before state',
    async (point) => {
      const { root, before, patchFile } = await setUp();
      const killed = await relay(['apply', patchFile, '--yes'], { cwd: root, env: { RELAY_FAULT: point } });
      expect(killed.exitCode).toBe(-1); // died by signal, no exit code
      const next = await relay(['log'], { cwd: root });
      expect(next.stderr).toContain('interrupted transaction');
      expect(readTree(root)).toEqual(before);
      expect(emptyFolders(root)).toEqual([]);
      // And the same answer applies cleanly afterwards.
      expect((await relay(['apply', patchFile, '--yes'], { cwd: root })).exitCode).toBe(0);
    },
  );

  it('killed after the record is committed: the after state stays and is in the log', async () => {
    const { root, patchFile } = await setUp();
    const reference = await setUp();
    await relay(['apply', reference.patchFile, '--yes'], { cwd: reference.root });
    await relay(['apply', patchFile, '--yes'], { cwd: root, env: { RELAY_FAULT: 'record-committed' } });
    const log = await relay(['log', '--json'], { cwd: root });
    expect(JSON.parse(log.stdout)).toHaveLength(1);
    expect(readTree(root)).toEqual(readTree(reference.root));
  });
});
