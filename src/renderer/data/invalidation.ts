// Which queries an event makes stale. The host's mutations announce themselves as runtime
// events; the window refetches exactly the queries that read what changed (Bruno's "tables
// changed" pattern), instead of polling.
import type { RuntimeEvent } from '../../shared/events.js';
import { assertNever } from '../lib/badges';
import type { QueryPrefix } from './query-keys';

const EVERYTHING: readonly QueryPrefix[] = [['projects'], ['runs'], ['run'], ['runtime'], ['handoffPreview']];

/** The query prefixes to invalidate when `event` arrives (empty: nothing the window reads changed). */
export function queriesToInvalidate(event: RuntimeEvent): readonly QueryPrefix[] {
  switch (event.type) {
    // The runtime (re)started or stopped: anything may have changed while we were not listening.
    case 'lifecycle.started':
    case 'lifecycle.stopping':
    case 'lifecycle.stopped':
      return EVERYTHING;
    case 'project.registered':
    case 'project.removed':
      return [['projects'], ['runtime'], ['runs']];
    case 'project.policy-changed':
      return [['projects'], ['runtime']];
    case 'task.queued':
    case 'task.cancelling':
    case 'task.approval-resolved':
      return [['runtime']];
    // History rows are announced by the recorder itself (runs.changed), whoever made the run and
    // whichever listener hears the task's events first; these only move the runtime's state.
    case 'task.started':
    case 'task.waiting-approval':
      return [['runtime']];
    case 'task.completed':
    case 'task.failed':
      return [['runtime'], ['handoffPreview', event.projectId]];
    // The recorder wrote history rows (of a task, of files another process changed, or a whole
    // reindex): everything that reads runs, and the project's brief, may be stale.
    case 'runs.changed':
    case 'runs.rolled-back':
      return [['runs'], ['run'], ['handoffPreview', event.projectId]];
    // A handoff prompt appears in, or leaves, the runtime state (an acceptance queues its task with its own events).
    case 'approval.requested':
    case 'approval.resolved':
    // An answer that fits several projects waits in the runtime state until one is picked.
    case 'patch.choice-requested':
    case 'patch.choice-resolved':
      return [['runtime']];
    // Progress within a task: shown live from the event stream, not from queries (its rows come with runs.changed).
    case 'patch.recovered':
    case 'patch.committed':
    case 'patch.rolled-back':
    case 'patch.parsed':
    case 'patch.applied':
    case 'patch.command':
    case 'tick.stage':
    case 'relay.output':
    case 'metrics.usage':
    case 'patch.unrouted':
    case 'warning':
    case 'error':
      return [];
    default:
      return assertNever(event);
  }
}
