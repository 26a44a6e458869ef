// Event → query invalidation, and the live state folded from events.
import { describe, expect, it } from 'vitest';
import type { EventEnvelope, RuntimeEvent } from '../../../src/shared/events.js';
import { RuntimeEventSchema } from '../../../src/shared/events.js';
import { queriesToInvalidate } from '../../../src/renderer/data/invalidation.js';
import { createLiveStore, describePatchResult, EMPTY_LIVE, MAX_NOTICES, MAX_TASKS, reconcileLive, reduceLive, type LiveState } from '../../../src/renderer/data/live.js';

const ids = { taskId: 't1', projectId: 'demo' };
let seq = 0;
const env = (event: RuntimeEvent): EventEnvelope => ({ seq: (seq += 1), ts: 1_000 + seq, event });
const fold = (events: RuntimeEvent[], from: LiveState = EMPTY_LIVE): LiveState => events.reduce((s, e) => reduceLive(s, env(e)), from);
const patchResult = (status: 'applied' | 'rejected' | 'rolled-back' | 'skipped', extra: object = {}) => ({
  status,
  uuid: 'u1',
  files: [{ path: 'a.ts', change: 'modify' as const, added: 1, removed: 1 }],
  rolledBack: [],
  approvedBy: 'user' as const,
  warnings: [],
  error: null,
  ...extra,
});

describe('queriesToInvalidate()', () => {
  it('refreshes History, the open run and the brief when the recorder announces rows, whoever made them', () => {
    expect(queriesToInvalidate({ type: 'runs.changed', projectId: 'demo', runIds: ['demo:patch:u1'], all: false })).toEqual([['runs'], ['run'], ['handoffPreview', 'demo']]);
    expect(queriesToInvalidate({ type: 'runs.changed', projectId: 'demo', runIds: [], all: true })).toContainEqual(['runs']);
    expect(queriesToInvalidate({ type: 'runs.rolled-back', projectId: 'demo', uuid: 'u1', runId: 'demo:patch:u1', title: 'Add a', restored: ['a.ts'] })).toContainEqual(['run']);
  });

  it('leaves History to runs.changed: task events only move the runtime (and a finished task the brief)', () => {
    // Whichever listener hears a task's end first, its rows come with their own announcement.
    expect(queriesToInvalidate({ type: 'task.completed', ...ids, kind: 'patch', result: { kind: 'patch', patch: patchResult('applied') } })).toEqual([['runtime'], ['handoffPreview', 'demo']]);
    expect(queriesToInvalidate({ type: 'task.failed', ...ids, kind: 'tick', error: { code: 'X', message: 'x' }, result: null })).not.toContainEqual(['runs']);
    const review = { uuid: 'u', projectId: 'demo', gitCommitMsg: null, promptSummary: null, reasoning: [], warnings: [], files: [], linter: null, reason: 'manual-mode' as const };
    expect(queriesToInvalidate({ type: 'task.waiting-approval', ...ids, approvalId: 'a1', review })).toEqual([['runtime']]);
    expect(queriesToInvalidate({ type: 'task.approval-resolved', ...ids, approvalId: 'a1', decision: { approve: true }, by: 'user' })).toEqual([['runtime']]);
    expect(queriesToInvalidate({ type: 'task.started', ...ids, kind: 'tick', title: 'Tick' })).toEqual([['runtime']]);
    expect(queriesToInvalidate({ type: 'task.queued', ...ids, kind: 'tick', title: 'Tick', position: 1 })).toEqual([['runtime']]);
  });

  it('refreshes projects on project events, everything on lifecycle events, nothing on streamed output', () => {
    expect(queriesToInvalidate({ type: 'project.registered', projectId: 'p', root: '/p', name: 'p', policy: { mode: 'ask' } })).toContainEqual(['projects']);
    expect(queriesToInvalidate({ type: 'project.policy-changed', projectId: 'p', policy: { mode: 'auto' } })).toEqual([['projects'], ['runtime']]);
    expect(queriesToInvalidate({ type: 'lifecycle.started', version: '1' })).toHaveLength(5);
    expect(queriesToInvalidate({ type: 'relay.output', ...ids, stream: 'text', text: 'x' })).toEqual([]);
    expect(queriesToInvalidate({ type: 'tick.stage', ...ids, stage: 'built', payload: {} })).toEqual([]);
  });

  it('has an answer for every event type of the contract', () => {
    for (const option of RuntimeEventSchema.options) {
      const type = option.shape.type.value;
      expect(Array.isArray(queriesToInvalidate({ type } as RuntimeEvent)), type).toBe(true);
    }
  });
});

