// What people copy all day is not answers: code, prose, logs, stack traces, JSON, shell sessions,
// diffs of other repositories, their own `git diff`. Every text of fixtures/clipboard-non-answers/
// goes through the desktop app's real clipboard path (router → host → runtime routing) with three
// registered projects whose files those texts name: nothing may be applied, queued or notified.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayBeAnswer } from '../../../src/engine/patch/detect.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { startClipboardApp, type ClipboardApp } from '../../helpers/clipboard-app.js';
import { readTree } from '../../helpers/temp.js';

const FIXTURES = path.join(REPO_ROOT, 'fixtures/clipboard-non-answers');
const TEXTS = readdirSync(path.join(FIXTURES, 'texts'))
  .filter((name) => name.endsWith('.txt'))
  .sort()
  .map((name) => ({ name, text: readFileSync(path.join(FIXTURES, 'texts', name), 'utf8') }));

let app: ClipboardApp;
let before: Record<string, Map<string, string>>;
beforeAll(async () => {
  app = await startClipboardApp({
    web: { fromDir: path.join(FIXTURES, 'projects/web') },
    api: { fromDir: path.join(FIXTURES, 'projects/api') },
    tool: { fromDir: path.join(FIXTURES, 'projects/tool') },
  });
  before = Object.fromEntries(Object.entries(app.roots).map(([id, root]) => [id, readTree(root)]));
});
afterAll(() => app?.close());

describe('clipboard texts that are not answers', () => {
  it('are at least 50, and enough of them look like answers to reach the parser and the router', () => {
    expect(TEXTS.length).toBeGreaterThanOrEqual(50);
    // The cheap marker scan lets these through: the router, not the prefilter, must refuse them.
    expect(TEXTS.filter((t) => mayBeAnswer(t.text)).length).toBeGreaterThanOrEqual(20);
  });

  it('apply nothing, queue nothing and notify nothing, with three registered projects', async () => {
    for (const { name, text } of TEXTS) {
      const reply = await app.copy(text);
      // Reaching the host, it is only ever "not an answer" (never an unknown project, a near miss or a choice).
      if (reply) expect(reply, name).toMatchObject({ ok: false, error: { code: 'NOT_AN_ANSWER' } });
    }
    expect(app.replies.length + app.ignored).toBe(TEXTS.length);
    expect(app.replies.length).toBe(TEXTS.filter((t) => mayBeAnswer(t.text)).length);
    const types = app.events.map((e) => e.event.type);
    expect(types.filter((t) => t.startsWith('task.') || t.startsWith('patch.'))).toEqual([]);
    expect(app.notifications).toEqual([]);
    for (const [id, root] of Object.entries(app.roots)) expect(readTree(root), id).toEqual(before[id]);
    expect(app.store.runs.list({ limit: 10 })).toMatchObject({ runs: [] });
  });
});
