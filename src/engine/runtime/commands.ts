// The runtime's commands and what each one answers at once. Outcomes of tasks never come back
// as replies: they arrive as events (and through `waitForTask`).
import type { TaskInfo, TaskTicket } from '../../shared/contract.js';
import type { RuntimeEvent } from '../../shared/events.js';
import type { ApprovalPolicy, DecisionData, FailureData, PatchSource, TaskResult } from '../../shared/schemas.js';
import type { AskRequest, HandoffRequest, ReviewRequest } from './engines.js';

export type RuntimeCommand =
  | { readonly type: 'RegisterProject'; readonly projectId: string; readonly root: string; readonly name: string; readonly policy?: ApprovalPolicy }
  | { readonly type: 'RemoveProject'; readonly projectId: string }
  | { readonly type: 'SetApprovalPolicy'; readonly projectId: string; readonly policy: ApprovalPolicy }
  /**
   * Without projectId the answer is routed (engine/patch/route.ts): to the project its control
   * block names, or the one project it fits, among all registered projects or those in `among`.
   */
  | { readonly type: 'ApplyPatch'; readonly text: string; readonly source: PatchSource; readonly projectId?: string; readonly among?: readonly string[] }
  /** Applies an answer that fit several projects to the one a person picked (null: to none). */
  | { readonly type: 'ChooseProject'; readonly choiceId: string; readonly projectId: string | null }
  | { readonly type: 'Approve'; readonly approvalId: string; readonly keep?: readonly string[] }
  | { readonly type: 'Reject'; readonly approvalId: string; readonly reason?: string }
  /** Undo a committed transaction (uuid, unique prefix, or log index) as a new transaction. */
  | { readonly type: 'Revert'; readonly projectId: string; readonly transaction: string }
  | { readonly type: 'RunTick'; readonly projectId: string }
  /** "Approve & commit" a SUCCESS tick (its touched paths only), queued like any task of the project. */
  | { readonly type: 'CommitTick'; readonly projectId: string; readonly runId: string; readonly message: string }
  | { readonly type: 'Ask'; readonly projectId: string; readonly request: AskRequest }
  | { readonly type: 'Review'; readonly projectId: string; readonly request: ReviewRequest }
  | { readonly type: 'BuildHandoff'; readonly projectId: string; readonly request: HandoffRequest }
  | { readonly type: 'CancelTask'; readonly taskId: string }
  /** Tells every listener what the host changed outside a task (history rows written, a crash's rollback found). */
  | { readonly type: 'Announce'; readonly event: Announcement }
  | { readonly type: 'Shutdown' };

export type CommandType = RuntimeCommand['type'];

/** The events the host announces through the runtime (so they take their place in the one sequence of events). */
export type Announcement = Extract<RuntimeEvent, { readonly type: 'runs.changed' | 'runs.rolled-back' }>;

/** The immediate answer to each command. */
export interface CommandReplies {
  readonly RegisterProject: { readonly projectId: string };
  readonly RemoveProject: { readonly projectId: string };
  readonly SetApprovalPolicy: { readonly projectId: string; readonly policy: ApprovalPolicy };
  readonly ApplyPatch: TaskTicket;
  readonly ChooseProject: { readonly choiceId: string; readonly taskId: string | null };
  readonly Approve: { readonly approvalId: string; readonly taskId: string };
  readonly Reject: { readonly approvalId: string; readonly taskId: string };
  readonly Revert: TaskTicket;
  readonly RunTick: TaskTicket;
  readonly CommitTick: TaskTicket;
  readonly Ask: TaskTicket;
  readonly Review: TaskTicket;
  readonly BuildHandoff: TaskTicket;
  readonly CancelTask: { readonly taskId: string; readonly state: 'cancelling' | 'removed' };
  readonly Announce: { readonly seq: number };
  /** `stopped` settles once every task has ended and `lifecycle.stopped` was emitted. */
  readonly Shutdown: { readonly stopped: Promise<void> };
}

/** How a task ended, for callers that wait for it. */
export type TaskSettlement =
  | { readonly taskId: string; readonly status: 'completed'; readonly result: TaskResult }
  | { readonly taskId: string; readonly status: 'failed'; readonly error: FailureData; readonly result: TaskResult | null };

export type { TaskInfo, TaskTicket, DecisionData };
