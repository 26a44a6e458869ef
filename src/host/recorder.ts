// The one writer of history rows. It turns the runtime's events into rows (every event into the
// event log, one row per task: "running" from its start, then its final row), indexes the files
// of truth a task wrote or another process changed (through engine/records), rebuilds a project
// from its files on demand — and announces every write as a `runs.changed` event, so an open
// window learns of it whoever made the run. No other code writes the runs table while the app runs.
import type { ReindexSummary } from '../shared/contract.js';
import { MAX_CHANGED_RUN_IDS, type EventEnvelope, type RuntimeEvent } from '../shared/events.js';
import type { FailureData, PatchResult, PatchReview, RunKind, RunStatus, TaskKind, TaskResult } from '../shared/schemas.js';
import { hasCommitted, rolledBackRecord, unrecordedPatchDetail, type ProjectRef, type RecordKind } from '../engine/records/index.js';
import { assertNever } from '../engine/result.js';
import type { Runtime } from '../engine/runtime/index.js';
import { runId, type Store, type StoredRun } from '../engine/store/index.js';

/** A record that changed on disk: its kind and the key naming it (a uuid, a run id, an answer or brief id). */
export interface ChangedRecord {
  readonly kind: RecordKind;
  readonly key: string;
}

export interface Recorder {
  /** Rebuilds a project's rows from its files of truth, and announces it (a `runs.changed` for the whole project). */
  reindex(project: ProjectRef): ReindexSummary;
  /**
   * Indexes records that changed on disk (written by another process, or by this one outside a
   * task) and announces the rows written; a transaction crash recovery rolled back is announced
   * once more as `runs.rolled-back`, the first time its row is seen so.
   */
  indexChanged(project: ProjectRef, changed: readonly ChangedRecord[]): void;
  /** Writes buffered events now. */
  flush(): void;
  /** Stops listening (after a last flush). */
  detach(): void;
}

/** What a task was asked: the prompt and backend of an ask or review, the text of an answer. */
export interface TaskRequest {
  readonly prompt?: string;
  readonly backend?: string;
  readonly answer?: string;
}

interface TaskNotes {
  kind: TaskKind;
  projectId: string;
  title: string;
  startedAt: number;
  review?: PatchReview;
  request: { readonly prompt?: string; readonly backend?: string };
}

// Streamed agent output is kept in the run's answer; storing every chunk would only bloat the log.
// Which rows changed is derived from the writes themselves and announced again at every start.
const NOT_LOGGED = new Set<RuntimeEvent['type']>(['relay.output', 'runs.changed']);

