import { Notification } from 'electron';
import type { NotificationModel } from './notifications.js';

export interface NotifierHandlers {
  /** Clicking a notification opens the window (on the approval, for approvals). */
  readonly open: (model: NotificationModel) => void;
  readonly approve: (approvalId: string) => void;
  readonly reject: (approvalId: string) => void;
}

/** Shows NotificationModels as native notifications, with Approve / Reject where the OS has actions. */
export function showNotification(model: NotificationModel, handlers: NotifierHandlers): void {
  if (!Notification.isSupported()) return;
  const withActions = model.actions !== undefined && process.platform === 'darwin';
  const notification = new Notification({
    title: model.title,
    body: model.body,
    urgency: model.urgent ? 'critical' : 'normal',
    ...(withActions ? { actions: model.actions!.map((text) => ({ type: 'button' as const, text })) } : {}),
  });
  notification.on('click', () => handlers.open(model));
  notification.on('action', (_event, index) => {
    if (!model.approvalId) return;
    if (index === 0) handlers.approve(model.approvalId);
    else handlers.reject(model.approvalId);
  });
  notification.show();
}
