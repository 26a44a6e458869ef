import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases, corpusDir, expectCaseThroughCli, readCaseMeta } from '../../helpers/corpus.js';

// The public native-answer corpus (answers in the assistants' own formats, no control block),
// kept exactly as published; the refusal codes we expect are pinned here.
const CORPUS = corpusDir('native-corpus');
const cases = corpusCases(CORPUS);

const REFUSALS: Readonly<Record<string, string>> = {
  '005-recipes-py-sr-search-matches-twice': 'SEARCH_AMBIGUOUS',
  '011-pomodoro-ts-whole-rest-unchanged': 'LAZY_PLACEHOLDER',
  '016-geo-go-diff-context-not-found': 'HUNK_NOT_FOUND',
  '017-geo-go-sr-truncated': 'TRUNCATED_RESPONSE',
  '023-blog-only-pathless-snippets': 'NOTHING_TO_APPLY',
  '028-infra-v4a-add-file-parent-path': 'UNSAFE_PATH',
  '029-infra-whole-file-absolute-path': 'UNSAFE_PATH',
};

describe('the native-answer corpus through `relay apply`', () => {
  it('has the 30 cases, and a pinned code for each one to be refused', () => {
    expect(cases.length).toBe(30);
    const rejected = cases.filter((name) => readCaseMeta(path.join(CORPUS, name)).expect === 'rejected');
    expect(rejected.sort()).toEqual(Object.keys(REFUSALS).sort());
  });

  it.each(cases)('%s', (name) => expectCaseThroughCli(path.join(CORPUS, name), REFUSALS[name] ? { code: REFUSALS[name] } : {}));
});
