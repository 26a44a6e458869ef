// Runs made with the CLI while the app is open (relay apply, relais run) must show up without
// a restart. Before history is listed, a project whose files of truth changed is reindexed.
// Adding or renaming a record changes its folder's mtime, so two stats per project suffice.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Store } from '../engine/store/index.js';

const FOLDERS = ['.relaycode', path.join('relais', 'history')];

function fingerprint(root: string): string {
  return FOLDERS.map((folder) => {
    try {
      return String(statSync(path.join(root, folder)).mtimeMs);
    } catch {
      return '-';
    }
  }).join('|');
}

/** Remembers each project's folder fingerprints; `refresh` reindexes the ones that changed. */
export function createFreshness(store: Store): { refresh(projectId?: string): void } {
  const seen = new Map<string, string>();
  return {
    refresh(projectId) {
      const one = projectId ? store.projects.get(projectId) : null;
      const projects = projectId ? (one ? [one] : []) : store.projects.list();
      for (const project of projects) {
        // A folder that is away (an unmounted drive) keeps its indexed history until it is back.
        if (!existsSync(project.root)) continue;
        const now = fingerprint(project.root);
        if (seen.get(project.projectId) === now) continue;
        seen.set(project.projectId, now);
        try {
          store.reindex(project);
        } catch {
          // An unreadable folder keeps its indexed history; listing must not fail for it.
        }
      }
    },
  };
}
