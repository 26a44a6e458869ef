// History row ids, as the store makes them (src/engine/store/runs.ts `runId`): the project,
// the run kind and the key its file of truth uses. Used to link a patch to its revert.
import type { RunKind } from '../../shared/schemas.js';

export function runIdOf(projectId: string, kind: RunKind, key: string): string {
  return `${projectId}:${kind}:${key}`;
}
