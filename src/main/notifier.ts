// Native notifications, written against the few members of Electron's Notification it uses so
// that a plain Node test can drive clicks and actions. app-shell passes Electron's class.
import { redactSecrets } from '../engine/secrets/index.js';
import { assertNever } from '../engine/result.js';
import type { NotificationAction, NotificationModel } from './notifications.js';

export interface NotifierHandlers {
  /** Clicking a notification opens the window (where the approval dialog shows, for approvals; on the run, for a refused answer). */
  readonly open: (model: NotificationModel) => void;
  readonly approve: (approvalId: string) => void;
  readonly reject: (approvalId: string) => void;
  /** "Copy reply for the assistant": puts a refusal's reply on the clipboard. */
  readonly copyReply: (reply: string) => void;
  /** Applies an answer that fits several projects to the one picked. */
  readonly chooseProject: (choiceId: string, projectId: string) => void;
}

/** What the notifier needs of one native notification. */
export interface NativeNotification {
  on(event: 'click' | 'close' | 'failed', listener: () => void): void;
  /** Electron passes `{ actionIndex }` first; older versions passed the index second. */
  on(event: 'action', listener: (details: { readonly actionIndex?: number } | undefined, index?: number) => void): void;
  show(): void;
  close(): void;
}

/** What the notifier needs of Electron's Notification class. */
export interface NativeNotificationClass {
  isSupported(): boolean;
  new (options: {
    title: string;
    body: string;
    urgency?: 'normal' | 'critical' | 'low';
    actions?: Array<{ type: 'button'; text: string }>;
  }): NativeNotification;
}

export interface Notifier {
  /** Shows a NotificationModel, with its buttons where the OS has actions. */
  show(model: NotificationModel, handlers: NotifierHandlers): void;
  /** Takes an approval's notification away once the approval is answered elsewhere. */
  dismissApproval(approvalId: string): void;
  /** Takes a choice's notification away once the project was picked (or the choice dropped) elsewhere. */
  dismissChoice(choiceId: string): void;
  /** How many notifications are still held (for tests). */
  readonly held: number;
}

/** Runs a notification's button. */
function act(model: NotificationModel, action: NotificationAction, handlers: NotifierHandlers): void {
  switch (action.kind) {
    case 'approve':
      if (model.approvalId) handlers.approve(model.approvalId);
      return;
    case 'reject':
      if (model.approvalId) handlers.reject(model.approvalId);
      return;
    case 'copy-reply':
      if (model.reply) handlers.copyReply(model.reply);
      return;
    case 'choose-project':
      if (model.choiceId) handlers.chooseProject(model.choiceId, action.projectId);
      return;
    default:
      assertNever(action);
  }
}

/** Notification buttons exist on macOS and (since Electron 39) Windows; Linux shows none. */
export function supportsActions(platform: NodeJS.Platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}

/** Notifications kept alive at most: the oldest are let go (the OS has long hidden them). */
const MAX_HELD = 50;

/**
 * Electron keeps only a weak reference to a main-process Notification: once the JS object is
 * collected, its click and action handlers never run (electron/electron#16922). An approval can
 * sit in the notification centre for minutes, so every notification is held here until it is
 * clicked, answered or closed.
 */
export function createNotifier(NotificationClass: NativeNotificationClass, platform: NodeJS.Platform = process.platform): Notifier {
  const held = new Map<NativeNotification, NotificationModel>();
  const release = (notification: NativeNotification): void => void held.delete(notification);
  const dismiss = (which: (model: NotificationModel) => boolean): void => {
    for (const [notification, model] of held) {
      if (!which(model)) continue;
      held.delete(notification);
      notification.close();
    }
  };

  return {
    show(model, handlers) {
      if (!NotificationClass.isSupported()) return;
      const actions = supportsActions(platform) ? (model.actions ?? []) : [];
      // Bodies quote error messages and commit subjects; the OS keeps notifications in a history
      // other apps and the lock screen can show, so secrets are withheld before they leave.
      const notification = new NotificationClass({
        title: redactSecrets(model.title),
        body: redactSecrets(model.body),
        urgency: model.urgent ? 'critical' : 'normal',
        ...(actions.length > 0 ? { actions: actions.map((action) => ({ type: 'button' as const, text: action.label })) } : {}),
      });
      notification.on('click', () => {
        release(notification);
        handlers.open(model);
      });
      notification.on('action', (details, index) => {
        release(notification);
        const which = details?.actionIndex ?? index;
        const action = which === undefined ? undefined : actions[which];
        if (action) act(model, action, handlers);
      });
      notification.on('close', () => release(notification));
      notification.on('failed', () => release(notification));
      held.set(notification, model);
      for (const oldest of held.keys()) {
        if (held.size <= MAX_HELD) break;
        held.delete(oldest);
      }
      notification.show();
    },
    dismissApproval(approvalId) {
      dismiss((model) => model.approvalId === approvalId);
    },
    dismissChoice(choiceId) {
      dismiss((model) => model.choiceId === choiceId);
    },
    get held() {
      return held.size;
    },
  };
}
