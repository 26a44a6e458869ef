// Live history: every registered project's files of truth are watched (project-watch.ts) from
// the moment it is registered until it is removed or the host closes, and what changed is handed
// to the recorder, which indexes it and announces it. Registration and removal are followed
// through the runtime's own events, so no caller has to remember to start or stop a watcher.
import type { Runtime } from '../engine/runtime/index.js';
import type { Store } from '../engine/store/index.js';
import { watchProject, type ProjectWatcher, type ProjectWatchOptions } from './project-watch.js';
import type { Recorder } from './recorder.js';

export interface LiveHistory {
  /** The projects watched now, with the folders watched for each. */
  watching(): Record<string, string[]>;
  /** Stops every watcher. */
  close(): void;
}

/** Watches every project the runtime registers (held registrations included) and feeds the recorder. */
export function startLiveHistory(options: { readonly runtime: Runtime; readonly store: Store; readonly recorder: Pick<Recorder, 'indexChanged' | 'reindex'>; readonly watch?: ProjectWatchOptions; readonly onError?: (error: unknown) => void }): LiveHistory {
  const { runtime, store, recorder } = options;
  const watchers = new Map<string, { root: string; watcher: ProjectWatcher }>();
  let closed = false;

  /** The project as the store has it now: a change is recorded only for a project still registered at that folder. */
  const current = (projectId: string, root: string) => {
    const project = store.projects.get(projectId);
    return project && project.root === root ? project : null;
  };

  const start = (projectId: string, root: string): void => {
    const running = watchers.get(projectId);
    if (running?.root === root) return;
    running?.watcher.close();
    const watcher = watchProject(
      { projectId, root },
      {
        onChanges: (changes) => {
          const project = current(projectId, root);
          if (project) recorder.indexChanged(project, changes);
        },
        onReindex: () => {
          const project = current(projectId, root);
          if (project) recorder.reindex(project);
        },
        ...(options.onError ? { onError: options.onError } : {}),
      },
      options.watch,
    );
    watchers.set(projectId, { root, watcher });
  };

  const stop = (projectId: string): void => {
    watchers.get(projectId)?.watcher.close();
    watchers.delete(projectId);
  };

  const unsubscribe = runtime.subscribe(({ event }) => {
    if (closed) return;
    if (event.type === 'project.registered') start(event.projectId, event.root);
    else if (event.type === 'project.removed') stop(event.projectId);
  }, 0);

  return {
    watching: () => Object.fromEntries([...watchers].map(([projectId, { watcher }]) => [projectId, watcher.folders()])),
    close: () => {
      closed = true;
      unsubscribe();
      for (const projectId of [...watchers.keys()]) stop(projectId);
    },
  };
}