/** Subscribes to the runtime (from its first held event) and records into the store. */
export function attachRecorder(options: { readonly runtime: Runtime; readonly store: Store; readonly clock?: () => number; readonly onError?: (error: unknown) => void }): Recorder {
  const { runtime, store } = options;
  const clock = options.clock ?? Date.now;
  const onError = options.onError ?? ((error: unknown) => console.error('Relay Desk could not record an event:', error));
  const tasks = new Map<string, TaskNotes>();
  let buffer: EventEnvelope[] = [];
  let scheduled = false;

  // No task of this process has started yet: "running" rows are of a process that ended mid-task.
  store.runs.markInterrupted(new Date(clock()).toISOString());

  const announce = (projectId: string, ids: ReadonlySet<string> | 'all'): void => {
    if (ids !== 'all' && ids.size === 0) return;
    const all = ids === 'all' || ids.size > MAX_CHANGED_RUN_IDS;
    const sent = runtime.send({ type: 'Announce', event: { type: 'runs.changed', projectId, runIds: all ? [] : [...ids], all } });
    // A runtime that is shutting down tells no one; the rows are written all the same.
    if (!sent.ok && sent.error.code !== 'RUNTIME_STOPPED') onError(new Error(sent.error.message));
  };

  /** Indexes records into `changed` (ids written or dropped); with `notify`, a newly rolled-back transaction is announced. */
  const indexRecords = (project: ProjectRef, records: readonly ChangedRecord[], changed: Set<string>, notify: boolean, taskId: string | null = null): void => {
    for (const { kind, key } of records) {
      const before = kind === 'transaction' ? store.runs.get(runId(project.projectId, 'patch', key)) : null;
      const indexed = store.indexRecord(project, kind, key, taskId);
      for (const run of indexed.written) changed.add(run.id);
      for (const id of indexed.removed) changed.add(id);
      const primary = indexed.written[0];
      if (notify && kind === 'transaction' && primary?.verdict === 'rolled-back' && before?.verdict !== 'rolled-back') {
        const sent = runtime.send({ type: 'Announce', event: { type: 'runs.rolled-back', projectId: project.projectId, uuid: key, runId: primary.id, title: primary.title, restored: [...(rolledBackRecord(project.root, key)?.recovered?.restored ?? [])] } });
        if (!sent.ok && sent.error.code !== 'RUNTIME_STOPPED') onError(new Error(sent.error.message));
      }
    }
  };

  const flush = (): void => {
    scheduled = false;
    if (buffer.length === 0) return;
    const batch = buffer;
    buffer = [];
    try {
      store.events.append(batch);
    } catch (error) {
      onError(error);
    }
  };

  const track = ({ ts, event }: EventEnvelope): void => {
    switch (event.type) {
      case 'task.queued': {
        const request = { ...(event.prompt !== undefined ? { prompt: event.prompt } : {}), ...(event.backend !== undefined ? { backend: event.backend } : {}) };
        tasks.set(event.taskId, { kind: event.kind, projectId: event.projectId, title: event.title, startedAt: ts, request });
        return;
      }
      case 'task.started': {
        const task = tasks.get(event.taskId);
        if (!task) return;
        task.startedAt = ts;
        // Committing a tick is an action on that tick's run, not a run of its own.
        if (task.kind !== 'commit' && recordRunning(store, event.taskId, task)) announce(task.projectId, new Set([runningRowId(task.projectId, task.kind, event.taskId)]));
        return;
      }
      case 'task.waiting-approval': {
        const task = tasks.get(event.taskId);
        if (task) task.review = event.review;
        const project = store.projects.get(event.projectId);
        if (!project) return;
        const changed = new Set<string>();
        // The pending transaction record is the row now.
        store.transaction(() => {
          indexRecords(project, [{ kind: 'transaction', key: event.review.uuid }], changed, false, event.taskId);
          const running = runningRowId(project.projectId, task?.kind ?? 'patch', event.taskId);
          if (changed.size > 0 && store.runs.remove(running)) changed.add(running);
        });
        announce(project.projectId, changed);
        return;
      }
      case 'task.completed':
      case 'task.failed': {
        const task = tasks.get(event.taskId);
        tasks.delete(event.taskId);
        if (!task) return;
        const error = event.type === 'task.failed' ? event.error : null;
        const changed = new Set<string>();
        // One transaction: a reader never sees the task with no row, or with two.
        store.transaction(() => {
          const running = runningRowId(task.projectId, task.kind, event.taskId);
          if (store.runs.remove(running)) changed.add(running);
          for (const id of recordRun(event.taskId, task, ts, event.result, error)) changed.add(id);
        });
        announce(task.projectId, changed);
        return;
      }
      case 'patch.recovered': {
        // A task's own recovery rolled back what a dead process left: that is a run of its own.
        const project = store.projects.get(event.projectId);
        if (project) indexAndAnnounce(project, [{ kind: 'transaction', key: event.uuid }]);
        return;
      }
      default:
        return;
    }
  };

  const indexAndAnnounce = (project: ProjectRef, records: readonly ChangedRecord[]): void => {
    const changed = new Set<string>();
    store.transaction(() => indexRecords(project, records, changed, true));
    announce(project.projectId, changed);
  };

  /** Writes the history row of a finished task; returns the ids written. */
  const recordRun = (taskId: string, task: TaskNotes, endedTs: number, result: TaskResult | null, error: FailureData | null): string[] => {
    const project = store.projects.get(task.projectId);
    if (!project) return []; // removed while its task ran: nothing to attach the run to
    const kind = runKindOf(task.kind);
    const written: string[] = [];
    const base = { projectId: project.projectId, kind, title: task.title, startedAt: new Date(task.startedAt).toISOString(), endedAt: new Date(endedTs).toISOString(), origin: 'app' as const, taskId };
    const appRun = (key: string, status: RunStatus, rest: Pick<StoredRun, 'verdict' | 'code' | 'summary' | 'detail'> & { file?: string | null }): void => {
      const id = runId(project.projectId, kind, key);
      store.runs.upsert({ ...base, id, status, ...rest, file: rest.file ?? null });
      written.push(id);
    };
    const index = (recordKind: RecordKind, key: string, link: string | null = taskId): boolean => {
      const changed = new Set<string>();
      indexRecords(project, [{ kind: recordKind, key }], changed, false, link);
      written.push(...changed);
      return changed.size > 0 && store.runs.get(runId(project.projectId, kind, key)) !== null;
    };

    // A refused commit leaves the tick's row as it was (the refusal is in the event log and the window's notice).
    if (task.kind === 'commit' && result?.kind !== 'commit') return written;
    if (!result) {
      appRun(`task-${taskId}`, failedStatus(error), { verdict: null, code: error?.code ?? null, summary: error?.message ?? '', detail: failureDetail(task, error) });
      return written;
    }
    switch (result.kind) {
      case 'patch':
      case 'revert': {
        const { patch } = result;
        if (patch.status === 'applied' && patch.uuid && index('transaction', patch.uuid)) return written;
        // Not committed, so no file of truth: keep what the person saw. A uuid that names a
        // committed record (a duplicate, a reused id) must not overwrite that record's row.
        const ownUuid = patch.status !== 'skipped' && patch.uuid !== null && !hasCommitted(project.root, patch.uuid);
        appRun(ownUuid ? patch.uuid! : `task-${taskId}`, error ? failedStatus(error) : 'done', patchRow(task, patch, error));
        return written;
      }
      case 'tick': {
        if (index('tick', result.tick.runId)) return written;
        appRun(result.tick.runId, 'done', { verdict: result.tick.verdict, code: result.tick.code, summary: result.tick.summary, detail: null });
        return written;
      }
      case 'ask':
      case 'review': {
        const { relay } = result;
        appRun(relay.runId, error ? failedStatus(error) : 'done', {
          verdict: null,
          code: error?.code ?? null,
          summary: relay.text.trim().split('\n')[0]?.slice(0, 200) ?? '',
          detail: { kind: result.kind === 'ask' ? 'relay' : 'review', backend: relay.backend, prompt: task.request.prompt ?? null, text: relay.text, usage: relay.usage, error },
        });
        return written;
      }
      case 'commit': {
        // commit.json now sits beside the tick's report: index the tick's row again (it keeps its own task).
        index('tick', result.commit.runId, null);
        return written;
      }
      case 'handoff': {
        const { handoff } = result;
        appRun(handoff.briefId, 'done', {
          verdict: null,
          code: null,
          summary: handoff.path,
          file: handoff.path,
          detail: { kind: 'handoff', briefId: handoff.briefId, path: handoff.path, markdown: null, warnings: [...handoff.warnings], error: null },
        });
        // The brief is a file of truth too: its row is indexed from it (keeping the warnings the app saw).
        index('handoff', handoff.briefId);
        return written;
      }
      default:
        return assertNever(result);
    }
  };

  const handle = (envelope: EventEnvelope): void => {
    const { event } = envelope;
    if (!NOT_LOGGED.has(event.type)) {
      buffer.push(envelope);
      // A burst of events becomes one transaction on the next turn.
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    }
    try {
      track(envelope);
    } catch (error) {
      onError(error);
    }
    if (event.type === 'lifecycle.stopped') flush();
  };

  const unsubscribe = runtime.subscribe(handle, 0);
  return {
    reindex: (project) => {
      const summary = store.reindex(project);
      announce(project.projectId, 'all');
      return summary;
    },
    indexChanged: (project, changed) => {
      try {
        indexAndAnnounce(project, changed);
      } catch (error) {
        onError(error);
      }
    },
    flush,
    detach: () => {
      unsubscribe();
      flush();
    },
  };
}

