// Every react-query key in one place. Keys are arrays whose first element names the table (or
// host state) they read, so an event can invalidate "everything that reads runs" by prefix.
import type { RunKind, RunStatus } from '../../shared/schemas.js';

export interface RunFilter {
  readonly projectId?: string;
  readonly kind?: RunKind;
  readonly status?: RunStatus;
}

export const queryKeys = {
  projects: () => ['projects'] as const,
  runs: (filter: RunFilter) => ['runs', filter] as const,
  /** Runs of one task (to link a finished task to its history row). */
  runsOfProject: (projectId: string, kind: RunKind) => ['runs', { projectId, kind }, 'recent'] as const,
  run: (runId: string) => ['run', runId] as const,
  runtime: () => ['runtime'] as const,
  appSettings: () => ['appSettings'] as const,
  systemPrompt: (projectId: string) => ['systemPrompt', projectId] as const,
  handoffPreview: (projectId: string, target: string | null) => ['handoffPreview', projectId, target] as const,
  tickPreview: (projectId: string) => ['tickPreview', projectId] as const,
  hostInfo: () => ['hostInfo'] as const,
  checkFolder: (path: string) => ['checkFolder', path] as const,
} as const;

/** The first element of every key: what a query reads. */
export type QueryRoot = 'projects' | 'runs' | 'run' | 'runtime' | 'appSettings' | 'systemPrompt' | 'handoffPreview' | 'tickPreview' | 'hostInfo' | 'checkFolder';

/** A key prefix to invalidate: a whole root, or a root narrowed to one project. */
export type QueryPrefix = readonly [QueryRoot] | readonly ['handoffPreview', string];
