// What the window knows from the event stream alone: tasks in flight (their stages and
// streamed answers), how they ended, and notices worth telling the person. A pure reducer plus
// a tiny store, so a view that starts a task can follow it even when the task's first events
// arrive before the call that started it has returned.
import type { EventEnvelope, RuntimeEvent } from '../../shared/events.js';
import type { FailureData, PatchResult, TaskKind, TaskResult } from '../../shared/schemas.js';
import { assertNever } from '../lib/badges';
import { addNotice, type Notice, type NoticeTone } from './notices';

export { MAX_NOTICES } from './notices';

export type LiveTaskState = 'queued' | 'running' | 'waiting-approval' | 'cancelling' | 'completed' | 'failed';

export interface LiveTask {
  readonly taskId: string;
  readonly projectId: string;
  readonly kind: TaskKind;
  readonly title: string;
  readonly state: LiveTaskState;
  /** Tick stages seen so far, in order. */
  readonly stages: readonly string[];
  /** Streamed answer text (relay `text` and `stdout`). */
  readonly output: string;
  /** Streamed diagnostics (relay `stderr`). */
  readonly diagnostics: string;
  readonly result: TaskResult | null;
  readonly error: FailureData | null;
  readonly updatedAt: number;
}

export type { Notice, NoticeTone } from './notices';

export interface LiveState {
  readonly tasks: Readonly<Record<string, LiveTask>>;
  /** Task ids, oldest first (bounded by MAX_TASKS). */
  readonly order: readonly string[];
  readonly notices: readonly Notice[];
  readonly lastSeq: number;
}

export const EMPTY_LIVE: LiveState = { tasks: {}, order: [], notices: [], lastSeq: 0 };

/** Tasks remembered (older ones are forgotten: their outcome is in History). */
export const MAX_TASKS = 200;
/** Streamed text kept per task: the answer is saved in the run anyway. */
export const MAX_OUTPUT_CHARS = 2_000_000;

function appendCapped(text: string, more: string): string {
  const joined = text + more;
  return joined.length <= MAX_OUTPUT_CHARS ? joined : joined.slice(joined.length - MAX_OUTPUT_CHARS);
}

function withTask(state: LiveState, task: LiveTask): LiveState {
  const known = task.taskId in state.tasks;
  let order = known ? state.order : [...state.order, task.taskId];
  let tasks: Record<string, LiveTask> = { ...state.tasks, [task.taskId]: task };
  if (order.length > MAX_TASKS) {
    const dropped = order.slice(0, order.length - MAX_TASKS);
    order = order.slice(order.length - MAX_TASKS);
    tasks = { ...tasks };
    for (const id of dropped) delete tasks[id];
  }
  return { ...state, tasks, order };
}

function update(state: LiveState, taskId: string, ts: number, change: (task: LiveTask) => Partial<LiveTask>): LiveState {
  const task = state.tasks[taskId];
  if (!task) return state;
  return withTask(state, { ...task, ...change(task), updatedAt: ts });
}

function withNotice(state: LiveState, seq: number, ts: number, notice: Omit<Notice, 'id' | 'ts' | 'count'> | null): LiveState {
  if (!notice) return state;
  return { ...state, notices: addNotice(state.notices, notice, seq, ts) };
}

/** "2 files, 1 rolled back" and friends: a patch task's outcome in a sentence. */
export function describePatchResult(patch: PatchResult): { tone: NoticeTone; title: string; message: string; code: string | null; reply?: string } {
  const files = `${patch.files.length} file${patch.files.length === 1 ? '' : 's'}`;
  switch (patch.status) {
    case 'applied': {
      const partial = patch.rolledBack.length > 0 ? `; ${patch.rolledBack.length} rolled back (${patch.rolledBack.join(', ')})` : '';
      return { tone: 'success', title: 'Patch applied', message: `${files} kept${partial}${patch.approvedBy === 'auto' ? ', approved by policy' : ''}.`, code: null };
    }
    case 'rolled-back':
      if (patch.error?.code === 'REJECTED') return { tone: 'info', title: 'Patch rejected', message: `${files} restored; the tree is as it was.`, code: null };
      return { tone: 'danger', title: 'Patch rolled back', message: patch.error?.message ?? `${files} restored.`, code: patch.error?.code ?? null };
    case 'rejected':
      return { tone: 'danger', title: 'Patch not applied', message: patch.error?.message ?? 'The engine refused the answer.', code: patch.error?.code ?? null, ...(patch.error?.reply ? { reply: patch.error.reply } : {}) };
    case 'skipped':
      return { tone: 'info', title: 'Patch skipped', message: patch.error?.message ?? 'Nothing to apply.', code: patch.error?.code ?? null };
    default:
      return assertNever(patch.status);
  }
}

