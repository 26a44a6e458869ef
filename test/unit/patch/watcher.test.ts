import { describe, expect, it } from 'vitest';
import { startClipboardWatcher } from '../../../src/engine/patch/watcher.js';

const PATCH = (n: number): string => `\`\`\`ts // a.ts\n${n}\n\`\`\`\n\`\`\`yaml\nprojectId: demo\nuuid: u${n}\n\`\`\``;

function fakeClipboard(initial: string): { read: () => string; set: (t: string) => void; reads: () => number } {
  let text = initial;
  let reads = 0;
  return { read: () => ((reads += 1), text), set: (t) => (text = t), reads: () => reads };
}

const tick = (ms = 60): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('startClipboardWatcher', () => {
  it('ignores what was on the clipboard at start and hands on new patch-like text once', async () => {
    const clip = fakeClipboard(PATCH(0));
    const seen: string[] = [];
    const watcher = startClipboardWatcher({ source: clip, intervalMs: 5, onCandidate: async (t) => void seen.push(t) });
    await tick();
    clip.set(PATCH(1));
    await tick();
    await tick();
    await watcher.stop();
    expect(seen).toEqual([PATCH(1)]);
    expect(clip.reads()).toBeGreaterThan(3);
  });

  it('filters text that cannot be a patch or is too large before parsing', async () => {
    const clip = fakeClipboard('');
    const ignored: string[] = [];
    const seen: string[] = [];
    const watcher = startClipboardWatcher({ source: clip, intervalMs: 5, maxChars: 200, onCandidate: async (t) => void seen.push(t), onIgnored: (why) => void ignored.push(why) });
    await tick();
    clip.set('hello world');
    await tick();
    clip.set(PATCH(1) + 'x'.repeat(300));
    await tick();
    await watcher.stop();
    expect(seen).toEqual([]);
    expect(ignored).toEqual(['not-a-patch', 'too-large']);
  });

  it('queues a second patch while the first is still being handled (none lost, none interleaved)', async () => {
    const clip = fakeClipboard('');
    const events: string[] = [];
    let release: () => void = () => undefined;
    const firstDone = new Promise<void>((r) => (release = r));
    const watcher = startClipboardWatcher({
      source: clip,
      intervalMs: 5,
      onCandidate: async (t) => {
        events.push(`start ${t.includes('u1') ? 1 : 2}`);
        if (t.includes('u1')) await firstDone;
        events.push(`end ${t.includes('u1') ? 1 : 2}`);
      },
    });
    await tick();
    clip.set(PATCH(1));
    await tick();
    clip.set(PATCH(2));
    await tick();
    expect(events).toEqual(['start 1']);
    release();
    await watcher.idle();
    await watcher.stop();
    expect(events).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('reports read errors and keeps polling', async () => {
    let fail = true;
    const errors: unknown[] = [];
    const seen: string[] = [];
    let text = '';
    const watcher = startClipboardWatcher({
      source: { read: () => {
        if (fail) throw new Error('no display');
        return text;
      } },
      intervalMs: 5,
      includeInitial: true,
      onError: (e) => void errors.push(e),
      onCandidate: async (t) => void seen.push(t),
    });
    await tick();
    fail = false;
    text = PATCH(3);
    await tick();
    await watcher.stop();
    expect(errors.length).toBeGreaterThan(0);
    expect(seen).toEqual([PATCH(3)]);
  });
});
