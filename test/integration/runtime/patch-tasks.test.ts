// The runtime driving the real patch engine on real git repos: approvals, queueing, shutdown
// and cancellation, checked against the files on disk and real child processes.
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../../src/engine/runtime/index.js';
import { isProcessAlive } from '../../../src/engine/fs/process.js';
import type { ApprovalPolicy } from '../../../src/shared/schemas.js';
import { answer, relayProject } from '../../helpers/project.js';
import { counterIds, nextEvent, record } from '../../helpers/runtime.js';
import { pidWrittenTo } from '../../helpers/processes.js';
import { readTree, tempDir } from '../../helpers/temp.js';

function startWith(root: string, policy: ApprovalPolicy, clock?: () => number): Runtime {
  const runtime = createRuntime({ newId: counterIds('t'), ...(clock ? { clock } : {}) });
  runtime.send({ type: 'RegisterProject', projectId: 'demo', root, name: 'Demo', policy });
  return runtime;
}

/** The task id of an accepted command. */
function taskOf(reply: ReturnType<Runtime['send']>): string {
  if (!reply.ok || !('taskId' in reply.value) || typeof reply.value.taskId !== 'string') throw new Error(`command refused: ${JSON.stringify(reply)}`);
  return reply.value.taskId;
}

function pendingRecords(root: string): string[] {
  const dir = path.join(root, '.relaycode');
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.pending.yml')) : [];
}

/** A script that writes its pid to argv[2] and then sleeps until killed (only when `onlyIf` exists in its cwd, if given). */
function sleeperScript(): { script: string; pidFile: string } {
  const dir = tempDir('relay-sleeper-');
  const script = path.join(dir, 'sleeper.cjs');
  writeFileSync(
    script,
    [
      "const fs = require('node:fs');",
      'const onlyIf = process.argv[3];',
      'if (onlyIf && !fs.existsSync(onlyIf)) process.exit(0);',
      'fs.writeFileSync(process.argv[2], String(process.pid));',
      'setInterval(() => {}, 1000);',
    ].join('\n'),
  );
  return { script, pidFile: path.join(dir, 'pid') };
}

