// A history row as the files of truth give it. The store indexes these; the recorder adds the
// rows only the app knows. Ids are `<projectId>:<kind>:<key>`, the key being what names the file
// of truth (a transaction uuid, a tick's run folder, an answer id, a brief id).
import type { Run } from '../../shared/contract.js';
import type { RunKind } from '../../shared/schemas.js';

/** A run read from a file of truth: no task of this app, no detail of its own (it is read from the file). */
export type IndexedRun = Run & { readonly origin: 'file'; readonly taskId: null; readonly detail: null };

export { runId } from '../../shared/facts.js';

/** The parts of a run id (projects ids, kinds and keys never hold a colon), or null for another string. */
export function parseRunId(id: string): { readonly projectId: string; readonly kind: RunKind; readonly key: string } | null {
  const match = /^([^:]+):(patch|tick|relay|review|handoff):([^:]+)$/.exec(id);
  return match ? { projectId: match[1]!, kind: match[2] as RunKind, key: match[3]! } : null;
}
