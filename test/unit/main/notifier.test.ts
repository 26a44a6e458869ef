// The notifier over a stand-in for Electron's Notification class: what it shows, which
// buttons, what clicks and actions do, and that it holds each notification until it is done.
import { describe, expect, it } from 'vitest';
import { createNotifier, type NativeNotificationClass, type NotifierHandlers } from '../../../src/main/notifier.js';
import type { NotificationModel } from '../../../src/main/notifications.js';

type Listener = (...args: unknown[]) => void;

function fakeNotifications(supported = true) {
  const shown: FakeNotification[] = [];
  class FakeNotification {
    static isSupported(): boolean {
      return supported;
    }
    readonly listeners = new Map<string, Listener>();
    closed = false;
    constructor(readonly options: ConstructorParameters<NativeNotificationClass>[0]) {}
    on(event: string, listener: Listener): void {
      this.listeners.set(event, listener);
    }
    show(): void {
      shown.push(this);
    }
    close(): void {
      this.closed = true;
    }
    emit(event: string, ...args: unknown[]): void {
      this.listeners.get(event)?.(...args);
    }
  }
  return { shown, NotificationClass: FakeNotification as unknown as NativeNotificationClass };
}

function recorder() {
  const calls: string[] = [];
  const handlers: NotifierHandlers = {
    open: (model) => void calls.push(`open ${model.title}`),
    approve: (id) => void calls.push(`approve ${id}`),
    reject: (id) => void calls.push(`reject ${id}`),
    copyReply: (reply) => void calls.push(`copy ${reply}`),
    chooseProject: (choiceId, projectId) => void calls.push(`choose ${choiceId} ${projectId}`),
  };
  return { calls, handlers };
}

const approval: NotificationModel = {
  kind: 'approval',
  title: 'Patch waiting for approval — Shop',
  body: 'feat: x (1 file, +1/-0)',
  projectId: 'p1',
  approvalId: 'a1',
  actions: [
    { kind: 'approve', label: 'Approve' },
    { kind: 'reject', label: 'Reject' },
  ],
  urgent: true,
};
const applied: NotificationModel = { kind: 'applied', title: 'Patch applied — Shop', body: '1 file, +1/-0', projectId: 'p1', urgent: false };

