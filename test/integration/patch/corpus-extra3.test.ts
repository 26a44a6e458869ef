import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases, corpusDir, expectCaseThroughCli, expectWellFormedCorpus } from '../../helpers/corpus.js';

/**
 * The third extra patch corpus (fixtures/patch-corpus-extra3): 22 adversarial cases of the six
 * kinds of the public corpus (CRLF answers with ~~~ fences, other dialects' strategy words, shell
 * snippets without paths, ellipses and spreads that are code, writes into .git/ and backslash
 * escapes, cut-off answers), each run through the built `relay` CLI like corpus.test.ts does.
 */
const CORPUS = corpusDir('patch-corpus-extra3');
const cases = corpusCases(CORPUS);

describe('the third extra patch corpus through `relay apply`', () => {
  it('has at least 20 well-formed cases spread over the six categories', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20);
    expectWellFormedCorpus(CORPUS, cases);
  });

  it.each(cases)('%s', (name) => expectCaseThroughCli(path.join(CORPUS, name)));
});
