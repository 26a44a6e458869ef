import { createHash } from 'node:crypto';
import { mayBeAnswer } from './detect.js';

/** Told by an event-driven clipboard source when the clipboard changed, or that it cannot go on. */
export interface ClipboardListener {
  /** The clipboard may have changed: the watcher reads it. */
  onChange(): void;
  /** The source can no longer tell (the display went away, its helper died): the watcher stops. */
  onFailure(error: Error): void;
}

/**
 * Where clipboard text comes from: Electron's clipboard in the app, a platform source in the CLI
 * (src/engine/clipboard), a fake in tests.
 */
export interface ClipboardSource {
  read(): Promise<string> | string;
  /**
   * Event-driven sources (an X11 selection event, `wl-paste --watch`, a persistent reader) say
   * when the clipboard changes; the watcher then reads only when told and runs no timer.
   * Sources without it are polled every `intervalMs`.
   */
  subscribe?(listener: ClipboardListener): { close(): Promise<void> | void };
}

export interface ClipboardWatcherOptions {
  readonly source: ClipboardSource;
  /** Milliseconds between reads of a polled source (unused for an event-driven one). */
  readonly intervalMs: number;
  /** Text longer than this is ignored without parsing (default 2 MB). */
  readonly maxChars?: number;
  /** Called once per new clipboard text that could be an answer (detect.ts); calls never overlap (later ones queue). */
  readonly onCandidate: (text: string) => Promise<void>;
  /** Called for new text skipped by the cheap prefilter, with the reason. */
  readonly onIgnored?: (reason: 'too-large' | 'not-a-patch', size: number) => void;
  /** A read failed, or a candidate's handler threw; the watcher goes on. */
  readonly onError?: (error: unknown) => void;
  /**
   * The watcher stopped because it cannot go on: the source failed, or `maxConsecutiveErrors`
   * reads in a row failed (an error that would only repeat). Defaults to onError.
   */
  readonly onFatal?: (error: unknown) => void;
  /** After this many failed reads in a row the watcher stops with onFatal (default: never). */
  readonly maxConsecutiveErrors?: number;
  /** Whether text already on the clipboard at start is treated as new (default false). */
  readonly includeInitial?: boolean;
}

export interface ClipboardWatcher {
  /** Resolves once the first read is done (text copied after this counts as new). */
  readonly ready: Promise<void>;
  /** Resolves when the watcher has stopped, by stop() or because it could not go on. */
  readonly stopped: Promise<void>;
  stop(): Promise<void>;
  setIntervalMs(ms: number): void;
  /** Resolves when every queued candidate has been handled. */
  idle(): Promise<void>;
}

function fingerprint(text: string): string {
  return `${text.length}:${createHash('sha1').update(text).digest('hex')}`;
}

/**
 * Watches a clipboard source: reads it when told (event-driven sources) or on a timer (polled
 * ones). Unchanged text costs one read and one hash; new text passes a size limit and a cheap
 * "could this be an answer, in any format" marker scan before anyone parses it.
 */
export function startClipboardWatcher(options: ClipboardWatcherOptions): ClipboardWatcher {
  const maxChars = options.maxChars ?? 2_000_000;
  const maxErrors = options.maxConsecutiveErrors ?? Infinity;
  let interval = options.intervalMs;
  let last: string | null = null;
  let primed = options.includeInitial === true;
  let stopped = false;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;
  let queue: Promise<void> = Promise.resolve();
  let polling: Promise<void> = Promise.resolve();
  let markStopped: () => void = () => undefined;
  const stoppedPromise = new Promise<void>((resolve) => (markStopped = resolve));
  let subscription: { close(): Promise<void> | void } | null = null;

  const halt = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    if (timer) clearTimeout(timer);
    await subscription?.close();
  };
  const fatal = (error: unknown): void => {
    if (stopped) return;
    (options.onFatal ?? options.onError)?.(error);
    void halt().then(markStopped);
  };

  const poll = async (): Promise<void> => {
    let text: string;
    try {
      text = await options.source.read();
      failures = 0;
    } catch (error) {
      failures += 1;
      if (failures >= maxErrors) fatal(error);
      else options.onError?.(error);
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
    // One pass over the lines looking for any format's markers; nothing is parsed before this says "maybe".
    if (!mayBeAnswer(text)) {
      options.onIgnored?.('not-a-patch', text.length);
      return;
    }
    queue = queue.then(() => options.onCandidate(text)).catch((error: unknown) => options.onError?.(error));
  };

  let ready: Promise<void>;
  if (options.source.subscribe) {
    // Told of changes: one read at a time, and a change seen during a read asks for one more.
    let again = false;
    let reading = false;
    const readNow = (): void => {
      if (stopped) return;
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      polling = poll().finally(() => {
        reading = false;
        if (again) {
          again = false;
          readNow();
        }
      });
    };
    // Subscribed before the first read, so a change made while it runs is not missed.
    subscription = options.source.subscribe({ onChange: readNow, onFailure: fatal });
    readNow();
    ready = polling.then(() => undefined);
  } else {
    const schedule = (): void => {
      if (stopped) return;
      timer = setTimeout(() => {
        polling = poll().finally(schedule);
      }, interval);
    };
    polling = poll().finally(schedule);
    ready = polling.then(() => undefined);
  }

  return {
    ready,
    stopped: stoppedPromise,
    async stop() {
      await halt();
      await polling;
      await queue;
      markStopped();
    },
    setIntervalMs(ms: number) {
      interval = ms;
    },
    idle() {
      return queue;
    },
  };
}
