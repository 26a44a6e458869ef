import { describe, expect, it } from 'vitest';
import { startClipboardWatcher } from '../../../src/engine/patch/watcher.js';
import { until } from '../../helpers/wait.js';

const PATCH = (n: number): string => `\`\`\`ts // a.ts\n${n}\n\`\`\`\n\`\`\`yaml\nprojectId: demo\nuuid: u${n}\n\`\`\``;

function fakeClipboard(initial: string): { read: () => string; set: (t: string) => void; reads: () => number } {
  let text = initial;
  let reads = 0;
  return { read: () => ((reads += 1), text), set: (t) => (text = t), reads: () => reads };
}

/** Resolves once the watcher has read the clipboard `count` more times: it has seen what was there. */
function polls(clip: { reads: () => number }, count = 2): Promise<number> {
  const target = clip.reads() + count;
  return until(`${count} more clipboard reads`, () => clip.reads() >= target && clip.reads());
}

describe('startClipboardWatcher', () => {
  it('ignores what was on the clipboard at start and hands on new patch-like text once', async () => {
    const clip = fakeClipboard(PATCH(0));
    const seen: string[] = [];
    const watcher = startClipboardWatcher({ source: clip, intervalMs: 5, onCandidate: async (t) => void seen.push(t) });
    await watcher.ready;
    clip.set(PATCH(1));
    await until('the new patch to be handed on', () => seen.length > 0);
    // Polling goes on, and the same text is not handed on again.
    await polls(clip, 3);
    await watcher.stop();
    expect(seen).toEqual([PATCH(1)]);
  });

  it('filters text that cannot be a patch or is too large before parsing', async () => {
    const clip = fakeClipboard('');
    const ignored: string[] = [];
    const seen: string[] = [];
    const watcher = startClipboardWatcher({ source: clip, intervalMs: 5, maxChars: 200, onCandidate: async (t) => void seen.push(t), onIgnored: (why) => void ignored.push(why) });
    await watcher.ready;
    clip.set('hello world');
    await until('plain text to be ignored', () => ignored.length === 1);
    clip.set(PATCH(1) + 'x'.repeat(300));
    await until('the oversized patch to be ignored', () => ignored.length === 2);
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
    await watcher.ready;
    clip.set(PATCH(1));
    await until('the first patch to be handled', () => events.length === 1);
    clip.set(PATCH(2));
    // The watcher has read the second copy while the first is still in hand: it waits its turn.
    await polls(clip);
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
    await until('a read error to be reported', () => errors.length > 0);
    fail = false;
    text = PATCH(3);
    await until('polling to go on and hand on the patch', () => seen.length > 0);
    await watcher.stop();
    expect(seen).toEqual([PATCH(3)]);
  });
});

/** An event-driven fake: reads count, changes are announced by hand, failure on demand. */
function toldClipboard(initial: string) {
  let text = initial;
  let reads = 0;
  let listener: { onChange: () => void; onFailure: (error: Error) => void } | null = null;
  let closed = 0;
  return {
    source: {
      read: () => ((reads += 1), text),
      subscribe(next: { onChange: () => void; onFailure: (error: Error) => void }) {
        listener = next;
        return { close: () => void (closed += 1) };
      },
    },
    copy(next: string) {
      text = next;
      listener!.onChange();
    },
    fail: (error: Error) => listener!.onFailure(error),
    reads: () => reads,
    closed: () => closed,
  };
}

describe('startClipboardWatcher with a source that says when the clipboard changes', () => {
  it('reads once at start and then only when told, with no timer of its own', async () => {
    const clip = toldClipboard(PATCH(0));
    const seen: string[] = [];
    let handled: () => void = () => undefined;
    const watcher = startClipboardWatcher({ source: clip.source, intervalMs: 1, onCandidate: async (t) => (seen.push(t), handled()) });
    await watcher.ready;
    expect(clip.reads()).toBe(1);
    const first = new Promise<void>((r) => (handled = r));
    clip.copy(PATCH(1));
    await first;
    expect(seen).toEqual([PATCH(1)]);
    expect(clip.reads()).toBe(2); // no polling in between, however small the interval
    await watcher.stop();
    expect(clip.closed()).toBe(1);
  });

  it('coalesces changes announced while a read runs into one more read', async () => {
    let release: () => void = () => undefined;
    let thirdRead: () => void = () => undefined;
    const third = new Promise<void>((r) => (thirdRead = r));
    let reads = 0;
    let text = 'initial';
    let listener: { onChange: () => void } | null = null;
    const gate = new Promise<void>((r) => (release = r));
    const watcher = startClipboardWatcher({
      source: {
        read: async () => {
          reads += 1;
          if (reads === 2) await gate; // the first read after a change hangs until released
          if (reads === 3) thirdRead();
          return text;
        },
        subscribe: (next) => ((listener = next), { close: () => undefined }),
      },
      intervalMs: 1,
      onCandidate: async () => undefined,
    });
    await watcher.ready;
    text = PATCH(1);
    listener!.onChange();
    listener!.onChange();
    listener!.onChange();
    release();
    await third;
    await watcher.idle();
    await watcher.stop();
    expect(reads).toBe(3); // the start, the hung read, and one for the two changes it missed
  });

  it('stops and reports once when the source cannot go on', async () => {
    const clip = toldClipboard('');
    const fatal: unknown[] = [];
    const watcher = startClipboardWatcher({ source: clip.source, intervalMs: 1, onCandidate: async () => undefined, onFatal: (e) => void fatal.push(e) });
    await watcher.ready;
    clip.fail(new Error('the X server went away'));
    clip.fail(new Error('the X server went away'));
    await watcher.stopped;
    expect(fatal).toEqual([new Error('the X server went away')]);
    expect(clip.closed()).toBe(1);
  });
});

describe('startClipboardWatcher polling a source that keeps failing', () => {
  it('gives up after maxConsecutiveErrors failed reads in a row, with one fatal report', async () => {
    const errors: unknown[] = [];
    const fatal: unknown[] = [];
    const watcher = startClipboardWatcher({
      source: {
        read: () => {
          throw new Error('no display');
        },
      },
      intervalMs: 1,
      maxConsecutiveErrors: 5,
      onError: (e) => void errors.push(e),
      onFatal: (e) => void fatal.push(e),
      onCandidate: async () => undefined,
    });
    await watcher.stopped;
    expect(errors).toHaveLength(4);
    expect(fatal).toEqual([new Error('no display')]);
  });
});
