import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relay, REPO_ROOT } from '../../helpers/cli.js';
import { emptyFolders, gitRepo, readTree } from '../../helpers/temp.js';

const CORPUS = path.join(REPO_ROOT, 'fixtures/patch-corpus');
const cases = readdirSync(CORPUS).filter((name) => /^\d{3}-/.test(name));

interface CaseMeta {
  readonly id: string;
  readonly category: string;
  readonly expect: 'applied' | 'rejected';
  readonly description: string;
}

describe('the patch corpus through `relay apply`', () => {
  it('has the 42 cases', () => {
    expect(cases.length).toBe(42);
  });

  it.each(cases)('%s', async (name) => {
    const dir = path.join(CORPUS, name);
    const meta = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as CaseMeta;
    const root = gitRepo({ fromDir: path.join(dir, 'before') });
    expect((await relay(['init', '--project-id', 'corpus'], { cwd: root })).exitCode).toBe(0);
    const before = readTree(root);

    const run = await relay(['apply', path.join(dir, 'response.md'), '--yes', '--json'], { cwd: root });
    const result = JSON.parse(run.stdout) as { status: string; error: { code: string } | null };

    if (meta.expect === 'applied') {
      expect(result.status, `${meta.description}\n${run.stdout}`).toBe('applied');
      expect(run.exitCode).toBe(0);
      expect(readTree(root)).toEqual(readTree(path.join(dir, 'after')));
    } else {
      expect(result.status, meta.description).toBe('rejected');
      expect(result.error?.code).toBeTruthy();
      expect(run.exitCode).toBe(1);
      expect(readTree(root)).toEqual(before);
      expect(emptyFolders(root)).toEqual([]);
    }
  });
});
