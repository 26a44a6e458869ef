import type { RuntimeEvent } from '../../shared/events.js';
import type { DecisionData, FailureData, PatchReview, PatchSource, TaskResult } from '../../shared/schemas.js';
import type { IncomingAnswer } from '../patch/incoming.js';
import type { AskRequest, HandoffRequest, ReviewRequest } from './engines.js';

/** What a task runs: the command's payload, by kind. */
export type TaskSpec =
  /** An answer read once when the command came in (incoming.ts); the task does not read it again. */
  | { readonly kind: 'patch'; readonly answer: IncomingAnswer; readonly source: PatchSource }
  | { readonly kind: 'revert'; readonly transaction: string }
  | { readonly kind: 'tick' }
  | { readonly kind: 'commit'; readonly runId: string; readonly message: string }
  | { readonly kind: 'ask'; readonly request: AskRequest }
  | { readonly kind: 'review'; readonly request: ReviewRequest }
  | { readonly kind: 'handoff'; readonly request: HandoffRequest };

/** What the runtime gives a running task. */
export interface TaskContext {
  readonly taskId: string;
  readonly projectId: string;
  readonly root: string;
  readonly signal: AbortSignal;
  readonly now: () => Date;
  /** Emits an event of this task (the runtime stamps seq and ts). */
  readonly emit: (event: RuntimeEvent) => void;
  /** Resolves an approval request under the project's policy: at once, or when a person decides. */
  readonly requestApproval: (review: PatchReview) => Promise<DecisionData>;
  /** The project's policy as it stood when the task started. */
  readonly policy: 'auto' | 'ask';
  /** Timeout of each pre/post/linter command of a patch. */
  readonly commandTimeoutMs?: number;
}

/** How a task's work ended: a result, or an expected failure (with what the engine still reported). */
export type TaskEnd = { readonly result: TaskResult } | { readonly error: FailureData; readonly result: TaskResult | null };