describe('createNotifier', () => {
  it('withholds secrets in the title and body before they reach the OS notification centre', () => {
    const { shown, NotificationClass } = fakeNotifications();
    const token = ['ghp', '_', 'aZ3kQ9mX7pL2vB8n'.repeat(3).slice(0, 36)].join('');
    const failure: NotificationModel = { kind: 'failure', title: `Tick failed — ${token}`, body: 'PRE_COMMAND_FAILED: curl https://deploy:hunter22@ci.example/x failed', projectId: 'p1', urgent: true };
    createNotifier(NotificationClass, 'linux').show(failure, recorder().handlers);
    expect(shown[0]!.options.title).toBe('Tick failed — [secret withheld: github-pat]');
    expect(shown[0]!.options.body).toBe('PRE_COMMAND_FAILED: curl https://deploy:[secret withheld: credentials-in-url]@ci.example/x failed');
  });

  it('puts Approve / Reject buttons on approvals where the OS shows them (macOS, Windows), none on Linux', () => {
    for (const [platform, buttons] of [['darwin', true], ['win32', true], ['linux', false]] as const) {
      const { shown, NotificationClass } = fakeNotifications();
      createNotifier(NotificationClass, platform).show(approval, recorder().handlers);
      expect(shown[0]!.options.actions, platform).toEqual(buttons ? [{ type: 'button', text: 'Approve' }, { type: 'button', text: 'Reject' }] : undefined);
      expect(shown[0]!.options).toMatchObject({ title: approval.title, body: approval.body, urgency: 'critical' });
    }
    const { shown, NotificationClass } = fakeNotifications();
    createNotifier(NotificationClass, 'darwin').show(applied, recorder().handlers);
    expect(shown[0]!.options).toMatchObject({ urgency: 'normal' });
    expect(shown[0]!.options.actions).toBeUndefined();
  });

  it('approves or rejects from the buttons (new and old action event shapes) and opens the window on click', () => {
    const { shown, NotificationClass } = fakeNotifications();
    const { calls, handlers } = recorder();
    const notifier = createNotifier(NotificationClass, 'darwin');
    notifier.show(approval, handlers);
    notifier.show({ ...approval, approvalId: 'a2' }, handlers);
    notifier.show(applied, handlers);
    shown[0]!.emit('action', { actionIndex: 0 }, 0);
    shown[1]!.emit('action', {}, 1);
    shown[2]!.emit('click');
    expect(calls).toEqual(['approve a1', 'reject a2', `open ${applied.title}`]);
  });

  it('offers "Copy reply for the assistant" on a refused answer where the OS has buttons; a click opens its run everywhere', () => {
    const refused: NotificationModel = {
      kind: 'not-applied',
      title: 'Patch not applied — Shop',
      body: 'SEARCH_NOT_FOUND: src/a.ts: …',
      projectId: 'p1',
      taskId: 't9',
      reply: 'The SEARCH block for src/a.ts did not match…',
      actions: [{ kind: 'copy-reply', label: 'Copy reply for the assistant' }],
      urgent: true,
    };
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const { shown, NotificationClass } = fakeNotifications();
      const { calls, handlers } = recorder();
      createNotifier(NotificationClass, platform).show(refused, handlers);
      expect(shown[0]!.options.actions, platform).toEqual(platform === 'linux' ? undefined : [{ type: 'button', text: 'Copy reply for the assistant' }]);
      if (platform !== 'linux') shown[0]!.emit('action', { actionIndex: 0 });
      else shown[0]!.emit('click');
      expect(calls, platform).toEqual([platform === 'linux' ? `open ${refused.title}` : `copy ${refused.reply}`]);
    }
  });

  it('applies an answer that fits several projects to the one whose button was pressed, and goes away when chosen elsewhere', () => {
    const choose: NotificationModel = {
      kind: 'choose-project',
      title: 'Which project is this answer for?',
      body: '“Fix totals” fits Shop and Fork.',
      projectId: null,
      choiceId: 'c1',
      actions: [
        { kind: 'choose-project', label: 'Apply to Shop', projectId: 'p1' },
        { kind: 'choose-project', label: 'Apply to Fork', projectId: 'p3' },
      ],
      urgent: true,
    };
    const { shown, NotificationClass } = fakeNotifications();
    const { calls, handlers } = recorder();
    const notifier = createNotifier(NotificationClass, 'darwin');
    notifier.show(choose, handlers);
    expect(shown[0]!.options.actions).toEqual([{ type: 'button', text: 'Apply to Shop' }, { type: 'button', text: 'Apply to Fork' }]);
    shown[0]!.emit('action', { actionIndex: 1 });
    expect(calls).toEqual(['choose c1 p3']);
    notifier.show(choose, handlers);
    notifier.dismissChoice('c1');
    expect(shown[1]!.closed).toBe(true);
  });

  it('holds every notification until it is clicked, answered or closed (Electron only keeps a weak reference)', () => {
    const { shown, NotificationClass } = fakeNotifications();
    const notifier = createNotifier(NotificationClass, 'darwin');
    for (let i = 0; i < 4; i += 1) notifier.show(applied, recorder().handlers);
    expect(notifier.held).toBe(4);
    shown[0]!.emit('click');
    shown[1]!.emit('close');
    shown[2]!.emit('failed');
    expect(notifier.held).toBe(1);
    for (let i = 0; i < 80; i += 1) notifier.show(applied, recorder().handlers);
    expect(notifier.held).toBe(50);
  });

  it('takes an approval notification away once the approval is answered elsewhere', () => {
    const { shown, NotificationClass } = fakeNotifications();
    const notifier = createNotifier(NotificationClass, 'darwin');
    notifier.show(approval, recorder().handlers);
    notifier.show(applied, recorder().handlers);
    notifier.dismissApproval('a1');
    expect(shown.map((n) => n.closed)).toEqual([true, false]);
    expect(notifier.held).toBe(1);
  });

  it('shows nothing where notifications are not supported', () => {
    const { shown, NotificationClass } = fakeNotifications(false);
    createNotifier(NotificationClass, 'linux').show(applied, recorder().handlers);
    expect(shown).toEqual([]);
  });
});
