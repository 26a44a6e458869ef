// What `relay watch` does, as a plain engine module: watch a clipboard source, route answers
// for this project to the transaction, and pick up edits of relay.config.json as they are
// saved. The CLI only prints the events.
import { statSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, loadRelayConfig, type RelayConfig } from './config.js';
import { parseResponse } from './parse.js';
import { applyPatch, type Decision, type PatchOutcome, type PendingReview } from './transaction.js';
import { startClipboardWatcher, type ClipboardSource } from './watcher.js';

/** What a watch session reports, in the order it happens. */
export type WatchEvent =
  | { readonly type: 'config-reloaded'; readonly config: RelayConfig; readonly previous: RelayConfig }
  | { readonly type: 'config-invalid'; readonly message: string }
  | { readonly type: 'foreign-answer'; readonly projectId: string; readonly expected: string }
  | { readonly type: 'answer'; readonly chars: number }
  | { readonly type: 'outcome'; readonly outcome: PatchOutcome }
  | { readonly type: 'clipboard-error'; readonly error: unknown }
  /** The session stopped by itself: the clipboard cannot be watched any more. */
  | { readonly type: 'clipboard-lost'; readonly error: unknown };

export interface WatchSessionOptions {
  readonly root: string;
  readonly config: RelayConfig;
  readonly source: ClipboardSource;
  /** A polled source's interval; null follows watcher.clipboardPollInterval of the config. */
  readonly intervalMs: number | null;
  readonly decide: (review: PendingReview) => Promise<Decision>;
  readonly onEvent: (event: WatchEvent) => void;
  /** How often relay.config.json is checked for edits (default 500 ms). */
  readonly configPollMs?: number;
  /** Failed reads in a row after which a polled source counts as lost (default 20). */
  readonly maxConsecutiveErrors?: number;
}

export interface WatchSession {
  /** Resolves when the first clipboard read is done: text copied after it counts as new. */
  readonly ready: Promise<void>;
  /** Resolves when the session has stopped (stop(), or the clipboard was lost). */
  readonly stopped: Promise<void>;
  stop(): Promise<void>;
}

/** What tells one version of a file from the next (mtime alone misses two saves within its resolution). */
function stampOf(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return 'missing';
  }
}

/** Starts watching; answers for other projects are reported and ignored, ours are applied one at a time. */
export function startWatchSession(options: WatchSessionOptions): WatchSession {
  const { root, onEvent } = options;
  const configFile = path.join(root, CONFIG_FILE);
  let config = options.config;
  let configStamp = stampOf(configFile);

  /** Reloads relay.config.json when it changed (core.watchConfig); a broken edit keeps the last good settings. */
  const reloadIfChanged = (): void => {
    if (!config.core.watchConfig) return;
    const stamp = stampOf(configFile);
    if (stamp === configStamp) return;
    configStamp = stamp;
    const reloaded = loadRelayConfig(root);
    if (!reloaded.ok) {
      onEvent({ type: 'config-invalid', message: reloaded.error.message });
      return;
    }
    const previous = config;
    config = reloaded.value;
    onEvent({ type: 'config-reloaded', config, previous });
    if (options.intervalMs === null && config.watcher.clipboardPollInterval !== previous.watcher.clipboardPollInterval) watcher.setIntervalMs(config.watcher.clipboardPollInterval);
  };

  const watcher = startClipboardWatcher({
    source: options.source,
    intervalMs: options.intervalMs ?? config.watcher.clipboardPollInterval,
    maxConsecutiveErrors: options.maxConsecutiveErrors ?? 20,
    onError: (error) => onEvent({ type: 'clipboard-error', error }),
    onFatal: (error) => onEvent({ type: 'clipboard-lost', error }),
    onCandidate: async (text) => {
      reloadIfChanged(); // an answer copied right after an edit uses the edit
      const parsed = parseResponse(text);
      if (parsed.ok && parsed.value.control.projectId !== config.projectId) {
        onEvent({ type: 'foreign-answer', projectId: parsed.value.control.projectId, expected: config.projectId });
        return;
      }
      onEvent({ type: 'answer', chars: text.length });
      const outcome = await applyPatch({ root, text, source: 'clipboard', config, decide: options.decide });
      onEvent({ type: 'outcome', outcome });
    },
  });
  // The config is also checked on its own clock, so an edit is picked up (and said) when it is saved.
  const configTimer = setInterval(reloadIfChanged, options.configPollMs ?? 500);
  const stopped = watcher.stopped.then(() => clearInterval(configTimer));

  return {
    ready: watcher.ready,
    stopped,
    async stop() {
      clearInterval(configTimer);
      await watcher.stop();
    },
  };
}
