import { describe, expect, it } from 'vitest';
import { createRuntime, type PatchEngine, type RelayEngine, type TickEngine } from '../../../src/engine/runtime/index.js';
import type { Decision, PendingReview } from '../../../src/engine/patch/transaction.js';
import { EventEnvelopeSchema, type RuntimeEvent } from '../../../src/shared/events.js';
import type { TickResult } from '../../../src/shared/schemas.js';
import { ok } from '../../../src/engine/result.js';
import { counterIds, nextEvent, record } from '../../helpers/runtime.js';

/** A tick engine whose ticks end when the test opens their gate; it records start order. */
function gatedTicks(): { engine: TickEngine; started: string[]; finish: (root: string) => void; signals: AbortSignal[] } {
  const started: string[] = [];
  const signals: AbortSignal[] = [];
  const gates = new Map<string, Array<(r: TickResult) => void>>();
  const engine: TickEngine = {
    run: async (root, context) => {
      started.push(root);
      signals.push(context.signal);
      context.onEvent({ stage: 'orchestrator', payload: { root } });
      const result = await new Promise<TickResult>((resolve, reject) => {
        gates.set(root, [...(gates.get(root) ?? []), resolve]);
        context.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
      return ok(result);
    },
  };
  const finish = (root: string): void => {
    const waiting = gates.get(root) ?? [];
    waiting.shift()?.({ runId: `run-${root}`, verdict: 'success', code: 'SUCCESS', summary: 'done' });
  };
  return { engine, started, finish, signals };
}

function types(events: ReadonlyArray<{ event: RuntimeEvent }>): string[] {
  return events.map((e) => e.event.type);
}

describe('runtime', () => {
  describe('events', () => {
    it('stamps every event with a strictly increasing seq, the injected clock, and a valid shape', async () => {
      let now = 1_000;
      const ticks = gatedTicks();
      const runtime = createRuntime({ clock: () => (now += 5), newId: counterIds(), engines: { tick: ticks.engine } });
      const seen = record(runtime);
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      const ticket = runtime.send({ type: 'RunTick', projectId: 'a' });
      expect(ticket.ok).toBe(true);
      await nextEvent(runtime, 'tick.stage');
      ticks.finish('/a');
      await nextEvent(runtime, 'task.completed');
      await runtime.shutdown();

      expect(types(seen)).toEqual([
        'lifecycle.started',
        'project.registered',
        'task.queued',
        'task.started',
        'tick.stage',
        'task.completed',
        'lifecycle.stopping',
        'lifecycle.stopped',
      ]);
      seen.forEach((envelope, i) => {
        expect(EventEnvelopeSchema.safeParse(envelope).success, JSON.stringify(envelope)).toBe(true);
        if (i > 0) {
          expect(envelope.seq).toBe(seen[i - 1]!.seq + 1);
          expect(envelope.ts).toBeGreaterThan(seen[i - 1]!.ts);
        }
      });
    });

    it('continues the seq of a previous run when given startSeq', () => {
      const runtime = createRuntime({ startSeq: 41 });
      const seen = record(runtime);
      expect(seen[0]!.seq).toBe(42);
      expect(runtime.lastSeq).toBe(42);
    });

    it('delivers events in seq order to every listener even when a listener sends commands back', () => {
      const runtime = createRuntime({ newId: counterIds() });
      const first: number[] = [];
      const second: number[] = [];
      runtime.subscribe((e) => {
        first.push(e.seq);
        // Re-entrant command from inside a listener: its events must not overtake this one for `second`.
        if (e.event.type === 'project.registered' && e.event.projectId === 'a') runtime.send({ type: 'RegisterProject', projectId: 'b', root: '/b', name: 'B' });
      });
      runtime.subscribe((e) => second.push(e.seq));
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      expect(first).toEqual([...first].sort((x, y) => x - y));
      expect(second).toEqual([...second].sort((x, y) => x - y));
      expect(second).toHaveLength(2);
    });

    it('replays held events after a seq and says when older ones were dropped', () => {
      const runtime = createRuntime({ eventCapacity: 3 });
      for (const id of ['a', 'b', 'c', 'd']) runtime.send({ type: 'RegisterProject', projectId: id, root: `/${id}`, name: id });
      expect(runtime.lastSeq).toBe(5);
      expect(runtime.replay(2)).toEqual({ events: expect.any(Array), complete: true });
      expect(runtime.replay(2).events.map((e) => e.seq)).toEqual([3, 4, 5]);
      expect(runtime.replay(0).complete).toBe(false);
    });
  });

  describe('tasks', () => {
    it('queues a project\'s tasks in order and runs different projects side by side', async () => {
      const ticks = gatedTicks();
      const runtime = createRuntime({ newId: counterIds('t'), engines: { tick: ticks.engine } });
      const seen = record(runtime);
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      runtime.send({ type: 'RegisterProject', projectId: 'b', root: '/b', name: 'B' });

      const a1 = runtime.send({ type: 'RunTick', projectId: 'a' });
      const a2 = runtime.send({ type: 'RunTick', projectId: 'a' });
      const b1 = runtime.send({ type: 'RunTick', projectId: 'b' });
      expect(a1.ok && a1.value.position).toBe(0);
      expect(a2.ok && a2.value.position).toBe(1);
      expect(b1.ok && b1.value.position).toBe(0);

      await nextEvent(runtime, 'tick.stage', (e) => e.projectId === 'b');
      // a1 and b1 run at once; a2 waits behind a1.
      expect(ticks.started).toEqual(['/a', '/b']);
      expect(runtime.state().projects.find((p) => p.projectId === 'a')?.queued.map((t) => t.taskId)).toEqual(['t-2']);

      ticks.finish('/b');
      ticks.finish('/a');
      await nextEvent(runtime, 'tick.stage', (e) => e.taskId === 't-2');
      expect(ticks.started).toEqual(['/a', '/b', '/a']);
      ticks.finish('/a');
      const settled = await runtime.waitForTask('t-2');
      expect(settled?.status).toBe('completed');

      const aEvents = seen.filter((e) => 'taskId' in e.event && (e.event.taskId === 't-1' || e.event.taskId === 't-2')).map((e) => `${(e.event as { taskId: string }).taskId}:${e.event.type}`);
      expect(aEvents).toEqual([
        't-1:task.queued',
        't-1:task.started',
        't-2:task.queued',
        't-1:tick.stage',
        't-1:task.completed',
        't-2:task.started',
        't-2:tick.stage',
        't-2:task.completed',
      ]);
    });

    it('refuses work for an engine that is not bound, queueing nothing', () => {
      const runtime = createRuntime();
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      const reply = runtime.send({ type: 'RunTick', projectId: 'a' });
      expect(reply).toMatchObject({ ok: false, error: { code: 'ENGINE_UNAVAILABLE' } });
      expect(runtime.state().projects[0]?.queued).toEqual([]);
    });

    it('refuses commands for a project that is not registered', () => {
      const runtime = createRuntime();
      expect(runtime.send({ type: 'Revert', projectId: 'nope', transaction: '1' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_PROJECT' } });
    });

    it('routes an answer without a project to the project it names, and refuses one that names no registered project', () => {
      const runtime = createRuntime();
      const text = '```text // a.txt\nhi\n```\n\n```yaml\nprojectId: elsewhere\nuuid: 0b5c2c1e-0000-4000-8000-000000000001\n```\n';
      expect(runtime.send({ type: 'ApplyPatch', text, source: 'clipboard' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_PROJECT' } });
      // Text that is no answer goes nowhere (it used to be refused as NO_CONTROL_BLOCK: answers without one are routed now).
      expect(runtime.send({ type: 'ApplyPatch', text: 'just chat, no patch', source: 'clipboard' })).toMatchObject({ ok: false, error: { code: 'NOT_AN_ANSWER' } });
    });

    it('cancels a queued task without starting it, and an active one through its signal', async () => {
      const ticks = gatedTicks();
      const runtime = createRuntime({ newId: counterIds('t'), engines: { tick: ticks.engine } });
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      runtime.send({ type: 'RunTick', projectId: 'a' });
      runtime.send({ type: 'RunTick', projectId: 'a' });
      await nextEvent(runtime, 'tick.stage');

      expect(runtime.send({ type: 'CancelTask', taskId: 't-2' })).toEqual({ ok: true, value: { taskId: 't-2', state: 'removed' } });
      expect(await runtime.waitForTask('t-2')).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' } });

      expect(runtime.send({ type: 'CancelTask', taskId: 't-1' })).toEqual({ ok: true, value: { taskId: 't-1', state: 'cancelling' } });
      expect(ticks.signals[0]?.aborted).toBe(true);
      expect(await runtime.waitForTask('t-1')).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' } });
      expect(ticks.started).toEqual(['/a']);
      expect(runtime.send({ type: 'CancelTask', taskId: 't-1' })).toMatchObject({ ok: false, error: { code: 'TASK_NOT_FOUND' } });
    });

    it('forwards relay output and usage as relay and metrics events', async () => {
      const relay: RelayEngine = {
        ask: async (_root, request, context) => {
          context.onOutput('text', `echo: ${request.prompt}`);
          context.onUsage({ inputTokens: 10, outputTokens: 3, costUsd: 0.001 });
          return ok({ runId: 'r1', backend: 'fake', text: `echo: ${request.prompt}`, usage: null });
        },
        review: async () => ok({ runId: 'r2', backend: 'fake', text: 'looks fine', usage: null }),
      };
      const runtime = createRuntime({ newId: counterIds('t'), engines: { relay } });
      const seen = record(runtime);
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      runtime.send({ type: 'Ask', projectId: 'a', request: { prompt: 'hello', includeDiff: false } });
      const settled = await runtime.waitForTask('t-1');
      expect(settled).toMatchObject({ status: 'completed', result: { kind: 'ask', relay: { text: 'echo: hello' } } });
      expect(types(seen)).toContain('relay.output');
      expect(seen.find((e) => e.event.type === 'metrics.usage')?.event).toMatchObject({ usage: { inputTokens: 10, outputTokens: 3 } });
    });

    it('reports an engine that throws as a failed task and an error event', async () => {
      const tick: TickEngine = {
        run: async () => {
          throw new Error('boom');
        },
      };
      const runtime = createRuntime({ newId: counterIds('t'), engines: { tick } });
      const seen = record(runtime);
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      runtime.send({ type: 'RunTick', projectId: 'a' });
      expect(await runtime.waitForTask('t-1')).toMatchObject({ status: 'failed', error: { code: 'INTERNAL' } });
      expect(seen.find((e) => e.event.type === 'error')?.event).toMatchObject({ code: 'INTERNAL', taskId: 't-1' });
    });
  });

  describe('approvals', () => {
    it('denies an approval that no active task is waiting for', () => {
      const runtime = createRuntime();
      const seen = record(runtime);
      expect(runtime.send({ type: 'Approve', approvalId: 'nobody' })).toMatchObject({ ok: false, error: { code: 'APPROVAL_NOT_FOUND' } });
      expect(runtime.send({ type: 'Reject', approvalId: 'nobody' })).toMatchObject({ ok: false, error: { code: 'APPROVAL_NOT_FOUND' } });
      expect(seen.filter((e) => e.event.type === 'warning').map((e) => (e.event as { code: string }).code)).toEqual(['APPROVAL_DENIED', 'APPROVAL_DENIED']);
    });

    it('denies an approval request made after its task has ended', async () => {
      // A patch engine that returns at once but keeps its decide callback and calls it later.
      let late: ((review: PendingReview) => Promise<Decision>) | undefined;
      const patch: PatchEngine = {
        apply: async (request) => {
          late = request.decide;
          return { status: 'skipped', reason: { code: 'NO_CHANGES', message: 'nothing' }, recovered: [] };
        },
        revert: async () => ({ status: 'rejected', error: { code: 'X', message: 'x' }, recovered: [] }),
      };
      const runtime = createRuntime({ newId: counterIds('t'), engines: { patch } });
      const seen = record(runtime);
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A', policy: { mode: 'auto' } });
      runtime.send({ type: 'ApplyPatch', projectId: 'a', text: 'x', source: 'paste' });
      await runtime.waitForTask('t-1');
      const decision = await late!({ uuid: 'u', projectId: 'a', root: '/a', reasoning: [], warnings: [], files: [], reason: 'manual-mode' });
      expect(decision.approve).toBe(false);
      expect(seen.map((e) => e.event).find((e) => e.type === 'task.approval-resolved')).toMatchObject({ by: 'no-active-task', decision: { approve: false } });
      expect(seen.map((e) => e.event).find((e) => e.type === 'warning')).toMatchObject({ code: 'APPROVAL_WITHOUT_TASK' });
    });
  });

  describe('shutdown', () => {
    it('drops queued tasks, cancels active ones, then refuses new commands', async () => {
      const ticks = gatedTicks();
      const runtime = createRuntime({ newId: counterIds('t'), engines: { tick: ticks.engine } });
      const seen = record(runtime);
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      runtime.send({ type: 'RunTick', projectId: 'a' });
      runtime.send({ type: 'RunTick', projectId: 'a' });
      await nextEvent(runtime, 'tick.stage');
      await runtime.shutdown();
      expect(ticks.signals[0]?.aborted).toBe(true);
      expect(ticks.started).toHaveLength(1);
      expect(await runtime.waitForTask('t-1')).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' } });
      expect(await runtime.waitForTask('t-2')).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' } });
      expect(types(seen).at(-1)).toBe('lifecycle.stopped');
      expect(runtime.state().stopped).toBe(true);
      expect(runtime.send({ type: 'RunTick', projectId: 'a' })).toMatchObject({ ok: false, error: { code: 'RUNTIME_STOPPED' } });
    });

    it('gives up on a task that ignores cancellation after the grace period, with a warning', async () => {
      const stuck: TickEngine = { run: () => new Promise(() => undefined) };
      const runtime = createRuntime({ newId: counterIds('t'), engines: { tick: stuck }, shutdownGraceMs: 50 });
      const seen = record(runtime);
      runtime.send({ type: 'RegisterProject', projectId: 'a', root: '/a', name: 'A' });
      runtime.send({ type: 'RunTick', projectId: 'a' });
      await runtime.shutdown();
      expect(seen.map((e) => e.event).find((e) => e.type === 'warning')).toMatchObject({ code: 'SHUTDOWN_TIMEOUT' });
      expect(types(seen).at(-1)).toBe('lifecycle.stopped');
    });
  });
});