describe('live state', () => {
  it('follows a task from queued to completed, with its streamed answer and stages', () => {
    const state = fold([
      { type: 'task.queued', ...ids, kind: 'ask', title: 'Ask codex', position: 0 },
      { type: 'task.started', ...ids, kind: 'ask', title: 'Ask codex' },
      { type: 'relay.output', ...ids, stream: 'text', text: 'Hello ' },
      { type: 'relay.output', ...ids, stream: 'stderr', text: 'warn\n' },
      { type: 'relay.output', ...ids, stream: 'text', text: 'world' },
      { type: 'task.completed', ...ids, kind: 'ask', result: { kind: 'ask', relay: { runId: 'r', backend: 'codex', text: 'Hello world', usage: null } } },
    ]);
    expect(state.tasks.t1).toMatchObject({ state: 'completed', output: 'Hello world', diagnostics: 'warn\n', result: { kind: 'ask' } });
    expect(state.notices.at(-1)).toMatchObject({ tone: 'success', title: 'codex answered', message: 'Hello world', taskId: 't1' });
  });

  it('records tick stages and failures with their code', () => {
    const state = fold([
      { type: 'task.queued', ...ids, kind: 'tick', title: 'Tick', position: 0 },
      { type: 'tick.stage', ...ids, stage: 'orchestrated', payload: {} },
      { type: 'tick.stage', ...ids, stage: 'built', payload: {} },
      { type: 'task.failed', ...ids, kind: 'tick', error: { code: 'CANCELLED', message: 'cancelled' }, result: null },
    ]);
    expect(state.tasks.t1).toMatchObject({ state: 'failed', stages: ['orchestrated', 'built'], error: { code: 'CANCELLED' } });
    // A cancellation is the person's own doing: information, not an error.
    expect(state.notices.at(-1)).toMatchObject({ tone: 'info', title: 'Tick cancelled', code: 'CANCELLED' });
  });

  it('ignores replayed events and events of tasks it never saw queued', () => {
    const first = env({ type: 'task.queued', ...ids, kind: 'patch', title: 'P', position: 0 });
    const once = reduceLive(EMPTY_LIVE, first);
    expect(reduceLive(once, first)).toBe(once);
    expect(fold([{ type: 'task.started', taskId: 'unknown', projectId: 'demo', kind: 'patch', title: 'P' }], once).tasks.unknown).toBeUndefined();
  });

  it('tells of a patch crash recovery rolled back (a notice naming it and what was restored), and nothing for runs.changed', () => {
    const state = fold([
      { type: 'runs.changed', projectId: 'demo', runIds: ['demo:patch:u1'], all: false },
      { type: 'runs.rolled-back', projectId: 'demo', uuid: 'u1', runId: 'demo:patch:u1', title: 'Add a', restored: ['src/a.ts'] },
    ]);
    expect(state.notices).toHaveLength(1);
    expect(state.notices[0]).toMatchObject({ tone: 'warning', title: 'Patch rolled back after an interrupted apply', projectId: 'demo' });
    expect(state.notices[0]!.message).toContain('Add a: src/a.ts restored');
  });

  it('keeps a bounded number of tasks and notices', () => {
    const events: RuntimeEvent[] = [];
    for (let i = 0; i < MAX_TASKS + 5; i += 1) events.push({ type: 'task.queued', taskId: `t${i}`, projectId: 'demo', kind: 'patch', title: 'P', position: 0 });
    for (let i = 0; i < MAX_NOTICES + 3; i += 1) events.push({ type: 'warning', code: `W${i}`, message: 'w', taskId: null, projectId: null });
    const state = fold(events);
    expect(state.order).toHaveLength(MAX_TASKS);
    expect(Object.keys(state.tasks)).toHaveLength(MAX_TASKS);
    expect(state.tasks.t0).toBeUndefined();
    expect(state.notices).toHaveLength(MAX_NOTICES);
    expect(state.notices.at(-1)?.code).toBe(`W${MAX_NOTICES + 2}`);
  });

  it('describes patch outcomes: partial approval, a person’s rejection, an engine refusal', () => {
    expect(describePatchResult(patchResult('applied', { rolledBack: ['b.ts'] }))).toMatchObject({ tone: 'success', message: '1 file kept; 1 rolled back (b.ts).' });
    expect(describePatchResult(patchResult('rolled-back', { error: { code: 'REJECTED', message: 'no' } }))).toMatchObject({ tone: 'info', title: 'Patch rejected' });
    expect(describePatchResult(patchResult('rejected', { error: { code: 'SEARCH_NOT_FOUND', message: 'not found' } }))).toEqual({ tone: 'danger', title: 'Patch not applied', message: 'not found', code: 'SEARCH_NOT_FOUND' });
  });

  it('keeps the reply of a refused answer on its notice, and tells answers that reached no project or wait for a choice', () => {
    const refusal = { code: 'SEARCH_NOT_FOUND', message: 'src/a.ts: not found', reply: 'Please resend that SEARCH/REPLACE block.' };
    const rejected = fold([{ type: 'task.completed', ...ids, kind: 'patch', result: { kind: 'patch', patch: patchResult('rejected', { error: refusal }) } }]);
    expect(rejected.notices.at(-1)).toMatchObject({ title: 'Patch not applied', code: 'SEARCH_NOT_FOUND', reply: refusal.reply });
    const unrouted = fold([
      { type: 'patch.unrouted', source: 'clipboard', reason: 'no-fit', projectId: 'demo', refusal },
      { type: 'patch.choice-requested', choiceId: 'c1', source: 'paste', projectIds: ['a', 'b'], title: 'Fix it' },
    ]);
    expect(unrouted.notices.map((n) => [n.title, n.reply ?? null])).toEqual([
      ['No registered project fits this answer', refusal.reply],
      ['Which project is this answer for?', null],
    ]);
    expect(queriesToInvalidate({ type: 'patch.choice-resolved', choiceId: 'c1', projectId: 'a', taskId: 't', by: 'user' })).toEqual([['runtime']]);
  });

  it('the store notifies subscribers and dismisses notices', () => {
    const store = createLiveStore();
    let calls = 0;
    const stop = store.subscribe(() => (calls += 1));
    store.dispatch(env({ type: 'error', code: 'E', message: 'boom', taskId: null, projectId: null }));
    const id = store.getState().notices[0]!.id;
    store.dismiss(id);
    expect(store.getState().notices).toEqual([]);
    expect(calls).toBe(2);
    stop();
    store.dispatch(env({ type: 'error', code: 'E', message: 'again', taskId: null, projectId: null }));
    expect(calls).toBe(2);
  });
});