function runKindOf(kind: TaskKind): RunKind {
  switch (kind) {
    case 'patch':
    case 'revert':
      return 'patch';
    case 'tick':
    case 'commit':
      return 'tick';
    case 'ask':
      return 'relay';
    case 'review':
      return 'review';
    case 'handoff':
      return 'handoff';
    default:
      return assertNever(kind);
  }
}

/** The id of a task's row while it runs (also the id of its final row when it ends with no result). */
function runningRowId(projectId: string, kind: TaskKind, taskId: string): string {
  return runId(projectId, runKindOf(kind), `task-${taskId}`);
}

/** Writes the "running" row of a task that has just started (false when its project is gone). */
function recordRunning(store: Store, taskId: string, task: TaskNotes): boolean {
  const project = store.projects.get(task.projectId);
  if (!project) return false;
  store.runs.upsert({
    id: runningRowId(project.projectId, task.kind, taskId),
    projectId: project.projectId,
    kind: runKindOf(task.kind),
    status: 'running',
    verdict: null,
    code: null,
    title: task.title,
    summary: '',
    startedAt: new Date(task.startedAt).toISOString(),
    endedAt: null,
    file: null,
    origin: 'app',
    taskId,
    detail: null,
  });
  return true;
}

function failedStatus(error: FailureData | null): RunStatus {
  return error?.code === 'CANCELLED' ? 'cancelled' : 'failed';
}

/** The row of a patch that left no committed record: what the person saw, and why it ended so. */
function patchRow(task: TaskNotes, patch: PatchResult, failure: FailureData | null): Pick<StoredRun, 'verdict' | 'code' | 'summary' | 'detail'> {
  const detail = unrecordedPatchDetail(patch, task.review ?? null, failure);
  return { verdict: detail.state, code: detail.error?.code ?? null, summary: detail.error?.message.split('\n')[0] ?? '', detail };
}

/** The detail of a run that ended without a result: what it was asked and why it failed. */
function failureDetail(task: TaskNotes, failure: FailureData | null): unknown {
  const error = failure ? { code: failure.code, message: failure.message } : null;
  switch (task.kind) {
    case 'ask':
    case 'review':
      return { kind: task.kind === 'ask' ? 'relay' : 'review', backend: task.request.backend ?? null, prompt: task.request.prompt ?? null, text: '', usage: null, error };
    case 'handoff':
      return { kind: 'handoff', briefId: null, path: null, markdown: null, warnings: [], error };
    case 'patch':
    case 'revert':
    case 'tick':
    case 'commit':
      return null;
    default:
      return assertNever(task.kind);
  }
}
