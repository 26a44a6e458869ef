import { describe, expect, it } from 'vitest';
import { noProjectNotification, notificationFor } from '../../../src/main/notifications.js';
import { TrayTracker } from '../../../src/main/tray-tracker.js';
import type { EventEnvelope, RuntimeEvent } from '../../../src/shared/events.js';

let seq = 0;
const envelope = (event: RuntimeEvent): EventEnvelope => ({ seq: ++seq, ts: 1_700_000_000_000, event });
const names = (id: string): string => ({ p1: 'Shop', p2: 'Blog' })[id] ?? id;
const review = {
  uuid: 'u1',
  projectId: 'p1',
  gitCommitMsg: 'feat: cart totals',
  promptSummary: null,
  reasoning: [],
  warnings: [],
  files: [
    { path: 'a.ts', change: 'modify' as const, added: 3, removed: 1, diff: '' },
    { path: 'b.ts', change: 'create' as const, added: 10, removed: 0, diff: '' },
  ],
  linter: { errorsBefore: 1, errorsAfter: 3, added: 2, output: '' },
  reason: 'linter-errors' as const,
};

describe('notificationFor', () => {
  it('asks for approval with Approve / Reject, naming the project, the change and new linter errors', () => {
    expect(notificationFor(envelope({ type: 'task.waiting-approval', taskId: 't1', projectId: 'p1', approvalId: 'a1', review }), names)).toEqual({
      kind: 'approval',
      title: 'Patch waiting for approval — Shop',
      body: 'feat: cart totals (2 files, +13/-1) — the linter reports 2 new errors',
      projectId: 'p1',
      approvalId: 'a1',
      actions: [
        { kind: 'approve', label: 'Approve' },
        { kind: 'reject', label: 'Reject' },
      ],
      urgent: true,
    });
  });

  it('never offers Approve for a patch that changes code the configured commands run', () => {
    const code = { ...review, linter: null, reason: 'executes-patched-code' as const, executes: [{ path: 'lint.js', why: 'the configured command `node lint.js` runs it' }] };
    const model = notificationFor(envelope({ type: 'task.waiting-approval', taskId: 't1', projectId: 'p1', approvalId: 'a1', review: code }), names);
    expect(model).toMatchObject({ kind: 'approval', approvalId: 'a1', body: expect.stringContaining('open it to review the diff') });
    expect(model).not.toHaveProperty('actions');
  });

  it('tells a patch applied or rolled back once, with the reason', () => {
    expect(notificationFor(envelope({ type: 'patch.committed', taskId: 't1', projectId: 'p2', uuid: 'u', files: review.files }), names)).toMatchObject({ title: 'Patch applied — Blog', body: '2 files, +13/-1' });
    expect(notificationFor(envelope({ type: 'patch.rolled-back', taskId: 't1', projectId: 'p2', uuid: 'u', reason: { code: 'POST_COMMAND_FAILED', message: 'prettier failed\nmore' } }), names)).toMatchObject({
      title: 'Patch rolled back — Blog',
      body: 'POST_COMMAND_FAILED: prettier failed',
      urgent: true,
    });
    const applied = envelope({ type: 'task.completed', taskId: 't1', projectId: 'p2', kind: 'patch', result: { kind: 'patch', patch: { status: 'applied', uuid: 'u', files: [], rolledBack: [], approvedBy: 'auto', warnings: [], error: null } } });
    expect(notificationFor(applied, names)).toBeNull();
  });

  it('says why an answer was not applied', () => {
    const rejected = envelope({
      type: 'task.completed',
      taskId: 't1',
      projectId: 'p1',
      kind: 'patch',
      result: { kind: 'patch', patch: { status: 'rejected', uuid: null, files: [], rolledBack: [], approvedBy: null, warnings: [], error: { code: 'SEARCH_AMBIGUOUS', message: 'src/a.ts: the SEARCH block matches 2 places' } } },
    });
    expect(notificationFor(rejected, names)).toMatchObject({ title: 'Patch not applied — Shop', body: 'SEARCH_AMBIGUOUS: src/a.ts: the SEARCH block matches 2 places' });
  });

  it('reports every tick verdict with its code and blast radius', () => {
    const tick = (verdict: 'success' | 'stop' | 'blocked', code: string, blastRadius: string | null) =>
      notificationFor(envelope({ type: 'task.completed', taskId: 't', projectId: 'p1', kind: 'tick', result: { kind: 'tick', tick: { runId: 'r', verdict, code, summary: 'why', blastRadius } } }), names);
    expect(tick('success', 'SUCCESS', '2 files, +5/-1, 0 new')).toMatchObject({ title: 'Tick SUCCESS — Shop', body: 'why — 2 files, +5/-1, 0 new', urgent: false });
    expect(tick('stop', 'STOP_SCOPE_VIOLATION_FORBIDDEN', '1 files, +1/-0, 0 new')).toMatchObject({ title: 'Tick STOP_SCOPE_VIOLATION_FORBIDDEN — Shop', urgent: true });
    expect(tick('blocked', 'BLOCKED_DIRTY_WORKTREE', null)).toMatchObject({ title: 'Tick BLOCKED_DIRTY_WORKTREE — Shop', body: 'why' });
  });

  it('reports failures but not cancellations, and ignores chatter', () => {
    expect(notificationFor(envelope({ type: 'task.failed', taskId: 't', projectId: 'p1', kind: 'ask', error: { code: 'BACKEND_FAILED', message: 'codex: not logged in' }, result: null }), names)).toMatchObject({ title: 'Ask a friend failed — Shop', body: 'BACKEND_FAILED: codex: not logged in' });
    expect(notificationFor(envelope({ type: 'task.failed', taskId: 't', projectId: 'p1', kind: 'tick', error: { code: 'CANCELLED', message: 'x' }, result: null }), names)).toBeNull();
    expect(notificationFor(envelope({ type: 'relay.output', taskId: 't', projectId: 'p1', stream: 'text', text: 'hi' }), names)).toBeNull();
  });

  it('explains an answer for a project that is not registered', () => {
    expect(noProjectNotification('wiki')).toMatchObject({ kind: 'no-project', title: 'No project for projectId "wiki"', urgent: true });
    const unrouted = envelope({ type: 'patch.unrouted', source: 'clipboard', reason: 'unknown-project', projectId: 'wiki', refusal: null });
    expect(notificationFor(unrouted, names)).toEqual(noProjectNotification('wiki'));
  });

  it('offers the reply of a refused answer, and of the closest refusal when no project fits', () => {
    const refusal = { code: 'SEARCH_NOT_FOUND', message: 'src/a.ts: the SEARCH block was not found\nmore', reply: 'The SEARCH block for src/a.ts did not match…', closest: { startLine: 3, lines: ['x'], similarity: 0.9 }, block: { format: 'search-replace', line: 2, path: 'src/a.ts' } };
    const rejected = envelope({
      type: 'task.completed',
      taskId: 't1',
      projectId: 'p1',
      kind: 'patch',
      result: { kind: 'patch', patch: { status: 'rejected', uuid: null, files: [], rolledBack: [], approvedBy: null, warnings: [], error: refusal, answer: 'the answer' } },
    });
    expect(notificationFor(rejected, names)).toMatchObject({ kind: 'not-applied', taskId: 't1', reply: refusal.reply, actions: [{ kind: 'copy-reply', label: 'Copy reply for the assistant' }] });
    const noFit = envelope({ type: 'patch.unrouted', source: 'clipboard', reason: 'no-fit', projectId: 'p2', refusal });
    expect(notificationFor(noFit, names)).toMatchObject({ kind: 'no-fit', title: 'No registered project fits this answer', body: 'Closest: Blog — SEARCH_NOT_FOUND: src/a.ts: the SEARCH block was not found', reply: refusal.reply, urgent: true });
    // A paste in the window is answered in the window.
    expect(notificationFor(envelope({ type: 'patch.unrouted', source: 'paste', reason: 'no-fit', projectId: 'p2', refusal }), names)).toBeNull();
  });

  it('asks which project an answer that fits several is for, with a button per project (three at most)', () => {
    const asked = envelope({ type: 'patch.choice-requested', choiceId: 'c1', source: 'clipboard', projectIds: ['p1', 'p2', 'p3', 'p4'], title: 'Fix totals' });
    const model = notificationFor(asked, names);
    expect(model).toMatchObject({ kind: 'choose-project', choiceId: 'c1', body: '“Fix totals” fits Shop, Blog, p3, p4. Choose one; nothing was applied yet.', urgent: true });
    expect(model!.actions!.map((a) => a.label)).toEqual(['Apply to Shop', 'Apply to Blog', 'Apply to p3']);
  });
});