/** The notice for an answer that reached no project: which one it names, or why it fits none. */
export function noticeForUnrouted(event: Extract<RuntimeEvent, { type: 'patch.unrouted' }>): Omit<Notice, 'id' | 'ts' | 'taskId' | 'projectId' | 'count'> {
  if (event.reason === 'unknown-project') {
    return { tone: 'danger', title: `No watching project for projectId "${event.projectId}"`, message: 'The copied answer was not applied. Register that project (or turn its watching on), then copy the answer again.', code: 'UNKNOWN_PROJECT' };
  }
  const refusal = event.refusal;
  return {
    tone: 'danger',
    title: 'No registered project fits this answer',
    message: `Closest: ${event.projectId}. ${refusal?.message ?? ''}`.trim(),
    code: refusal?.code ?? null,
    ...(refusal?.reply ? { reply: refusal.reply } : {}),
  };
}

/** The notice for a finished task: what happened, in a sentence, with the engine’s code when it failed. */
export function noticeForResult(result: TaskResult): Omit<Notice, 'id' | 'ts' | 'taskId' | 'projectId' | 'count'> {
  switch (result.kind) {
    case 'patch':
      return describePatchResult(result.patch);
    case 'revert': {
      const described = describePatchResult(result.patch);
      return result.patch.status === 'applied' ? { ...described, title: 'Reverted', message: `${result.patch.files.length} file(s) restored.` } : { ...described, title: 'Revert not done' };
    }
    case 'tick':
      return {
        tone: result.tick.verdict === 'success' ? 'success' : result.tick.verdict === 'blocked' ? 'warning' : 'danger',
        title: `Tick ${result.tick.verdict.toUpperCase()}`,
        message: result.tick.summary,
        // SUCCESS is both the verdict and its code; say it once.
        code: result.tick.code === result.tick.verdict.toUpperCase() ? null : result.tick.code,
      };
    case 'ask':
    case 'review':
      return { tone: 'success', title: `${result.relay.backend} answered`, message: result.relay.text.trim().split('\n')[0]?.slice(0, 160) ?? '', code: null };
    case 'handoff':
      return { tone: 'success', title: 'Brief saved', message: result.handoff.path, code: null };
    case 'commit':
      return { tone: 'success', title: 'Tick committed', message: `${result.commit.commit.slice(0, 10)} ${result.commit.message.split('\n')[0] ?? ''}`, code: null };
    default:
      return assertNever(result);
  }
}

const TASK_NAME: Record<TaskKind, string> = { patch: 'Patch', revert: 'Revert', tick: 'Tick', ask: 'Question', review: 'Review', handoff: 'Handoff brief', commit: 'Commit' };

/** The notice for a task that failed: a refusal that is not a problem (nothing to review, cancelled) reads as information. */
export function noticeForFailure(kind: TaskKind, error: FailureData): Omit<Notice, 'id' | 'ts' | 'taskId' | 'projectId' | 'count'> {
  if (error.code === 'NOTHING_TO_REVIEW') return { tone: 'info', title: 'Nothing to review', message: error.message, code: null };
  if (error.code === 'CANCELLED') return { tone: 'info', title: `${TASK_NAME[kind]} cancelled`, message: error.message, code: error.code };
  return { tone: 'danger', title: `${TASK_NAME[kind]} failed`, message: error.message, code: error.code };
}

/** Folds one event into the live state. Events at or below `lastSeq` (replays) are ignored. */
export function reduceLive(state: LiveState, envelope: EventEnvelope): LiveState {
  if (envelope.seq <= state.lastSeq) return state;
  const next = reduceEvent(state, envelope);
  return { ...next, lastSeq: envelope.seq };
}

