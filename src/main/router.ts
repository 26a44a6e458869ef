// The desktop app's clipboard, routed. The engine's watcher reads the clipboard only when it
// may have changed, hashes it, and runs the cheap marker scan (detect.ts) before anything is
// parsed; every text that could be an answer goes to the host's applyPatch without a project.
// Where it goes is decided once, by the runtime (engine/patch/route.ts); what the person needs to
// know (an answer that fits no project, or several) arrives as runtime events, which
// notifications.ts turns into notifications. Nothing here parses or routes.
import { startClipboardWatcher, type ClipboardSource, type ClipboardWatcher } from '../engine/patch/watcher.js';
import type { IpcReply } from '../shared/contract.js';

/** Replies of applyPatch that are routing decisions: told through events (or, by design, to nobody). */
const ROUTING_CODES: ReadonlySet<string> = new Set(['NOT_AN_ANSWER', 'NO_PROJECT_FITS', 'UNKNOWN_PROJECT', 'PROJECT_CHOICE_NEEDED', 'OWN_REPLY']);

export interface ClipboardRouterOptions {
  /** Electron's clipboard in the app (no process is spawned per read); a fake in tests. */
  readonly source: ClipboardSource;
  readonly intervalMs: number;
  /** Hands a candidate to the host: `host.call('applyPatch', { text, source: 'clipboard' })`. */
  readonly apply: (text: string) => Promise<IpcReply<unknown>>;
  /** A read failed, or the host refused for a reason that is not a routing decision (shutting down…). */
  readonly onError?: (error: unknown) => void;
  /** New text the watcher dropped without parsing: too large, or no answer's markers in it. */
  readonly onIgnored?: (reason: 'too-large' | 'not-a-patch', size: number) => void;
  /** Text longer than this is never parsed (default 2 MB). */
  readonly maxChars?: number;
}

/** Starts watching the clipboard and hands every possible answer to the runtime's routing. */
export function startClipboardRouter(options: ClipboardRouterOptions): ClipboardWatcher {
  return startClipboardWatcher({
    source: options.source,
    intervalMs: options.intervalMs,
    ...(options.maxChars !== undefined ? { maxChars: options.maxChars } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.onIgnored ? { onIgnored: options.onIgnored } : {}),
    onCandidate: async (text) => {
      const reply = await options.apply(text);
      if (!reply.ok && !ROUTING_CODES.has(reply.error.code)) options.onError?.(new Error(`${reply.error.code}: ${reply.error.message}`));
    },
  });
}
