// A run's detail: read from its file of truth (through engine/records) when it has one, else from
// what the app kept. A run whose file exists but is not indexed yet (a deep link opened the moment
// a CLI made it) is read straight from the file — without writing the store: no read path writes.
import { HandoffDetailSchema, PatchDetailSchema, RelayDetailSchema, type RunDetail } from '../shared/contract.js';
import { parseRunId, readRunById, readRunDetail } from '../engine/records/index.js';
import { assertNever, fail, ok, type Result } from '../engine/result.js';
import type { Store, StoredRun } from '../engine/store/index.js';

/** The run, its detail and its task's events. */
export function getRunDetail(store: Store, id: string): Result<RunDetail> {
  const stored = store.runs.get(id) ?? finalRowOfRunning(store, id) ?? notIndexedYet(store, id);
  if (!stored) return fail('RUN_NOT_FOUND', `No run ${id} in the history or in its project's files (it may have been removed).`);
  const { detail: kept, ...run } = stored;
  const events = run.taskId ? store.events.forTask(run.taskId) : [];
  const project = store.projects.get(run.projectId);
  const read = project ? detailOf(stored, project.root) : { detail: null, error: `Project ${run.projectId} is not registered.` };
  return ok({ run, detail: read.detail ?? fromKept(stored.kind, kept), detailError: read.error, events });
}

/** A task's "running" row is replaced when it ends: a window still showing that row gets the final one. */
function finalRowOfRunning(store: Store, id: string): StoredRun | null {
  const taskId = RUNNING_ROW.exec(id)?.[1];
  return taskId ? store.runs.byTask(taskId) : null;
}

const RUNNING_ROW = /:task-([^:]+)$/;

/** The row of a run whose file of truth exists but which the recorder has not indexed yet. */
function notIndexedYet(store: Store, id: string): StoredRun | null {
  const parsed = parseRunId(id);
  const project = parsed ? store.projects.get(parsed.projectId) : null;
  return project ? readRunById(project, id) : null;
}

type Detail = RunDetail['detail'];

function fromFile(run: StoredRun, root: string, key: string): { detail: Detail; error: string | null } {
  const read = readRunDetail(root, run.kind, key);
  return read.ok ? { detail: read.value, error: null } : { detail: null, error: read.error.message };
}

function detailOf(run: StoredRun, root: string): { detail: Detail; error: string | null } {
  const key = parseRunId(run.id)?.key;
  const indexed = run.origin === 'file' && key !== undefined;
  switch (run.kind) {
    case 'patch':
    case 'tick':
      return indexed ? fromFile(run, root, key) : { detail: null, error: null };
    case 'relay':
    case 'review':
      // What the app kept (with the usage it saw) wins; an answer asked from the CLI has only its file.
      return indexed && run.detail === null ? fromFile(run, root, key) : { detail: null, error: null };
    case 'handoff': {
      const kept = HandoffDetailSchema.safeParse(run.detail);
      const briefId = kept.success ? kept.data.briefId : indexed ? key : null;
      if (!briefId) return { detail: null, error: null };
      const read = fromFile(run, root, briefId);
      if (!read.detail || read.detail.kind !== 'handoff') return { detail: kept.success ? kept.data : null, error: read.error };
      // The brief as written, with what the app saw while writing it (its warnings).
      return { detail: kept.success ? { ...kept.data, markdown: read.detail.markdown } : read.detail, error: null };
    }
    default:
      return assertNever(run.kind);
  }
}

/** Detail the app stored itself, if it still has the shape this build expects. */
function fromKept(kind: StoredRun['kind'], kept: unknown): Detail {
  if (kept === null || kept === undefined) return null;
  const schema = kind === 'patch' ? PatchDetailSchema : kind === 'handoff' ? HandoffDetailSchema : kind === 'relay' || kind === 'review' ? RelayDetailSchema : null;
  const parsed = schema?.safeParse(kept);
  return parsed?.success ? parsed.data : null;
}
