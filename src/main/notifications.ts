import type { EventEnvelope } from '../shared/events.js';

/** A button of a notification (where the OS shows them: macOS, Windows) and what it does. */
export type NotificationAction =
  | { readonly kind: 'approve'; readonly label: 'Approve' }
  | { readonly kind: 'reject'; readonly label: 'Reject' }
  /** Puts the refusal's reply for the assistant on the clipboard. */
  | { readonly kind: 'copy-reply'; readonly label: 'Copy reply for the assistant' }
  /** Applies an answer that fits several projects to this one. */
  | { readonly kind: 'choose-project'; readonly label: string; readonly projectId: string };

/** A desktop notification, described without Electron. */
export interface NotificationModel {
  readonly kind: 'approval' | 'applied' | 'rolled-back' | 'not-applied' | 'tick' | 'failure' | 'no-project' | 'no-fit' | 'choose-project';
  readonly title: string;
  readonly body: string;
  readonly projectId: string | null;
  /** For approvals: the approval the Approve / Reject actions answer. */
  readonly approvalId?: string;
  /** For an answer that fits several projects: the choice its buttons (or the window) make. */
  readonly choiceId?: string;
  /** For a refused answer: the reply for the assistant, which the copy-reply button copies. */
  readonly reply?: string;
  /** The task whose run a click opens (where there are no buttons, the run page has them). */
  readonly taskId?: string;
  /** Buttons, where the OS shows actions. */
  readonly actions?: readonly NotificationAction[];
  /** Failures and approvals stay until the user acts on them. */
  readonly urgent: boolean;
}

const APPROVE_REJECT: readonly NotificationAction[] = [
  { kind: 'approve', label: 'Approve' },
  { kind: 'reject', label: 'Reject' },
];
const COPY_REPLY: NotificationAction = { kind: 'copy-reply', label: 'Copy reply for the assistant' };
/** Project buttons on a choice notification at most (the window's chooser lists every one). */
const MAX_CHOICE_BUTTONS = 3;

function stats(files: ReadonlyArray<{ added: number; removed: number }>): string {
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  return `${files.length} file${files.length === 1 ? '' : 's'}, +${added}/-${removed}`;
}

