// A run's detail: read from its file of truth when it has one, else from what the app kept.
import { readFileSync } from 'node:fs';
import { HandoffDetailSchema, PatchDetailSchema, RelayDetailSchema, type RunDetail } from '../shared/contract.js';
import { ownFile } from '../engine/fs/safe-path.js';
import { HANDOFFS_DIR } from '../engine/handoff/persist.js';
import { fail, ok, type Result } from '../engine/result.js';
import { readAnswerDetail, readPatchDetail, readTickDetail, type Store, type StoredRun } from '../engine/store/index.js';
import { assertNever } from '../engine/result.js';

const PATCH_FILE = /^\.relaycode\/([A-Za-z0-9][A-Za-z0-9_-]*)(?:\.pending)?\.yml$/;
const ANSWER_FILE = /^\.relaycode\/answers\/(relay-[A-Za-z0-9-]{1,80})\.json$/;
const BRIEF_FILE = /^\.relaycode\/handoffs\/(brief-[0-9]+-[a-z0-9]+\.md)$/;
const TICK_FILE = /^relais\/history\/([A-Za-z0-9][A-Za-z0-9._-]*)\/(?:report|meta)\.json$/;

/** The run, its detail and its task's events. */
export function getRunDetail(store: Store, id: string): Result<RunDetail> {
  const stored = store.runs.get(id) ?? finalRowOfRunning(store, id);
  if (!stored) return fail('RUN_NOT_FOUND', `No run ${id} in the history (it may have been removed by a reindex).`);
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

type Detail = RunDetail['detail'];

function detailOf(run: StoredRun, root: string): { detail: Detail; error: string | null } {
  switch (run.kind) {
    case 'patch': {
      const uuid = run.origin === 'file' && run.file ? PATCH_FILE.exec(run.file)?.[1] : undefined;
      if (!uuid) return { detail: null, error: null };
      const read = readPatchDetail(root, uuid);
      return read.ok ? { detail: read.value, error: null } : { detail: null, error: read.error.message };
    }
    case 'tick': {
      const dir = run.file ? TICK_FILE.exec(run.file)?.[1] : undefined;
      if (!dir) return { detail: null, error: null };
      const read = readTickDetail(root, dir);
      return read.ok ? { detail: read.value, error: null } : { detail: null, error: read.error.message };
    }
    case 'handoff': {
      const parsed = HandoffDetailSchema.safeParse(run.detail);
      if (!parsed.success || !run.file) return { detail: null, error: null };
      // The store is input too: only a brief file in Relay Desk's own (real, unlinked) folder is read.
      const name = BRIEF_FILE.exec(run.file)?.[1];
      const where = name ? ownFile(root, HANDOFFS_DIR, name) : null;
      if (!where?.ok) return { detail: parsed.data, error: where ? where.error.message : `${run.file} is not a brief file of ${HANDOFFS_DIR}/.` };
      try {
        return { detail: { ...parsed.data, markdown: readFileSync(where.value, 'utf8') }, error: null };
      } catch (error) {
        return { detail: parsed.data, error: `The brief ${run.file} cannot be read: ${(error as Error).message}` };
      }
    }
    case 'relay':
    case 'review': {
      // What the app kept (with the usage it saw) wins; an answer asked from the CLI has only its file.
      const id = run.detail === null && run.file ? ANSWER_FILE.exec(run.file)?.[1] : undefined;
      if (!id) return { detail: null, error: null };
      const read = readAnswerDetail(root, id);
      return read.ok ? { detail: read.value, error: null } : { detail: null, error: read.error.message };
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
