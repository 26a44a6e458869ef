// `relay ui` opens on the project it was started in, as `code .` does: `relay ui <folder>` adds
// that folder (initialising it like the window's register form would) and opens on it; plain
// `relay ui` inside a project (relay.config.json or relais.config.json here or above) adds it
// when it is not registered yet. Elsewhere it opens on History, as before.
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { Host } from '../host/index.js';
import { findProject } from './project.js';

/** The project the window opens on, what to print about it, or why the folder could not be added. */
export type UiProject = { readonly projectId: string; readonly root: string; readonly added: boolean } | { readonly problem: string } | null;

/** Registers (when needed) the project `relay ui` was started in or pointed at. */
export async function uiProject(host: Host, options: { readonly folder?: string; readonly start: string }): Promise<UiProject> {
  const root = options.folder !== undefined ? path.resolve(options.start, options.folder) : findProject(options.start, true);
  if (root === null) return null;
  const known = existsSync(root) ? host.store.projects.getByRoot(realpathSync(root)) : null;
  const registered = await host.call('registerProject', { root });
  if (!registered.ok) return { problem: `${root} was not added as a project: ${registered.error.code}: ${registered.error.message}` };
  return { projectId: registered.value.projectId, root: registered.value.root, added: known === null };
}