describe('after a reconnection', () => {
  it('marks tasks the runtime no longer knows as interrupted, and leaves finished and known ones alone', () => {
    const state = fold([
      { type: 'task.queued', taskId: 'gone', projectId: 'demo', kind: 'tick', title: 'Tick', position: 0 },
      { type: 'task.started', taskId: 'gone', projectId: 'demo', kind: 'tick', title: 'Tick' },
      { type: 'task.queued', taskId: 'alive', projectId: 'demo', kind: 'ask', title: 'Ask', position: 1 },
      { type: 'task.queued', taskId: 'done', projectId: 'demo', kind: 'ask', title: 'Ask', position: 1 },
      { type: 'task.completed', taskId: 'done', projectId: 'demo', kind: 'ask', result: { kind: 'ask', relay: { runId: 'r', backend: 'codex', text: 'x', usage: null } } },
    ]);
    const next = reconcileLive(state, new Set(['alive']), 5);
    expect(next.tasks.gone).toMatchObject({ state: 'failed', error: { code: 'TASK_INTERRUPTED' } });
    expect(next.tasks.alive?.state).toBe('queued');
    expect(next.tasks.done?.state).toBe('completed');
  });

  it('counts events from a restarted runtime’s last one, so its events are not taken for replays', () => {
    const store = createLiveStore();
    store.dispatch({ seq: 50, ts: 1, event: { type: 'task.queued', taskId: 'a', projectId: 'demo', kind: 'tick', title: 'Tick', position: 0 } });
    store.dispatch({ seq: 3, ts: 2, event: { type: 'task.queued', taskId: 'b', projectId: 'demo', kind: 'tick', title: 'Tick', position: 0 } });
    expect(store.getState().tasks.b).toBeUndefined();
    store.restartFrom(2);
    store.dispatch({ seq: 3, ts: 2, event: { type: 'task.queued', taskId: 'b', projectId: 'demo', kind: 'tick', title: 'Tick', position: 0 } });
    expect(store.getState().tasks.b?.state).toBe('queued');
  });
});
