// Hash routes. The built window is served from a file (Electron) or from `relay ui` with
// relative asset paths, so every route lives after the `#`: a reload never asks the server
// for a deep path. Pure parse/format pairs, tested both ways.
import { assertNever, isRunKind, isRunStatus } from '../lib/badges';
import type { RunFilter } from '../data/query-keys';

export type Route =
  | { readonly name: 'history'; readonly filter: RunFilter }
  | { readonly name: 'run'; readonly runId: string }
  | { readonly name: 'projects' }
  | { readonly name: 'settings' }
  | { readonly name: 'paste'; readonly projectId: string | null }
  | { readonly name: 'ask'; readonly projectId: string; readonly runId: string | null; readonly mode: 'ask' | 'review' }
  | { readonly name: 'handoff'; readonly projectId: string }
  | { readonly name: 'not-found'; readonly path: string };

function decode(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** Reads `#/runs/abc?x=1` (or an empty hash, which is History). */
export function parseRoute(hash: string): Route {
  const raw = hash.replace(/^#/, '');
  const [pathPart = '', query = ''] = raw.split('?', 2);
  const params = new URLSearchParams(query);
  const segments = pathPart.split('/').filter(Boolean).map(decode);
  if (segments.some((s) => s === null)) return { name: 'not-found', path: pathPart };
  const [first, second, third] = segments as string[];
  if (segments.length === 0 || (first === 'history' && segments.length === 1)) {
    const kind = params.get('kind');
    const status = params.get('status');
    const project = params.get('project');
    return {
      name: 'history',
      filter: {
        ...(project ? { projectId: project } : {}),
        ...(isRunKind(kind) ? { kind } : {}),
        ...(isRunStatus(status) ? { status } : {}),
      },
    };
  }
  if (first === 'runs' && second && segments.length === 2) return { name: 'run', runId: second };
  if (first === 'projects' && segments.length === 1) return { name: 'projects' };
  if (first === 'settings' && segments.length === 1) return { name: 'settings' };
  if (first === 'paste' && segments.length === 1) return { name: 'paste', projectId: params.get('project') || null };
  if (first === 'projects' && second && (third === 'ask' || third === 'review') && segments.length === 3) {
    return { name: 'ask', projectId: second, runId: params.get('run') || null, mode: third };
  }
  if (first === 'projects' && second && third === 'handoff' && segments.length === 3) return { name: 'handoff', projectId: second };
  return { name: 'not-found', path: pathPart };
}

function withQuery(path: string, params: Record<string, string | undefined | null>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** The hash (with `#`) for a route. */
export function formatRoute(route: Route): string {
  switch (route.name) {
    case 'history':
      return `#${withQuery('/history', { project: route.filter.projectId, kind: route.filter.kind, status: route.filter.status })}`;
    case 'run':
      return `#/runs/${encodeURIComponent(route.runId)}`;
    case 'projects':
      return '#/projects';
    case 'settings':
      return '#/settings';
    case 'paste':
      return `#${withQuery('/paste', { project: route.projectId })}`;
    case 'ask':
      return `#${withQuery(`/projects/${encodeURIComponent(route.projectId)}/${route.mode}`, { run: route.runId })}`;
    case 'handoff':
      return `#/projects/${encodeURIComponent(route.projectId)}/handoff`;
    case 'not-found':
      return `#${route.path}`;
    default:
      return assertNever(route);
  }
}

/** Link helpers, so views never build hashes by hand. */
export const href = {
  history: (filter: RunFilter = {}) => formatRoute({ name: 'history', filter }),
  run: (runId: string) => formatRoute({ name: 'run', runId }),
  projects: () => formatRoute({ name: 'projects' }),
  settings: () => formatRoute({ name: 'settings' }),
  paste: (projectId: string | null = null) => formatRoute({ name: 'paste', projectId }),
  ask: (projectId: string, runId: string | null = null) => formatRoute({ name: 'ask', projectId, runId, mode: 'ask' }),
  review: (projectId: string) => formatRoute({ name: 'ask', projectId, runId: null, mode: 'review' }),
  handoff: (projectId: string) => formatRoute({ name: 'handoff', projectId }),
};
