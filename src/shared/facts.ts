// Facts the engine, the host and the window must agree on, in one place. Plain constants and
// functions without zod: the renderer loads this at run time (zod's JIT probe trips the window's
// no-eval CSP), and the engine imports the same values, so there is never a second copy.

/** Exhaustiveness check for switches over closed unions: the compiler proves every case is handled. */
export function assertNever(value: never): never {
  throw new Error(`Unexpected value: ${JSON.stringify(value)}`);
}

/** The backends "Ask a friend" ships with (src/engine/relay/backends). */
export const BACKEND_NAMES = ['codex', 'gemini', 'claude', 'ollama'] as const;
export type BackendName = (typeof BACKEND_NAMES)[number];

/** Largest context (file or text) a relay sends to a backend, in UTF-8 bytes. */
export const MAX_CONTEXT_FILE_BYTES = 200_000;
/** Largest git diff a relay sends to a backend, in UTF-8 bytes. */
export const MAX_DIFF_BYTES = 300_000;
/** Largest whole prompt envelope a relay sends to a backend, in UTF-8 bytes. */
export const MAX_PROMPT_BYTES = 500_000;

/** What a history row can be: the kinds of run the store indexes. */
export const RUN_KINDS = ['patch', 'tick', 'relay', 'review', 'handoff'] as const;
export type RunKind = (typeof RUN_KINDS)[number];
/** Where a run stands. */
export const RUN_STATUSES = ['running', 'waiting', 'done', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** A history row's id: the project, the run kind and the key its file of truth uses (a patch links to its revert by it). */
export function runId(projectId: string, kind: RunKind, key: string): string {
  return `${projectId}:${kind}:${key}`;
}

/** What a projectId may be: letters, digits, ".", "_" and "-", at most 200 (relay.config.json, the store). */
export const PROJECT_ID_PATTERN = /^[\w.-]{1,200}$/;
