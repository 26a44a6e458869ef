import { startClipboardWatcher, type ClipboardSource, type ClipboardWatcher } from '../engine/patch/watcher.js';
import { routePatch, type RoutableProject, type Route } from './router.js';

export interface ClipboardServiceOptions {
  /** Electron's clipboard in the app (no process is spawned per poll); a fake in tests. */
  readonly source: ClipboardSource;
  readonly intervalMs: number;
  /** The registered projects as they are now. */
  readonly projects: () => readonly RoutableProject[];
  /** Hands a routed answer to the runtime (ApplyPatch for that project). */
  readonly apply: (text: string, project: RoutableProject) => Promise<void>;
  /** Tells the user an answer matched no project (or two). */
  readonly unrouted: (route: Exclude<Route, { kind: 'project' }>) => void;
  readonly onError?: (error: unknown) => void;
  /** Text longer than this is never parsed (default 2 MB). */
  readonly maxChars?: number;
}

/**
 * The app's clipboard watcher: the engine's poller (hash compare, size limit, cheap prefilter)
 * plus routing by projectId to a registered, watching project.
 */
export function startClipboardService(options: ClipboardServiceOptions): ClipboardWatcher {
  return startClipboardWatcher({
    source: options.source,
    intervalMs: options.intervalMs,
    ...(options.maxChars !== undefined ? { maxChars: options.maxChars } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    onCandidate: async (text) => {
      const route = routePatch(text, options.projects());
      if (route.kind === 'project') await options.apply(text, route.project);
      else if (route.kind !== 'not-a-patch') options.unrouted(route);
    },
  });
}
