// Writes what the runtime reports into the store: every event into the event log, and one
// history row per task. A task in progress has a "running" row from its start (so History
// shows it live); when it ends that row gives way to its final one. Rows for work with a file
// of truth are indexed from that file; the rest (rejected patches, asks, reviews, failures) are
// kept as app-only rows.
import type { PatchDetail } from '../shared/contract.js';
import type { EventEnvelope, RuntimeEvent } from '../shared/events.js';
import type { FailureData, PatchReview, RunKind, RunStatus, TaskKind, TaskResult } from '../shared/schemas.js';
import { hasCommitted } from '../engine/patch/state.js';
import { assertNever } from '../engine/result.js';
import type { Runtime } from '../engine/runtime/index.js';
import { runId, type Store, type StoredRun } from '../engine/store/index.js';

export interface Recorder {
  /** Remembers what a task was asked (the runtime's events do not repeat a prompt or an answer's text). */
  note(taskId: string, request: TaskRequest): void;
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
  request?: TaskRequest;
}

// Streamed agent output is kept in the run's answer; storing every chunk would only bloat the log.
const NOT_LOGGED = new Set<RuntimeEvent['type']>(['relay.output']);

/** Subscribes to the runtime (from its first held event) and records into the store. */
export function attachRecorder(options: { readonly runtime: Runtime; readonly store: Store; readonly onError?: (error: unknown) => void }): Recorder {
  const { runtime, store } = options;
  const onError = options.onError ?? ((error: unknown) => console.error('Relay Desk could not record an event:', error));
  const tasks = new Map<string, TaskNotes>();
  const notes = new Map<string, NonNullable<TaskNotes['request']>>();
  let buffer: EventEnvelope[] = [];
  let scheduled = false;

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

  const track = ({ ts, event }: EventEnvelope): void => {
    switch (event.type) {
      case 'task.queued': {
        const request = notes.get(event.taskId);
        tasks.set(event.taskId, { kind: event.kind, projectId: event.projectId, title: event.title, startedAt: ts, ...(request ? { request } : {}) });
        return;
      }
      case 'task.started': {
        const task = tasks.get(event.taskId);
        if (!task) return;
        task.startedAt = ts;
        // Committing a tick is an action on that tick's run, not a run of its own.
        if (task.kind !== 'commit') recordRunning(store, event.taskId, task);
        return;
      }
      case 'task.waiting-approval': {
        const task = tasks.get(event.taskId);
        if (task) task.review = event.review;
        const project = store.projects.get(event.projectId);
        if (!project) return;
        // The pending transaction record is the row now.
        store.transaction(() => {
          if (store.indexPatch(project, event.review.uuid, event.taskId)) store.runs.remove(runningRowId(project.projectId, task?.kind ?? 'patch', event.taskId));
        });
        return;
      }
      case 'task.completed':
      case 'task.failed': {
        const task = tasks.get(event.taskId);
        tasks.delete(event.taskId);
        notes.delete(event.taskId);
        if (!task) return;
        const result = event.result;
        const error = event.type === 'task.failed' ? event.error : null;
        // One transaction: a reader never sees the task with no row, or with two.
        store.transaction(() => {
          store.runs.remove(runningRowId(task.projectId, task.kind, event.taskId));
          recordRun(store, event.taskId, task, ts, result, error);
        });
        return;
      }
      default:
        return;
    }
  };

  const unsubscribe = runtime.subscribe(handle, 0);
  return {
    note: (taskId, request) => {
      notes.set(taskId, request);
      const task = tasks.get(taskId);
      if (task) task.request = request;
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

/** Writes the "running" row of a task that has just started. */
function recordRunning(store: Store, taskId: string, task: TaskNotes): void {
  const project = store.projects.get(task.projectId);
  if (!project) return;
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
}

function failedStatus(error: FailureData | null): RunStatus {
  return error?.code === 'CANCELLED' ? 'cancelled' : 'failed';
}

/** Writes the history row of a finished task. */
function recordRun(store: Store, taskId: string, task: TaskNotes, endedTs: number, result: TaskResult | null, error: FailureData | null): void {
  const project = store.projects.get(task.projectId);
  if (!project) return; // removed while its task ran: nothing to attach the run to
  const endedAt = new Date(endedTs).toISOString();
  const base = {
    projectId: project.projectId,
    kind: runKindOf(task.kind),
    title: task.title,
    startedAt: new Date(task.startedAt).toISOString(),
    endedAt,
    file: null,
    origin: 'app' as const,
    taskId,
  };
  const appRun = (key: string, status: RunStatus, rest: Pick<StoredRun, 'verdict' | 'code' | 'summary' | 'detail'> & { file?: string | null }): void => {
    store.runs.upsert({ ...base, id: runId(project.projectId, base.kind, key), status, ...rest, file: rest.file ?? null });
  };
  const failure = error ?? null;

  // A refused commit leaves the tick's row as it was (the refusal is in the event log and the window's notice).
  if (task.kind === 'commit' && result?.kind !== 'commit') return;
  if (!result) {
    appRun(`task-${taskId}`, failedStatus(failure), { verdict: null, code: failure?.code ?? null, summary: failure?.message ?? '', detail: failureDetail(task, failure) });
    return;
  }
  switch (result.kind) {
    case 'patch':
    case 'revert': {
      const { patch } = result;
      if (patch.status === 'applied' && patch.uuid && store.indexPatch(project, patch.uuid, taskId)) return;
      // Not committed, so no file of truth: keep what the person saw. A uuid that names a
      // committed record (a duplicate, a reused id) must not overwrite that record's row.
      const ownUuid = patch.status !== 'skipped' && patch.uuid !== null && !hasCommitted(project.root, patch.uuid);
      const problem = patch.error ?? failure;
      // A person's "no" rolls the files back too; history calls that rejected, not rolled back.
      const verdict = patch.status === 'applied' ? 'approved' : patch.status === 'rolled-back' && patch.error?.code === 'REJECTED' ? 'rejected' : patch.status;
      const detail: PatchDetail = {
        kind: 'patch',
        state: verdict,
        uuid: patch.uuid ?? '',
        source: null,
        reasoning: task.review ? [...task.review.reasoning] : [],
        files: task.review ? task.review.files.map((f) => ({ ...f })) : patch.files.map((f) => ({ ...f, diff: '' })),
        gitCommitMsg: task.review?.gitCommitMsg ?? null,
        promptSummary: task.review?.promptSummary ?? null,
        linter: task.review?.linter ? { errorsBefore: task.review.linter.errorsBefore, errorsAfter: task.review.linter.errorsAfter, output: task.review.linter.output } : null,
        revertOf: null,
        revertedBy: null,
        warnings: [...patch.warnings, ...(task.review?.warnings ?? [])],
        // The refusal with what fixes it (reply, closest lines, block): the run detail offers them.
        error: problem ? { ...problem } : null,
        // Nothing was kept, so the answer is: "Retry" applies it again once the file is fixed.
        answer: patch.status === 'applied' ? null : (task.request?.answer ?? null),
      };
      appRun(ownUuid ? patch.uuid! : `task-${taskId}`, failure ? failedStatus(failure) : 'done', { verdict, code: problem?.code ?? null, summary: problem?.message.split('\n')[0] ?? '', detail });
      return;
    }
    case 'tick': {
      if (store.indexTick(project, result.tick.runId, taskId)) return;
      appRun(result.tick.runId, 'done', { verdict: result.tick.verdict, code: result.tick.code, summary: result.tick.summary, detail: null });
      return;
    }
    case 'ask':
    case 'review': {
      const { relay } = result;
      appRun(relay.runId, failure ? failedStatus(failure) : 'done', {
        verdict: null,
        code: failure?.code ?? null,
        summary: relay.text.trim().split('\n')[0]?.slice(0, 200) ?? '',
        detail: { kind: result.kind === 'ask' ? 'relay' : 'review', backend: relay.backend, prompt: task.request?.prompt ?? null, text: relay.text, usage: relay.usage, error: failure },
      });
      return;
    }
    case 'commit': {
      // commit.json now sits beside the tick's report: index the tick's row again (it keeps its own task).
      const tickRow = store.runs.get(runId(project.projectId, 'tick', result.commit.runId));
      store.indexTick(project, result.commit.runId, tickRow?.taskId ?? null);
      return;
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
      return;
    }
    default:
      assertNever(result);
  }
}

/** The detail of a run that ended without a result: what it was asked and why it failed. */
function failureDetail(task: TaskNotes, failure: FailureData | null): unknown {
  const error = failure ? { code: failure.code, message: failure.message } : null;
  switch (task.kind) {
    case 'ask':
    case 'review':
      return { kind: task.kind === 'ask' ? 'relay' : 'review', backend: task.request?.backend ?? null, prompt: task.request?.prompt ?? null, text: '', usage: null, error };
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
