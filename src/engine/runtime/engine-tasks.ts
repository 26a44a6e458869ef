// Tick, ask, review and handoff tasks: thin adapters from an injected engine to runtime events.
import type { TaskResult } from '../../shared/schemas.js';
import type { Result } from '../result.js';
import { toTickCommit } from '../records/index.js';
import { commitTick } from '../tick/commit.js';
import type { AskRequest, EngineContext, HandoffEngine, HandoffRequest, RelayContext, RelayEngine, ReviewRequest, TickEngine } from './engines.js';
import type { TaskContext, TaskEnd } from './task-context.js';

function engineContext(context: TaskContext): EngineContext {
  return {
    signal: context.signal,
    now: context.now,
    onUsage: (usage) => context.emit({ type: 'metrics.usage', taskId: context.taskId, projectId: context.projectId, usage: { ...usage } }),
  };
}

function relayContext(context: TaskContext): RelayContext {
  return {
    ...engineContext(context),
    onOutput: (stream, text) => context.emit({ type: 'relay.output', taskId: context.taskId, projectId: context.projectId, stream, text }),
  };
}

function endOf<T>(context: TaskContext, result: Result<T>, wrap: (value: T) => TaskResult): TaskEnd {
  if (result.ok) return { result: wrap(result.value) };
  if (context.signal.aborted) return { error: { code: 'CANCELLED', message: `Cancelled: ${result.error.message}` }, result: null };
  return { error: { ...result.error }, result: null };
}

/** Runs one tick and forwards its stage events. */
export async function runTickTask(context: TaskContext, engine: TickEngine): Promise<TaskEnd> {
  const result = await engine.run(context.root, {
    ...engineContext(context),
    onEvent: (event) => context.emit({ type: 'tick.stage', taskId: context.taskId, projectId: context.projectId, stage: event.stage, payload: event.payload ?? null }),
  });
  return endOf(context, result, (tick) => ({ kind: 'tick', tick: { ...tick } }));
}

/** Commits a SUCCESS tick's touched paths (git only, no engine to inject: like a patch, it is always there). */
export async function runCommitTask(context: TaskContext, runId: string, message: string): Promise<TaskEnd> {
  const committed = await commitTick(context.root, runId, message, context.now);
  return endOf(context, committed, (record) => ({ kind: 'commit', commit: toTickCommit(record) }));
}

/** Asks another agent. */
export async function runAskTask(context: TaskContext, engine: RelayEngine, request: AskRequest): Promise<TaskEnd> {
  const result = await engine.ask(context.root, request, relayContext(context));
  return endOf(context, result, (relay) => ({ kind: 'ask', relay: { ...relay } }));
}

/** Asks another agent to review the current diff. */
export async function runReviewTask(context: TaskContext, engine: RelayEngine, request: ReviewRequest): Promise<TaskEnd> {
  const result = await engine.review(context.root, request, relayContext(context));
  return endOf(context, result, (relay) => ({ kind: 'review', relay: { ...relay } }));
}

/** Writes a handoff brief. */
export async function runHandoffTask(context: TaskContext, engine: HandoffEngine, request: HandoffRequest): Promise<TaskEnd> {
  const result = await engine.build(context.root, request, engineContext(context));
  return endOf(context, result, (handoff) => ({ kind: 'handoff', handoff: { ...handoff, warnings: [...handoff.warnings] } }));
}
