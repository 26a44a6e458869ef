import type { EventEnvelope } from '../shared/events.js';
import type { TrayInput } from './tray-model.js';
import type { NotificationModel } from './notifications.js';

/**
 * Keeps what the tray shows up to date from runtime events: approvals waiting and the last
 * failure the user has not seen. The latest runs come from the store (they outlive a restart).
 */
export class TrayTracker {
  private readonly approvals = new Map<string, { id: string; projectId: string }>();
  private unseenError: { projectId: string | null; message: string } | null = null;

  /** Feeds one event (and the notification it produced, if any). */
  observe(envelope: EventEnvelope, notification: NotificationModel | null): void {
    const event = envelope.event;
    if (event.type === 'task.waiting-approval') this.approvals.set(event.approvalId, { id: event.approvalId, projectId: event.projectId });
    if (event.type === 'task.approval-resolved' || event.type === 'approval.resolved') this.approvals.delete(event.approvalId);
    if (event.type === 'approval.requested') this.approvals.set(event.approvalId, { id: event.approvalId, projectId: event.projectId });
    if (event.type === 'task.completed' || event.type === 'task.failed') {
      for (const [id, approval] of this.approvals) if (approval.projectId === event.projectId) this.approvals.delete(id);
    }
    if (notification && notification.urgent && notification.kind !== 'approval') this.unseenError = { projectId: notification.projectId, message: notification.title };
  }

  /** The user opened the window: errors are seen. */
  markSeen(): void {
    this.unseenError = null;
  }

  /** Replaces the waiting approvals with the runtime's own list (at start-up). */
  resetApprovals(approvals: ReadonlyArray<{ approvalId: string; projectId: string }>): void {
    this.approvals.clear();
    for (const a of approvals) this.approvals.set(a.approvalId, { id: a.approvalId, projectId: a.projectId });
  }

  /** The tray's input, with project names, watching flags and the latest runs supplied by the caller. */
  input(options: { watching: boolean; projects: ReadonlyArray<{ id: string; name: string; watching: boolean }>; recentRuns?: TrayInput['recentRuns'] }): TrayInput {
    const name = (projectId: string | null): string => options.projects.find((p) => p.id === projectId)?.name ?? projectId ?? 'Relay Desk';
    return {
      watching: options.watching,
      pendingApprovals: [...this.approvals.values()].map((a) => ({ id: a.id, projectName: name(a.projectId) })),
      unseenError: this.unseenError ? { projectName: name(this.unseenError.projectId), message: this.unseenError.message } : null,
      projects: options.projects,
      recentRuns: options.recentRuns ?? [],
    };
  }
}
