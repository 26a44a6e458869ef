// What `relay watch` does, as a plain engine module: watch a clipboard source, route answers
// for this project to the transaction (route.ts with this one project: an answer in Relay
// Desk's format by its control block, one in an assistant's own format when it fits here), and
// pick up edits of relay.config.json as they are saved. The CLI only prints the events.
import { statSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE, loadRelayConfig, type RelayConfig } from './config.js';
import { existsIn, type PatchRefusal } from './check.js';
import { takeAnswer } from './incoming.js';
import { OwnReplies } from './own-replies.js';
import { routeAnswer } from './route.js';
import { applyPatch, type Decision, type PatchOutcome, type PendingReview } from './transaction.js';
import { assertNever } from '../result.js';
import { startClipboardWatcher, type ClipboardSource, type ClipboardWatcher } from './watcher.js';

/** What a watch session reports, in the order it happens. */
export type WatchEvent =
  | { readonly type: 'config-reloaded'; readonly config: RelayConfig; readonly previous: RelayConfig }
  | { readonly type: 'config-invalid'; readonly message: string }
  | { readonly type: 'foreign-answer'; readonly projectId: string; readonly expected: string }
  /**
   * Copied text that is not an answer for this project (no answer's markers, too large, or
   * nothing in it fits here): nothing was applied. The CLI says nothing about it.
   */
  | { readonly type: 'ignored'; readonly reason: 'too-large' | 'not-an-answer' | 'not-for-this-project' }
  /** An answer without a control block that is clearly for this project but does not apply: why, with the reply. */
  | { readonly type: 'near-miss'; readonly refusal: PatchRefusal }
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

/** A watcher's life cycle: ready after the first read, stopped by stop() or when the clipboard is lost. */
export type WatchSession = Pick<ClipboardWatcher, 'ready' | 'stopped' | 'stop'>;

/** What tells one version of a file from the next (mtime alone misses two saves within its resolution). */
function stampOf(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return 'missing';
  }
}

/**
 * Starts watching; answers for other projects are reported and ignored, ours are applied one at
 * a time, and text that is not an answer for this project is ignored without a word.
 */
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

  const replies = new OwnReplies();
  const watcher = startClipboardWatcher({
    source: options.source,
    intervalMs: options.intervalMs ?? config.watcher.clipboardPollInterval,
    maxConsecutiveErrors: options.maxConsecutiveErrors ?? 20,
    onError: (error) => onEvent({ type: 'clipboard-error', error }),
    onIgnored: (reason) => onEvent({ type: 'ignored', reason: reason === 'too-large' ? 'too-large' : 'not-an-answer' }),
    onFatal: (error) => onEvent({ type: 'clipboard-lost', error }),
    onCandidate: async (text) => {
      reloadIfChanged(); // an answer copied right after an edit uses the edit
      if (replies.has(text)) {
        // The reply we printed, copied to send it to the assistant.
        onEvent({ type: 'ignored', reason: 'not-an-answer' });
        return;
      }
      const answer = takeAnswer(text, { pathExists: existsIn(root), limits: { maxBytes: config.patch.maxAnswerBytes, maxLineBytes: config.patch.maxLineBytes } });
      const route = routeAnswer(answer, [{ projectId: config.projectId, root }]);
      switch (route.kind) {
        case 'project': {
          onEvent({ type: 'answer', chars: text.length });
          const outcome = await applyPatch({ root, answer, source: 'clipboard', config, decide: options.decide });
          if (outcome.status === 'rejected') replies.remember(outcome.error.reply);
          onEvent({ type: 'outcome', outcome });
          return;
        }
        case 'unknown-project':
          onEvent({ type: 'foreign-answer', projectId: route.projectId, expected: config.projectId });
          return;
        case 'no-fit':
          replies.remember(route.refusal.reply);
          onEvent({ type: 'near-miss', refusal: route.refusal });
          return;
        case 'choose': // one project: it fits or it does not
        case 'ignored': // not an answer, or nothing in it is for this project
          onEvent({ type: 'ignored', reason: route.kind === 'ignored' && answer.read.ok ? 'not-for-this-project' : 'not-an-answer' });
          return;
        default:
          assertNever(route);
      }
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
