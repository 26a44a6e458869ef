import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases, corpusDir, expectCaseThroughCli } from '../../helpers/corpus.js';

const CORPUS = corpusDir('patch-corpus');
const cases = corpusCases(CORPUS);

describe('the patch corpus through `relay apply`', () => {
  it('has the 42 cases', () => {
    expect(cases.length).toBe(42);
  });

  it.each(cases)('%s', (name) => expectCaseThroughCli(path.join(CORPUS, name)));
});
