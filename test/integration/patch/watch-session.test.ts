// `relay watch`'s session in-process, over an injected clipboard: every copied text gets one
// verdict, so each can be checked. (watch.test.ts runs the real CLI on a real X clipboard.)
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRelayConfig, loadRelayConfig, writeRelayConfig } from '../../../src/engine/patch/config.js';
import type { ClipboardListener } from '../../../src/engine/patch/watcher.js';
import { startWatchSession, type WatchEvent, type WatchSession } from '../../../src/engine/patch/watch-session.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { until } from '../../helpers/clipboard-app.js';
import { answer, searchReplace } from '../../helpers/patches.js';
import { relayProject } from '../../helpers/project.js';
import { gitRepo, readTree } from '../../helpers/temp.js';

const FIXTURES = path.join(REPO_ROOT, 'fixtures/clipboard-non-answers');

interface Watching {
  readonly events: WatchEvent[];
  copy(text: string): Promise<WatchEvent>;
  readonly session: WatchSession;
}

const sessions: WatchSession[] = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.stop();
});

/** A watch session on `root` whose clipboard the test writes; copy() resolves with the text's verdict. */
async function watchProject(root: string): Promise<Watching> {
  const config = loadRelayConfig(root);
  if (!config.ok) throw new Error(config.error.message);
  let text = 'on the clipboard before';
  let listener: ClipboardListener | null = null;
  const events: WatchEvent[] = [];
  const session = startWatchSession({
    root,
    config: config.value,
    source: { read: () => text, subscribe: (l) => ((listener = l), { close: () => undefined }) },
    intervalMs: null,
    decide: async () => ({ approve: true }),
    onEvent: (event) => events.push(event),
  });
  sessions.push(session);
  await session.ready;
  const verdicts = (): WatchEvent[] => events.filter((e) => e.type === 'ignored' || e.type === 'outcome' || e.type === 'near-miss' || e.type === 'foreign-answer');
  return {
    events,
    session,
    async copy(next) {
      const before = verdicts().length;
      text = next;
      listener!.onChange();
      await until(() => verdicts().length > before, 'the session to handle the copy');
      return verdicts()[before]!;
    },
  };
}

describe('relay watch (the session)', () => {
  it('ignores every clipboard text of fixtures/clipboard-non-answers, silently', async () => {
    const root = gitRepo({ fromDir: path.join(FIXTURES, 'projects/web') });
    writeRelayConfig(root, defaultRelayConfig('web'));
    const before = readTree(root);
    const watching = await watchProject(root);
    const names = readdirSync(path.join(FIXTURES, 'texts')).filter((n) => n.endsWith('.txt')).sort();
    for (const name of names) {
      const verdict = await watching.copy(readFileSync(path.join(FIXTURES, 'texts', name), 'utf8'));
      expect(verdict, name).toMatchObject({ type: 'ignored' });
    }
    expect(watching.events.filter((e) => e.type !== 'ignored')).toEqual([]);
    expect(readTree(root)).toEqual(before);
  });

  it('applies an answer without a control block that fits this project; tells a near miss with its reply; ignores other projects', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'src/a.ts': 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n' } });
    const watching = await watchProject(root);
    const fits = `src/a.ts\n\`\`\`ts\n${searchReplace('export const b = 2;', 'export const b = 20;')}\n\`\`\`\n`;
    expect(await watching.copy(fits)).toMatchObject({ type: 'outcome', outcome: { status: 'applied' } });
    expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\nexport const b = 20;\nexport const c = 3;\n');

    const stale = `src/a.ts\n\`\`\`ts\n${searchReplace('export const a = 1;\nexport const b = 2;', 'export const a = 1;\nexport const b = 3;')}\n\`\`\`\n`;
    const near = await watching.copy(stale);
    expect(near).toMatchObject({ type: 'near-miss', refusal: { code: 'SEARCH_NOT_FOUND', reply: expect.stringContaining('The SEARCH block for src/a.ts') } });
    // The reply, copied to be sent to the assistant, is not taken for an answer.
    expect(await watching.copy((near as Extract<WatchEvent, { type: 'near-miss' }>).refusal.reply!)).toMatchObject({ type: 'ignored' });

    expect(await watching.copy(answer([{ path: 'src/a.ts', body: 'x' }], { projectId: 'other' }))).toMatchObject({ type: 'foreign-answer', projectId: 'other', expected: 'demo' });
    expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toContain('export const b = 20;');
  });
});