describe('runtime with the patch engine', () => {
  it('holds a patch for approval under "ask" and commits it when approved', async () => {
    const root = relayProject({ projectId: 'demo' });
    const runtime = startWith(root, { mode: 'ask' });
    const reply = runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'src/a.txt': 'one\n' }, message: 'Add a' }), source: 'clipboard' });
    expect(reply).toEqual({ ok: true, value: { taskId: 't-1', projectId: 'demo', position: 0 } });

    const waiting = await nextEvent(runtime, 'task.waiting-approval');
    expect(waiting.review.files).toEqual([expect.objectContaining({ path: 'src/a.txt', change: 'create', added: 1, diff: expect.stringContaining('+one') })]);
    expect(waiting.review.gitCommitMsg).toBe('Add a');
    expect(runtime.state().projects[0]?.approvals.map((a) => a.approvalId)).toEqual([waiting.approvalId]);

    expect(runtime.send({ type: 'Approve', approvalId: waiting.approvalId })).toEqual({ ok: true, value: { approvalId: waiting.approvalId, taskId: 't-1' } });
    const settled = await runtime.waitForTask('t-1');
    expect(settled).toMatchObject({ status: 'completed', result: { kind: 'patch', patch: { status: 'applied', approvedBy: 'user' } } });
    expect(readFileSync(path.join(root, 'src/a.txt'), 'utf8')).toBe('one\n');
    expect(pendingRecords(root)).toEqual([]);
    // The same approval cannot be used twice.
    expect(runtime.send({ type: 'Approve', approvalId: waiting.approvalId })).toMatchObject({ ok: false, error: { code: 'APPROVAL_NOT_FOUND' } });
  });

  it('queues a second clipboard patch behind one waiting for approval, without interleaving', async () => {
    const root = relayProject({ projectId: 'demo' });
    const runtime = startWith(root, { mode: 'ask' });
    const seen = record(runtime);
    const before = readTree(root);
    const t1 = taskOf(runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'first.txt': '1\n' } }), source: 'clipboard' }));
    const first = await nextEvent(runtime, 'task.waiting-approval', (e) => e.taskId === t1);

    const second = runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'second.txt': '2\n' } }), source: 'clipboard' });
    expect(second).toMatchObject({ ok: true, value: { projectId: 'demo', position: 1 } });
    const t2 = taskOf(second);
    // Queued behind the waiting one. That it never starts (nor writes) before the first has ended
    // is shown by what the tree holds at the first's end and by the order of events, not by
    // waiting a while and looking.
    expect(runtime.state().projects[0]?.queued.map((t) => t.taskId)).toEqual([t2]);
    const atFirstEnd: string[] = [];
    runtime.subscribe((e) => {
      if (e.event.type === 'task.completed' && e.event.taskId === t1) atFirstEnd.push(...['first.txt', 'second.txt'].filter((f) => existsSync(path.join(root, f))));
    });

    runtime.send({ type: 'Reject', approvalId: first.approvalId, reason: 'not this one' });
    const secondWaiting = await nextEvent(runtime, 'task.waiting-approval', (e) => e.taskId === t2);
    expect(existsSync(path.join(root, 'first.txt'))).toBe(false);
    runtime.send({ type: 'Approve', approvalId: secondWaiting.approvalId });
    await runtime.waitForTask(t2);

    expect(readTree(root)).toEqual(new Map([...before, ['second.txt', '2\n']]));
    expect(await runtime.waitForTask(t1)).toMatchObject({ status: 'completed', result: { patch: { status: 'rolled-back', error: { code: 'REJECTED' } } } });
    // Every event of the second task comes after the first task's end.
    const firstEnd = seen.find((e) => e.event.type === 'task.completed' && e.event.taskId === t1)!.seq;
    const secondStart = seen.find((e) => e.event.type === 'task.started' && e.event.taskId === t2)!.seq;
    expect(secondStart).toBeGreaterThan(firstEnd);
    expect(atFirstEnd).toEqual([]);
  });

  it('applies at once under "auto" and under an "until" in the future, and asks once the "until" has passed', async () => {
    let now = Date.parse('2030-01-01T12:00:00Z');
    const root = relayProject({ projectId: 'demo', patch: { approvalMode: 'manual' } });
    const runtime = startWith(root, { mode: 'auto' }, () => now);
    const seen = record(runtime);

    const auto = taskOf(runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'auto.txt': 'a\n' } }), source: 'paste' }));
    expect(await runtime.waitForTask(auto)).toMatchObject({ result: { patch: { status: 'applied' } } });

    runtime.send({ type: 'SetApprovalPolicy', projectId: 'demo', policy: { mode: 'until', until: '2030-01-01T13:00:00Z' } });
    const until = taskOf(runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'until.txt': 'u\n' } }), source: 'paste' }));
    expect(await runtime.waitForTask(until)).toMatchObject({ result: { patch: { status: 'applied' } } });
    expect(seen.filter((e) => e.event.type === 'task.waiting-approval')).toEqual([]);
    expect(seen.filter((e) => e.event.type === 'task.approval-resolved').map((e) => (e.event as { by: string }).by)).toEqual(['policy', 'policy']);

    now = Date.parse('2030-01-01T13:00:01Z');
    const late = taskOf(runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'late.txt': 'l\n' } }), source: 'paste' }));
    const waiting = await nextEvent(runtime, 'task.waiting-approval', (e) => e.taskId === late);
    runtime.send({ type: 'Approve', approvalId: waiting.approvalId });
    expect(await runtime.waitForTask(late)).toMatchObject({ result: { patch: { status: 'applied', approvedBy: 'user' } } });
  });

  it('keeps only the files a partial approval names', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'keep.txt': 'old\n', 'drop.txt': 'old\n' } });
    const runtime = startWith(root, { mode: 'ask' });
    runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'keep.txt': 'new\n', 'drop.txt': 'new\n' } }), source: 'clipboard' });
    const waiting = await nextEvent(runtime, 'task.waiting-approval');
    runtime.send({ type: 'Approve', approvalId: waiting.approvalId, keep: ['keep.txt'] });
    expect(await runtime.waitForTask('t-1')).toMatchObject({ result: { patch: { status: 'applied', rolledBack: ['drop.txt'] } } });
    expect(readFileSync(path.join(root, 'keep.txt'), 'utf8')).toBe('new\n');
    expect(readFileSync(path.join(root, 'drop.txt'), 'utf8')).toBe('old\n');
  });

  it('on shutdown denies a pending approval and rolls the applied patch back', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'app.txt': 'v1\n' } });
    const runtime = startWith(root, { mode: 'ask' });
    const seen = record(runtime);
    const before = readTree(root);
    const t1 = taskOf(runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'app.txt': 'v2\n', 'new/dir/file.txt': 'x\n' } }), source: 'clipboard' }));
    const t2 = taskOf(runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'queued.txt': 'q\n' } }), source: 'clipboard' }));
    await nextEvent(runtime, 'task.waiting-approval');
    // The patch is on disk while it waits.
    expect(readFileSync(path.join(root, 'app.txt'), 'utf8')).toBe('v2\n');
    expect(pendingRecords(root)).toHaveLength(1);

    await runtime.shutdown();

    expect(readTree(root)).toEqual(before);
    expect(existsSync(path.join(root, 'new'))).toBe(false);
    expect(pendingRecords(root)).toEqual([]);
    expect(await runtime.waitForTask(t1)).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' }, result: { patch: { status: 'rolled-back' } } });
    expect(await runtime.waitForTask(t2)).toMatchObject({ status: 'failed', error: { code: 'CANCELLED', message: expect.stringContaining('before the task started') } });
    const events = seen.map((e) => e.event);
    expect(events.find((e) => e.type === 'task.approval-resolved')).toMatchObject({ by: 'shutdown', decision: { approve: false } });
    expect(events.map((e) => e.type)).toContain('patch.rolled-back');
    expect(events.at(-1)?.type).toBe('lifecycle.stopped');
  });

  it('kills a running preCommand when the task is cancelled, and writes nothing', async () => {
    const { script, pidFile } = sleeperScript();
    const root = relayProject({ projectId: 'demo', patch: { preCommand: [process.execPath, script, pidFile] } });
    const runtime = startWith(root, { mode: 'auto' });
    const before = readTree(root);
    runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'x.txt': 'x\n' } }), source: 'clipboard' });
    const pid = await pidWrittenTo(pidFile);
    expect(isProcessAlive(pid)).toBe(true);

    expect(runtime.send({ type: 'CancelTask', taskId: 't-1' })).toEqual({ ok: true, value: { taskId: 't-1', state: 'cancelling' } });
    const settled = await runtime.waitForTask('t-1');
    expect(settled).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' }, result: { patch: { status: 'rejected', error: { code: 'PRE_COMMAND_FAILED' } } } });
    expect(isProcessAlive(pid)).toBe(false);
    expect(readTree(root)).toEqual(before);
  });

  it('on shutdown kills the linter of a written patch and rolls the patch back', async () => {
    const { script, pidFile } = sleeperScript();
    // The linter sleeps only once the patch's file exists, i.e. on its run after the write.
    const root = relayProject({ projectId: 'demo', patch: { linter: [process.execPath, script, pidFile, 'written.txt'] } });
    const runtime = startWith(root, { mode: 'auto' });
    const before = readTree(root);
    runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'written.txt': 'w\n' } }), source: 'clipboard' });
    const pid = await pidWrittenTo(pidFile);
    expect(existsSync(path.join(root, 'written.txt'))).toBe(true);

    await runtime.shutdown();

    expect(isProcessAlive(pid)).toBe(false);
    expect(readTree(root)).toEqual(before);
    expect(pendingRecords(root)).toEqual([]);
    expect(await runtime.waitForTask('t-1')).toMatchObject({ status: 'failed', error: { code: 'CANCELLED' }, result: { patch: { status: 'rolled-back' } } });
  });

  it('reverts a committed transaction as a new one', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'before\n' } });
    const runtime = startWith(root, { mode: 'auto' });
    const applied = await runtime.waitForTask(taskOf(runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'a.txt': 'after\n' } }), source: 'paste' })));
    const uuid = applied?.status === 'completed' && applied.result.kind === 'patch' ? applied.result.patch.uuid : null;
    expect(uuid).toBeTruthy();
    const revert = taskOf(runtime.send({ type: 'Revert', projectId: 'demo', transaction: uuid! }));
    expect(await runtime.waitForTask(revert)).toMatchObject({ status: 'completed', result: { kind: 'revert', patch: { status: 'applied' } } });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('before\n');
  });
});