function reduceEvent(state: LiveState, { seq, ts, event }: EventEnvelope): LiveState {
  switch (event.type) {
    case 'task.queued':
      return withTask(state, {
        taskId: event.taskId,
        projectId: event.projectId,
        kind: event.kind,
        title: event.title,
        state: 'queued',
        stages: [],
        output: '',
        diagnostics: '',
        result: null,
        error: null,
        updatedAt: ts,
      });
    case 'task.started':
      return update(state, event.taskId, ts, () => ({ state: 'running' }));
    case 'task.waiting-approval':
      return update(state, event.taskId, ts, () => ({ state: 'waiting-approval' }));
    case 'task.approval-resolved':
      return update(state, event.taskId, ts, (t) => ({ state: t.state === 'waiting-approval' ? 'running' : t.state }));
    case 'task.cancelling':
      return update(state, event.taskId, ts, () => ({ state: 'cancelling' }));
    case 'task.completed': {
      const next = update(state, event.taskId, ts, () => ({ state: 'completed', result: event.result }));
      return withNotice(next, seq, ts, { ...noticeForResult(event.result), taskId: event.taskId, projectId: event.projectId });
    }
    case 'task.failed': {
      const next = update(state, event.taskId, ts, () => ({ state: 'failed', error: event.error, result: event.result }));
      return withNotice(next, seq, ts, { ...noticeForFailure(event.kind, event.error), taskId: event.taskId, projectId: event.projectId });
    }
    case 'tick.stage':
      return update(state, event.taskId, ts, (t) => ({ stages: [...t.stages, event.stage] }));
    case 'relay.output':
      return update(state, event.taskId, ts, (t) => (event.stream === 'stderr' ? { diagnostics: appendCapped(t.diagnostics, event.text) } : { output: appendCapped(t.output, event.text) }));
    case 'warning':
      return withNotice(state, seq, ts, { tone: 'warning', title: 'Warning', message: event.message, code: event.code, taskId: event.taskId, projectId: event.projectId });
    case 'error':
      return withNotice(state, seq, ts, { tone: 'danger', title: 'Error', message: event.message, code: event.code, taskId: event.taskId, projectId: event.projectId });
    // A crash interrupted an apply (here or in another process) and recovery rolled it back.
    case 'runs.rolled-back':
      return withNotice(state, seq, ts, {
        tone: 'warning',
        title: 'Patch rolled back after an interrupted apply',
        message: `${event.title}: ${event.restored.length > 0 ? `${event.restored.join(', ')} restored` : 'nothing had been written yet'}. The run in History has its diff.`,
        code: null,
        taskId: null,
        projectId: event.projectId,
      });
    case 'approval.requested':
      return withNotice(state, seq, ts, {
        tone: 'warning',
        title: 'Context nearly full',
        message: `An agent session of ${event.projectId} is at ${Math.round(event.pct)}% of its context: consider handing off.`,
        code: null,
        taskId: null,
        projectId: event.projectId,
      });
    case 'patch.unrouted':
      return withNotice(state, seq, ts, { ...noticeForUnrouted(event), taskId: null, projectId: event.projectId });
    case 'patch.choice-requested':
      return withNotice(state, seq, ts, {
        tone: 'warning',
        title: 'Which project is this answer for?',
        message: `“${event.title}” fits ${event.projectIds.join(' and ')}. Choose one above; nothing was applied yet.`,
        code: null,
        taskId: null,
        projectId: null,
      });
    case 'patch.choice-resolved':
    case 'approval.resolved':
    case 'lifecycle.started':
    case 'lifecycle.stopping':
    case 'lifecycle.stopped':
    case 'project.registered':
    case 'project.removed':
    case 'project.policy-changed':
    case 'patch.recovered':
    case 'patch.parsed':
    case 'patch.applied':
    case 'patch.command':
    case 'patch.committed':
    case 'patch.rolled-back':
    case 'metrics.usage':
    case 'runs.changed':
      return state;
    default:
      return assertNever(event);
  }
}

/**
 * After a reconnection: tasks the window still shows as running that the runtime no longer knows
 * ended while it could not hear (Relay Desk stopped or crashed); they are marked failed, so no
 * page waits on them forever. `seq` (when the runtime was restarted) is where events count from now.
 */
export function reconcileLive(state: LiveState, knownTaskIds: ReadonlySet<string>, now: number): LiveState {
  let next = state;
  for (const id of state.order) {
    const task = next.tasks[id];
    if (!task || task.state === 'completed' || task.state === 'failed' || knownTaskIds.has(id)) continue;
    next = withTask(next, {
      ...task,
      state: 'failed',
      updatedAt: now,
      error: { code: 'TASK_INTERRUPTED', message: 'Relay Desk stopped while this task was running, so it did not finish here. Its outcome, if it left one, is in History; start it again if it is not.' },
    });
  }
  return next;
}

/** Drops one notice (the person closed it). */
export function dismissNotice(state: LiveState, id: number): LiveState {
  return { ...state, notices: state.notices.filter((n) => n.id !== id) };
}

/** A minimal external store for useSyncExternalStore. */
export interface LiveStore {
  getState(): LiveState;
  dispatch(envelope: EventEnvelope): void;
  dismiss(id: number): void;
  /** Marks tasks the runtime no longer knows as interrupted (see reconcileLive). */
  reconcile(knownTaskIds: ReadonlySet<string>): void;
  /** Counts events from `seq` again: the runtime was restarted and lost the tail of its log. */
  restartFrom(seq: number): void;
  subscribe(listener: () => void): () => void;
}

export function createLiveStore(initial: LiveState = EMPTY_LIVE): LiveStore {
  let state = initial;
  const listeners = new Set<() => void>();
  const set = (next: LiveState): void => {
    if (next === state) return;
    state = next;
    for (const listener of [...listeners]) listener();
  };
  return {
    getState: () => state,
    dispatch: (envelope) => set(reduceLive(state, envelope)),
    dismiss: (id) => set(dismissNotice(state, id)),
    reconcile: (known) => set(reconcileLive(state, known, Date.now())),
    restartFrom: (seq) => set({ ...state, lastSeq: Math.min(state.lastSeq, seq) }),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
