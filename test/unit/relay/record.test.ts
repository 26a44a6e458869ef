// The answer records of `.relaycode/answers/`, on real files.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newAnswerId, recordAnswer, type RecordedAnswer } from '../../../src/engine/relay/record.js';
import { loadAnswers } from '../../../src/engine/records/index.js';
import { relayProject } from '../../helpers/project.js';
import { gitRepo } from '../../helpers/temp.js';

function answer(overrides: Partial<RecordedAnswer> = {}): RecordedAnswer {
  return { id: newAnswerId(), kind: 'ask', backend: 'codex', createdAt: '2030-01-02T03:04:05.000Z', prompt: 'Is it safe?', answer: 'Yes.', ok: true, ...overrides };
}

describe('answer records', () => {
  it('writes a schemaVersion 1 record in a Relay project and reads it back', () => {
    const root = relayProject({ projectId: 'demo' });
    const first = answer();
    const second = answer({ kind: 'review', backend: 'gemini', prompt: 'Review the following changes.' });
    const file = recordAnswer(root, first);
    recordAnswer(root, second);
    expect(file).toBe(path.join(root, '.relaycode', 'answers', `${first.id}.json`));
    expect(JSON.parse(readFileSync(file!, 'utf8'))).toEqual({ schemaVersion: 1, ...first });
    const loaded = loadAnswers(root);
    expect(loaded.skipped).toEqual([]);
    expect(loaded.answers.map((a) => a.id).sort()).toEqual([first.id, second.id].sort());
    expect(loaded.answers.find((a) => a.id === second.id)).toEqual(second);
  });

  it('leaves a repository that is not a Relay project untouched', () => {
    const root = gitRepo();
    expect(recordAnswer(root, answer())).toBeNull();
    expect(existsSync(path.join(root, '.relaycode'))).toBe(false);
  });

  it('refuses an id that could name a path before writing anything', () => {
    const root = relayProject({ projectId: 'demo' });
    for (const id of ['../escape', 'relay-../../x', 'relay-a/b', 'plain']) {
      expect(() => recordAnswer(root, answer({ id }))).toThrow(/Invalid answer id/);
    }
    expect(existsSync(path.join(root, '.relaycode', 'answers'))).toBe(false);
  });

  it('skips, and names, records of another version, damaged JSON and a name that differs from the id', () => {
    const root = relayProject({ projectId: 'demo' });
    const dir = path.join(root, '.relaycode', 'answers');
    mkdirSync(dir, { recursive: true });
    const good = answer();
    recordAnswer(root, good);
    writeFileSync(path.join(dir, 'relay-v2.json'), JSON.stringify({ ...answer({ id: 'relay-v2' }), schemaVersion: 2 }));
    writeFileSync(path.join(dir, 'relay-broken.json'), '{ not json');
    writeFileSync(path.join(dir, 'relay-other.json'), JSON.stringify({ schemaVersion: 1, ...answer({ id: 'relay-moved' }) }));
    const loaded = loadAnswers(root);
    expect(loaded.answers).toEqual([good]);
    expect(loaded.skipped).toEqual([
      { path: '.relaycode/answers/relay-broken.json', reason: 'not valid JSON' },
      { path: '.relaycode/answers/relay-other.json', reason: 'file name differs from its id' },
      { path: '.relaycode/answers/relay-v2.json', reason: 'not a schemaVersion 1 answer record' },
    ]);
  });
});
