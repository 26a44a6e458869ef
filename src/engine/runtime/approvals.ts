// Approvals waiting for a person: held until an Approve/Reject command, a cancellation or
// shutdown settles them. Every settlement is announced as task.approval-resolved.
import type { TaskInfo } from '../../shared/contract.js';
import type { RuntimeEvent } from '../../shared/events.js';
import type { DecisionData, PatchReview } from '../../shared/schemas.js';
import { fail, ok, type Result } from '../result.js';

/** The part of a task the approval book reads and updates. */
export interface ApprovalTask {
  readonly id: string;
  readonly projectId: string;
  state: TaskInfo['state'];
  cancelReason: 'user' | 'shutdown' | null;
}

export type SettledBy = 'user' | 'cancel' | 'shutdown' | 'no-active-task';

interface Pending {
  readonly approvalId: string;
  readonly task: ApprovalTask;
  readonly review: PatchReview;
  readonly resolve: (decision: DecisionData) => void;
}

export class ApprovalBook {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly emit: (event: RuntimeEvent) => void) {}

  /** Holds a request until it is decided; the task waits meanwhile. */
  hold(approvalId: string, task: ApprovalTask, review: PatchReview): Promise<DecisionData> {
    return new Promise<DecisionData>((resolve) => {
      this.pending.set(approvalId, { approvalId, task, review, resolve });
      task.state = 'waiting-approval';
      this.emit({ type: 'task.waiting-approval', taskId: task.id, projectId: task.projectId, approvalId, review });
    });
  }

  /** A person's decision. An approval no task is waiting for is denied: nothing changes. */
  decide(approvalId: string, decision: DecisionData): Result<{ approvalId: string; taskId: string }> {
    const pending = this.pending.get(approvalId);
    if (!pending) {
      this.emit({ type: 'warning', code: 'APPROVAL_DENIED', message: `No active task is waiting for approval ${approvalId}; the decision was ignored.`, taskId: null, projectId: null });
      return fail('APPROVAL_NOT_FOUND', `No active task is waiting for approval ${approvalId} (it was already decided, cancelled, or never existed). Nothing was changed.`);
    }
    this.settle(pending, decision, 'user');
    return ok({ approvalId, taskId: pending.task.id });
  }

  /** Denies every approval the task is waiting for (a patch then rolls back). */
  denyAll(task: ApprovalTask, by: Exclude<SettledBy, 'user'>): void {
    const reason = by === 'shutdown' ? 'Relay Desk is shutting down' : by === 'cancel' ? 'the task was cancelled' : 'the task ended';
    for (const pending of [...this.pending.values()]) {
      if (pending.task === task) this.settle(pending, { approve: false, reason }, by);
    }
  }

  /** The approvals a project's tasks are waiting for. */
  forProject(projectId: string): Array<{ approvalId: string; taskId: string; review: PatchReview }> {
    return [...this.pending.values()].filter((p) => p.task.projectId === projectId).map((p) => ({ approvalId: p.approvalId, taskId: p.task.id, review: p.review }));
  }

  private settle(pending: Pending, decision: DecisionData, by: SettledBy): void {
    this.pending.delete(pending.approvalId);
    const { task } = pending;
    if (task.state === 'waiting-approval') task.state = task.cancelReason ? 'cancelling' : 'running';
    this.emit({ type: 'task.approval-resolved', taskId: task.id, projectId: task.projectId, approvalId: pending.approvalId, decision, by });
    pending.resolve(decision);
  }
}
