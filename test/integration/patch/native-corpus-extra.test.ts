import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases, corpusDir, expectCaseThroughCli, readCaseMeta } from '../../helpers/corpus.js';

// Our own native-format cases: every `format` value of the public corpus README, and each
// must-reject rule, with the refusal code pinned in case.json.
const CORPUS = corpusDir('native-corpus-extra');
const cases = corpusCases(CORPUS);

/** The format values the public corpus README lists (mixed-* stands for any mix). */
const FORMATS = [
  'git-diff', 'git-diff-new-file', 'git-diff-delete', 'git-diff-rename', 'git-diff-no-newline', 'git-diff-wrong-numbers', 'git-diff-wrong-counts',
  'git-diff-per-file-fences', 'bare-diff-prefixed', 'bare-diff-no-prefix', 'bare-diff-patch-fence', 'udiff-no-numbers',
  'v4a-fenced', 'v4a-unfenced', 'v4a-diff-fence', 'v4a-heredoc', 'v4a-move', 'v4a-delete', 'v4a-nested-anchors', 'v4a-end-of-file',
  'aider-path-above', 'sr-path-inside-fence', 'sr-multi-block-one-fence', 'sr-bold-path',
  'whole-bold-path', 'whole-heading', 'whole-file-label', 'whole-info-title', 'whole-info-path', 'whole-info-lang-colon-path', 'whole-comment-path',
  'whole-comment-filepath', 'whole-prose-path', 'pathless-snippets',
];

describe('our native-format cases through `relay apply`', () => {
  it('cover every format variant, applied and refused, each refusal with a pinned code', () => {
    const metas = cases.map((name) => ({ ...readCaseMeta(path.join(CORPUS, name)), format: readCaseMeta(path.join(CORPUS, name)).format ?? '' }));
    const applied = new Set(metas.filter((m) => m.expect === 'applied').map((m) => m.format));
    for (const format of FORMATS.filter((f) => f !== 'pathless-snippets')) expect(applied, `no applied case for ${format}`).toContain(format);
    expect(metas.some((m) => m.format.startsWith('mixed-') && m.expect === 'applied')).toBe(true);
    expect(metas.some((m) => m.format === 'pathless-snippets' && m.expect === 'rejected')).toBe(true);
    for (const meta of metas.filter((m) => m.expect === 'rejected')) expect(meta.code, meta.id).toMatch(/^[A-Z_]+$/);
  });

  it.each(cases)('%s', (name) => expectCaseThroughCli(path.join(CORPUS, name)));
});
