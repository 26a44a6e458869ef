import { createHash } from 'node:crypto';
import { looksLikePatch } from './parse.js';

/** Where clipboard text comes from: clipboardy in the CLI, Electron's clipboard in the app, a fake in tests. */
export interface ClipboardSource {
  read(): Promise<string> | string;
}

export interface ClipboardWatcherOptions {
  readonly source: ClipboardSource;
  readonly intervalMs: number;
  /** Text longer than this is ignored without parsing (default 2 MB). */
  readonly maxChars?: number;
  /** Called once per new clipboard text that could be a patch; calls never overlap (later ones queue). */
  readonly onCandidate: (text: string) => Promise<void>;
  /** Called for new text skipped by the cheap prefilter, with the reason. */
  readonly onIgnored?: (reason: 'too-large' | 'not-a-patch', size: number) => void;
  readonly onError?: (error: unknown) => void;
  /** Whether text already on the clipboard at start is treated as new (default false). */
  readonly includeInitial?: boolean;
}

export interface ClipboardWatcher {
  /** Resolves once the first read is done (text copied after this counts as new). */
  readonly ready: Promise<void>;
  stop(): Promise<void>;
  setIntervalMs(ms: number): void;
  /** Resolves when every queued candidate has been handled. */
  idle(): Promise<void>;
}

function fingerprint(text: string): string {
  return `${text.length}:${createHash('sha1').update(text).digest('hex')}`;
}

/**
 * Polls a clipboard source. Unchanged text costs one read and one hash; new text passes a
 * size limit and a cheap "could this be a patch" test before anyone parses it.
 */
export function startClipboardWatcher(options: ClipboardWatcherOptions): ClipboardWatcher {
  const maxChars = options.maxChars ?? 2_000_000;
  let interval = options.intervalMs;
  let last: string | null = null;
  let primed = options.includeInitial === true;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let queue: Promise<void> = Promise.resolve();
  let polling: Promise<void> = Promise.resolve();

  const poll = async (): Promise<void> => {
    let text: string;
    try {
      text = await options.source.read();
    } catch (error) {
      options.onError?.(error);
      return;
    }
    if (typeof text !== 'string') return;
    const print = text.length > maxChars ? `large:${text.length}:${text.slice(0, 64)}` : fingerprint(text);
    if (print === last) return;
    last = print;
    if (!primed) {
      primed = true;
      return;
    }
    if (text.length > maxChars) {
      options.onIgnored?.('too-large', text.length);
      return;
    }
    if (!looksLikePatch(text)) {
      options.onIgnored?.('not-a-patch', text.length);
      return;
    }
    queue = queue.then(() => options.onCandidate(text)).catch((error: unknown) => options.onError?.(error));
  };

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      polling = poll().finally(schedule);
    }, interval);
  };
  polling = poll().finally(schedule);
  const ready = polling.then(() => undefined);

  return {
    ready,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await polling;
      await queue;
    },
    setIntervalMs(ms: number) {
      interval = ms;
    },
    idle() {
      return queue;
    },
  };
}