function firstLine(text: string, max = 160): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Which runtime events deserve a notification, and what it says. Each names its project.
 * An applied or rolled-back patch is told once (by the patch event, not again by the task's end).
 */
export function notificationFor(envelope: EventEnvelope, projectName: (projectId: string) => string): NotificationModel | null {
  const event = envelope.event;
  switch (event.type) {
    case 'task.waiting-approval': {
      const review = event.review;
      const what = review.gitCommitMsg ?? review.promptSummary ?? 'an assistant’s answer';
      const linter = review.linter && review.linter.added > 0 ? ` — the linter reports ${review.linter.added} new error${review.linter.added === 1 ? '' : 's'}` : '';
      // Code the configured commands would run is approved in the diff dialog, never blind from a notification.
      const code = review.reason === 'executes-patched-code';
      return {
        kind: 'approval',
        title: `Patch waiting for approval — ${projectName(event.projectId)}`,
        body: `${firstLine(what)} (${stats(review.files)})${linter}${code ? ' — it changes files your commands run; open it to review the diff' : ''}`,
        projectId: event.projectId,
        approvalId: event.approvalId,
        ...(code ? {} : { actions: APPROVE_REJECT }),
        urgent: true,
      };
    }
    case 'patch.committed':
      return { kind: 'applied', title: `Patch applied — ${projectName(event.projectId)}`, body: stats(event.files), projectId: event.projectId, urgent: false };
    case 'patch.rolled-back':
      return {
        kind: 'rolled-back',
        title: `Patch rolled back — ${projectName(event.projectId)}`,
        body: event.reason.code === 'REJECTED' ? 'Every file is back as it was.' : `${event.reason.code}: ${firstLine(event.reason.message)}`,
        projectId: event.projectId,
        urgent: event.reason.code !== 'REJECTED',
      };
    case 'task.completed': {
      const result = event.result;
      if (result.kind === 'tick') {
        const { tick } = result;
        const blast = tick.blastRadius ? ` — ${tick.blastRadius}` : '';
        return {
          kind: 'tick',
          title: `Tick ${tick.verdict === 'success' ? 'SUCCESS' : tick.code} — ${projectName(event.projectId)}`,
          body: `${firstLine(tick.summary)}${blast}`,
          projectId: event.projectId,
          urgent: tick.verdict !== 'success',
        };
      }
      if ((result.kind === 'patch' || result.kind === 'revert') && (result.patch.status === 'rejected' || result.patch.status === 'skipped')) {
        const problem = result.patch.error;
        // A refused answer offers its reply: a button where the OS has them, the run page (a click away) everywhere.
        const reply = result.patch.status === 'rejected' ? problem?.reply : undefined;
        return {
          kind: 'not-applied',
          title: `${result.patch.status === 'skipped' ? 'Nothing to apply' : 'Patch not applied'} — ${projectName(event.projectId)}`,
          body: problem ? `${problem.code}: ${firstLine(problem.message)}` : 'The answer was not applied.',
          projectId: event.projectId,
          taskId: event.taskId,
          ...(reply ? { reply, actions: [COPY_REPLY] } : {}),
          urgent: result.patch.status === 'rejected',
        };
      }
      return null;
    }
    case 'task.failed':
      if (event.error.code === 'CANCELLED') return null;
      return {
        kind: 'failure',
        title: `${event.kind === 'tick' ? 'Tick' : event.kind === 'ask' || event.kind === 'review' ? 'Ask a friend' : event.kind === 'handoff' ? 'Handoff' : event.kind === 'commit' ? 'Commit' : 'Patch'} failed — ${projectName(event.projectId)}`,
        body: `${event.error.code}: ${firstLine(event.error.message)}`,
        projectId: event.projectId,
        urgent: true,
      };
    case 'approval.requested':
      return {
        kind: 'approval',
        title: `Context almost full — ${projectName(event.projectId)}`,
        body: `An agent session is at ${event.pct}% of its context window. Write a handoff brief so a fresh session can carry on?`,
        projectId: event.projectId,
        approvalId: event.approvalId,
        actions: APPROVE_REJECT,
        urgent: true,
      };
    case 'error':
      return { kind: 'failure', title: `Relay Desk error${event.projectId ? ` — ${projectName(event.projectId)}` : ''}`, body: `${event.code}: ${firstLine(event.message)}`, projectId: event.projectId, urgent: true };
    // A paste in the window is answered in the window; only the clipboard needs the desktop to speak.
    case 'patch.unrouted':
      if (event.source !== 'clipboard') return null;
      if (event.reason === 'unknown-project') return noProjectNotification(event.projectId);
      return {
        kind: 'no-fit',
        title: 'No registered project fits this answer',
        body: `Closest: ${projectName(event.projectId)}${event.refusal ? ` — ${event.refusal.code}: ${firstLine(event.refusal.message)}` : ''}`,
        projectId: event.projectId,
        ...(event.refusal?.reply ? { reply: event.refusal.reply, actions: [COPY_REPLY] } : {}),
        urgent: true,
      };
    case 'patch.choice-requested': {
      if (event.source !== 'clipboard') return null;
      const names = event.projectIds.map(projectName);
      return {
        kind: 'choose-project',
        title: 'Which project is this answer for?',
        body: `“${firstLine(event.title, 80)}” fits ${names.length === 2 ? names.join(' and ') : names.join(', ')}. Choose one; nothing was applied yet.`,
        projectId: null,
        choiceId: event.choiceId,
        actions: event.projectIds.slice(0, MAX_CHOICE_BUTTONS).map((projectId) => ({ kind: 'choose-project' as const, label: `Apply to ${projectName(projectId)}`, projectId })),
        urgent: true,
      };
    }
    default:
      return null;
  }
}

/** The notification for a clipboard answer whose control block names no registered, watching project. */
export function noProjectNotification(projectId: string): NotificationModel {
  return {
    kind: 'no-project',
    title: `No project for projectId "${projectId}"`,
    body: 'The copied answer was not applied. Register that project in Relay Desk (or turn its watching on), then copy the answer again.',
    projectId: null,
    urgent: true,
  };
}
