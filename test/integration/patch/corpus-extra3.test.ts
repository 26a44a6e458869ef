import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relay, REPO_ROOT } from '../../helpers/cli.js';
import { emptyFolders, gitRepo, readTree } from '../../helpers/temp.js';

/**
 * The third extra patch corpus (fixtures/patch-corpus-extra3): 22 adversarial cases of the six
 * kinds of the public corpus (CRLF answers with ~~~ fences, other dialects' strategy words, shell
 * snippets without paths, ellipses and spreads that are code, writes into .git/ and backslash
 * escapes, cut-off answers), each run through the built `relay` CLI like corpus.test.ts does.
 */
const CORPUS = path.join(REPO_ROOT, 'fixtures/patch-corpus-extra3');
const cases = readdirSync(CORPUS).filter((name) => /^\d{3}-/.test(name));

interface CaseMeta {
  readonly id: string;
  readonly category: string;
  readonly expect: 'applied' | 'rejected';
  readonly description: string;
}

const CATEGORIES = ['clean', 'unified-diff-defect', 'search-replace-defect', 'format-variation', 'must-reject', 'tricky-valid'];

describe('the third extra patch corpus through `relay apply`', () => {
  it('has at least 20 well-formed cases spread over the six categories', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    const seen = new Set<string>();
    for (const name of cases) {
      const meta = JSON.parse(readFileSync(path.join(CORPUS, name, 'case.json'), 'utf8')) as CaseMeta;
      expect(meta.id).toBe(name);
      expect(CATEGORIES).toContain(meta.category);
      expect(['applied', 'rejected']).toContain(meta.expect);
      seen.add(meta.category);
    }
    expect([...seen].sort()).toEqual([...CATEGORIES].sort());
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
      expect(result.status, `${meta.description}\n${run.stdout}`).toBe('rejected');
      expect(result.error?.code).toBeTruthy();
      expect(run.exitCode).toBe(1);
      expect(readTree(root)).toEqual(before);
      expect(emptyFolders(root)).toEqual([]);
    }
  });
});
