// Which engine runs a task, by kind.
import { assertNever } from '../result.js';
import { runAskTask, runCommitTask, runHandoffTask, runReviewTask, runTickTask } from './engine-tasks.js';
import type { Engines } from './engines.js';
import { runPatchTask, runRevertTask } from './patch-task.js';
import type { TaskContext, TaskEnd, TaskSpec } from './task-context.js';

/** The engine a task needs that is not bound, if any (checked before the task is queued). */
export function missingEngine(spec: TaskSpec, engines: Engines): 'tick' | 'relay' | 'handoff' | null {
  switch (spec.kind) {
    case 'patch':
    case 'revert':
    case 'commit':
      return null;
    case 'tick':
      return engines.tick ? null : 'tick';
    case 'ask':
    case 'review':
      return engines.relay ? null : 'relay';
    case 'handoff':
      return engines.handoff ? null : 'handoff';
    default:
      return assertNever(spec);
  }
}

/** Runs a task on its engine. */
export function runTask(spec: TaskSpec, context: TaskContext, engines: Engines): Promise<TaskEnd> {
  const { tick, relay, handoff } = engines;
  switch (spec.kind) {
    case 'patch':
      return runPatchTask(context, engines.patch, spec);
    case 'revert':
      return runRevertTask(context, engines.patch, spec);
    case 'tick':
      return tick ? runTickTask(context, tick) : Promise.resolve(engineGone('tick'));
    case 'commit':
      return runCommitTask(context, spec.runId, spec.message);
    case 'ask':
      return relay ? runAskTask(context, relay, spec.request) : Promise.resolve(engineGone('relay'));
    case 'review':
      return relay ? runReviewTask(context, relay, spec.request) : Promise.resolve(engineGone('relay'));
    case 'handoff':
      return handoff ? runHandoffTask(context, handoff, spec.request) : Promise.resolve(engineGone('handoff'));
    default:
      return assertNever(spec);
  }
}

function engineGone(name: string): TaskEnd {
  return { error: { code: 'ENGINE_UNAVAILABLE', message: `The ${name} engine is not part of this build yet.` }, result: null };
}
