import { parseResponse } from '../engine/patch/parse.js';

/** A project the clipboard can route to (what the main process knows of registered projects). */
export interface RoutableProject {
  readonly id: string;
  readonly projectId: string;
  readonly root: string;
  /** Projects with watching turned off never receive clipboard patches. */
  readonly watching: boolean;
}

export type Route =
  | { readonly kind: 'project'; readonly project: RoutableProject }
  | { readonly kind: 'no-project'; readonly projectId: string }
  | { readonly kind: 'ambiguous'; readonly projectId: string; readonly projects: readonly RoutableProject[] }
  | { readonly kind: 'not-a-patch'; readonly reason: string };

/** The projectId an answer names, even when the rest of it does not parse (so errors reach the right project). */
export function namedProjectId(text: string): string | null {
  const parsed = parseResponse(text);
  if (parsed.ok) return parsed.value.control.projectId;
  const m = /^\s*["']?project_?id["']?\s*:\s*["']?([^"'\s#]+)/im.exec(text);
  return m ? m[1]! : null;
}

/** Decides which registered project a clipboard answer belongs to. */
export function routePatch(text: string, projects: readonly RoutableProject[]): Route {
  const projectId = namedProjectId(text);
  if (projectId === null) return { kind: 'not-a-patch', reason: 'no projectId in the text' };
  const matches = projects.filter((p) => p.watching && p.projectId === projectId);
  if (matches.length === 1) return { kind: 'project', project: matches[0]! };
  if (matches.length > 1) return { kind: 'ambiguous', projectId, projects: matches };
  return { kind: 'no-project', projectId };
}
