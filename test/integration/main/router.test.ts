// The desktop app's clipboard routing end to end without Electron: an injected clipboard, the
// real router, host, runtime, store and projects on disk; notifications as the app builds them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PatchDetail } from '../../../src/shared/contract.js';
import { answer, searchReplace } from '../../helpers/patches.js';
import { startClipboardApp, until } from '../../helpers/clipboard-app.js';

const CART = ['export function total(prices: number[]): number {', '  let sum = 0;', '  for (const price of prices) sum += price;', '  return sum;', '}', ''].join('\n');
const POSTS = ['export function slug(title: string): string {', "  return title.toLowerCase().replace(/\\s+/g, '-');", '}', ''].join('\n');

const cartEdit = (replace: string, search = '  for (const price of prices) sum += price;\n  return sum;') => `Rounded the total.\n\nsrc/cart.ts\n\`\`\`ts\n${searchReplace(search, replace)}\n\`\`\`\n`;
const taskOf = (reply: unknown): string => {
  const value = (reply as { ok: boolean; value?: { taskId?: string } }).value;
  if (!value?.taskId) throw new Error(`no task: ${JSON.stringify(reply)}`);
  return value.taskId;
};

describe('clipboard routing in the app', () => {
  it('applies an answer without a control block to the one project it fits, and one with a control block to the project it names', async () => {
    const app = await startClipboardApp({ shop: { files: { 'src/cart.ts': CART } }, blog: { files: { 'src/posts.ts': POSTS } } });
    try {
      const fitted = await app.copy(cartEdit('  for (const price of prices) sum += price;\n  return Math.round(sum * 100) / 100;'));
      expect(fitted).toMatchObject({ ok: true, value: { projectId: 'shop' } });
      await app.host.runtime.waitForTask(taskOf(fitted));
      expect(readFileSync(path.join(app.roots.shop!, 'src/cart.ts'), 'utf8')).toContain('Math.round(sum * 100)');
      expect(app.notifications.at(-1)).toMatchObject({ kind: 'applied', title: 'Patch applied — shop' });

      // Routed by projectId exactly as before: a whole file for blog, though nothing in it "fits".
      const named = await app.copy(answer([{ path: 'src/new.ts', body: 'export const n = 1;' }], { projectId: 'blog' }));
      expect(named).toMatchObject({ ok: true, value: { projectId: 'blog' } });
      await app.host.runtime.waitForTask(taskOf(named));
      expect(readFileSync(path.join(app.roots.blog!, 'src/new.ts'), 'utf8')).toBe('export const n = 1;\n');

      // A projectId nobody registered: one notification, as before.
      expect(await app.copy(answer([{ path: 'a.ts', body: 'x' }], { projectId: 'wiki' }))).toMatchObject({ ok: false, error: { code: 'UNKNOWN_PROJECT' } });
      expect(app.notifications.at(-1)).toMatchObject({ kind: 'no-project', title: 'No project for projectId "wiki"', urgent: true });
    } finally {
      await app.close();
    }
  });

  it('routes only among watching projects', async () => {
    const app = await startClipboardApp({ shop: { files: { 'src/cart.ts': CART }, watching: false } });
    try {
      expect(await app.copy(cartEdit('  return 0;'))).toMatchObject({ ok: false, error: { code: 'NOT_AN_ANSWER' } });
      expect(await app.copy(answer([{ path: 'src/cart.ts', body: 'x' }], { projectId: 'shop' }))).toMatchObject({ ok: false, error: { code: 'UNKNOWN_PROJECT', message: expect.stringContaining('watching is off') } });
      expect(readFileSync(path.join(app.roots.shop!, 'src/cart.ts'), 'utf8')).toBe(CART);
    } finally {
      await app.close();
    }
  });

  it('asks which project when several fit: a notification naming them, a choice in the runtime state, and chooseProject applies it there', async () => {
    const app = await startClipboardApp({ shop: { files: { 'src/cart.ts': CART } }, fork: { files: { 'src/cart.ts': CART } }, blog: { files: { 'src/posts.ts': POSTS } } });
    try {
      expect(await app.copy(cartEdit('  for (const price of prices) sum += price;\n  return sum + 1;'))).toMatchObject({ ok: false, error: { code: 'PROJECT_CHOICE_NEEDED' } });
      const [choice] = app.host.runtime.state().choices;
      expect(choice).toMatchObject({ source: 'clipboard', projectIds: ['shop', 'fork'], title: 'Rounded the total' });
      expect(app.notifications.at(-1)).toMatchObject({
        kind: 'choose-project',
        body: expect.stringContaining('fits shop and fork'),
        choiceId: choice!.choiceId,
        actions: [
          { kind: 'choose-project', label: 'Apply to shop', projectId: 'shop' },
          { kind: 'choose-project', label: 'Apply to fork', projectId: 'fork' },
        ],
      });
      expect(await app.host.call('chooseProject', { choiceId: choice!.choiceId, projectId: 'blog' })).toMatchObject({ ok: false, error: { code: 'NOT_A_CANDIDATE' } });
      const chosen = await app.host.call('chooseProject', { choiceId: choice!.choiceId, projectId: 'fork' });
      expect(chosen).toMatchObject({ ok: true, value: { choiceId: choice!.choiceId } });
      await app.host.runtime.waitForTask((chosen as { value: { taskId: string } }).value.taskId);
      expect(readFileSync(path.join(app.roots.fork!, 'src/cart.ts'), 'utf8')).toContain('return sum + 1;');
      expect(readFileSync(path.join(app.roots.shop!, 'src/cart.ts'), 'utf8')).toBe(CART);
      expect(app.host.runtime.state().choices).toEqual([]);
      expect(app.events.map((e) => e.event).find((e) => e.type === 'patch.choice-resolved')).toMatchObject({ projectId: 'fork', by: 'user' });
    } finally {
      await app.close();
    }
  });

  it('tells a near miss once, with the closest refusal and its reply; an answer that fits nothing and is not clearly meant for a project is not told', async () => {
    const app = await startClipboardApp({ shop: { files: { 'src/cart.ts': CART } }, blog: { files: { 'src/posts.ts': POSTS } } });
    try {
      const stale = cartEdit('  return 0;', '  for (const price of prices) sum += price * 1;\n  return sum;');
      expect(await app.copy(stale)).toMatchObject({ ok: false, error: { code: 'NO_PROJECT_FITS' } });
      const told = app.notifications.filter((n) => n.kind === 'no-fit');
      expect(told).toHaveLength(1);
      expect(told[0]).toMatchObject({ title: 'No registered project fits this answer', body: expect.stringContaining('Closest: shop — SEARCH_NOT_FOUND'), actions: [{ kind: 'copy-reply' }] });
      expect(told[0]!.reply).toContain('The SEARCH block for src/cart.ts');
      // The reply copied back to the clipboard (to paste it to the assistant) is not an answer: the
      // prefilter drops this one, and the runtime knows every reply it offered in any case.
      const back = await app.copy(told[0]!.reply!);
      if (back !== null) expect(back).toMatchObject({ ok: false, error: { code: 'OWN_REPLY' } });
      expect(await app.host.call('applyPatch', { text: `\n${told[0]!.reply!}\r\n`, source: 'clipboard' })).toMatchObject({ ok: false, error: { code: 'OWN_REPLY' } });
      expect(app.notifications).toHaveLength(1);
      expect(readFileSync(path.join(app.roots.shop!, 'src/cart.ts'), 'utf8')).toBe(CART);
    } finally {
      await app.close();
    }
  });

  it('offers the reply when a routed answer is refused, and keeps the answer, the reply, the closest lines and the block in its run', async () => {
    const app = await startClipboardApp({ shop: { files: { 'src/cart.ts': CART } } });
    try {
      // A control block routes it; its SEARCH does not match the file.
      const text = answer([{ path: 'src/cart.ts', strategy: 'multi-search-replace', body: searchReplace('  for (const price of prices) sum += price * 2;', '  for (const price of prices) sum += price * 3;') }], { projectId: 'shop' });
      const reply = await app.copy(text);
      const settled = await app.host.runtime.waitForTask(taskOf(reply));
      expect(settled).toMatchObject({ status: 'completed', result: { patch: { status: 'rejected', error: { code: 'SEARCH_NOT_FOUND', reply: expect.stringContaining('src/cart.ts') }, answer: text } } });
      const told = app.notifications.at(-1)!;
      expect(told).toMatchObject({ kind: 'not-applied', title: 'Patch not applied — shop', actions: [{ kind: 'copy-reply', label: 'Copy reply for the assistant' }], taskId: taskOf(reply) });
      expect(told.reply).toContain('Please resend');
      await until(() => app.store.runs.byTask(taskOf(reply)) !== null, 'the run to be recorded');
      const run = await app.host.call('getRun', { runId: app.store.runs.byTask(taskOf(reply))!.id });
      expect(run.ok).toBe(true);
      const detail = (run as { value: { detail: PatchDetail } }).value.detail;
      expect(detail).toMatchObject({ kind: 'patch', state: 'rejected', answer: text, error: { code: 'SEARCH_NOT_FOUND', reply: told.reply, closest: { startLine: expect.any(Number), similarity: expect.any(Number) }, block: { format: 'relay', path: 'src/cart.ts' } } });
    } finally {
      await app.close();
    }
  });
});
