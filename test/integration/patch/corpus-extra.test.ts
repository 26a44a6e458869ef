import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases, corpusDir, expectCaseThroughCli, expectWellFormedCorpus } from '../../helpers/corpus.js';

/**
 * The extra patch corpus (fixtures/patch-corpus-extra): more cases of the six kinds of the public
 * corpus, each run through the built `relay` CLI exactly like corpus.test.ts does.
 */
const CORPUS = corpusDir('patch-corpus-extra');
const cases = corpusCases(CORPUS);

describe('the extra patch corpus through `relay apply`', () => {
  it('has at least 60 well-formed cases spread over the six categories', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expectWellFormedCorpus(CORPUS, cases);
  });

  it.each(cases)('%s', (name) => expectCaseThroughCli(path.join(CORPUS, name)));
});