describe('TrayTracker', () => {
  it('counts waiting approvals until they are resolved, and keeps an unseen failure until the window opens', () => {
    const tracker = new TrayTracker();
    const projects = [{ id: 'p1', name: 'Shop', watching: true }];
    const waiting = envelope({ type: 'task.waiting-approval', taskId: 't1', projectId: 'p1', approvalId: 'a1', review });
    tracker.observe(waiting, notificationFor(waiting, names));
    expect(tracker.input({ watching: true, projects }).pendingApprovals).toEqual([{ id: 'a1', projectName: 'Shop' }]);
    const resolved = envelope({ type: 'task.approval-resolved', taskId: 't1', projectId: 'p1', approvalId: 'a1', decision: { approve: true }, by: 'user' });
    tracker.observe(resolved, null);
    expect(tracker.input({ watching: true, projects }).pendingApprovals).toEqual([]);

    const failed = envelope({ type: 'task.failed', taskId: 't2', projectId: 'p1', kind: 'tick', error: { code: 'ENGINE_UNAVAILABLE', message: 'no' }, result: null });
    tracker.observe(failed, notificationFor(failed, names));
    const input = tracker.input({ watching: true, projects });
    expect(input.unseenError).toEqual({ projectName: 'Shop', message: 'Tick failed — Shop' });
    expect(input.recentRuns).toEqual([]);
    expect(tracker.input({ watching: true, projects, recentRuns: [{ id: 'r1', label: 'Shop · Tick — STOP_X' }] }).recentRuns).toEqual([{ id: 'r1', label: 'Shop · Tick — STOP_X' }]);
    tracker.markSeen();
    expect(tracker.input({ watching: true, projects }).unseenError).toBeNull();
  });
});
