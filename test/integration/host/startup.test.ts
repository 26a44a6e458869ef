// What the host does with the store's projects when it starts: roll back transactions a dead
// process left pending, and reindex what exists, without dropping the history of a folder that
// is missing for now.
import { existsSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/engine/store/index.js';
import type { RuntimeEvent } from '../../../src/shared/events.js';
import { createHost } from '../../../src/host/index.js';
import { relay } from '../../helpers/cli.js';
import { answer, relayProject } from '../../helpers/project.js';
import { readTree, tempDir } from '../../helpers/temp.js';

describe('host start-up', () => {
  it('rolls back a transaction left pending by a process that died', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'before\n' } });
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const first = createHost({ store });
    expect((await first.call('registerProject', { root })).ok).toBe(true);
    await first.close();
    const before = readTree(root);

    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer({ projectId: 'demo', files: { 'a.txt': 'after\n', 'b.txt': 'new\n' } }));
    const crashed = await relay(['apply', file, '--yes'], { cwd: root, env: { RELAY_FAULT: 'all-written' } });
    expect(crashed.exitCode).not.toBe(0);
    expect(readdirSync(path.join(root, '.relaycode')).some((n) => n.endsWith('.pending.yml'))).toBe(true);

    const second = createHost({ store });
    const notices: RuntimeEvent[] = [];
    second.subscribe(({ event }) => {
      if (event.type === 'runs.rolled-back') notices.push(event);
    });
    await second.recovered;
    expect(readTree(root)).toEqual(before);
    expect(readdirSync(path.join(root, '.relaycode')).some((n) => n.endsWith('.pending.yml'))).toBe(false);
    // The interrupted apply is a run now (from the record recovery left), with its diff, and a notice.
    const runs = await second.call('listRuns', { projectId: 'demo' });
    expect(runs.ok && runs.value.runs.map((r) => [r.kind, r.status, r.verdict, r.code, r.origin])).toEqual([['patch', 'failed', 'rolled-back', 'APPLY_INTERRUPTED', 'file']]);
    expect(notices).toMatchObject([{ type: 'runs.rolled-back', projectId: 'demo', restored: expect.arrayContaining(['a.txt', 'b.txt']) }]);
    const run = runs.ok ? runs.value.runs[0]! : null;
    const detail = await second.call('getRun', { runId: run!.id });
    expect(detail.ok && detail.value.detail).toMatchObject({ kind: 'patch', state: 'rolled-back', error: { code: 'APPLY_INTERRUPTED' } });
    const files = detail.ok && detail.value.detail?.kind === 'patch' ? detail.value.detail.files : [];
    expect(files.map((f) => [f.path, f.change])).toEqual([['a.txt', 'modify'], ['b.txt', 'create']]);
    expect(files[0]!.diff).toContain('-before');
    expect(files[0]!.diff).toContain('+after');
    await second.close();
    store.close();
  });

  it('keeps the history of a project whose folder is missing at start-up', async () => {
    const root = relayProject({ projectId: 'away' });
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const first = createHost({ store });
    expect((await first.call('registerProject', { root })).ok).toBe(true);
    expect((await first.call('updateProjectSettings', { projectId: 'away', approvalPolicy: { mode: 'auto' } })).ok).toBe(true);
    const ticket = await first.call('applyPatch', { text: answer({ projectId: 'away', files: { 'x.txt': 'x\n' } }), source: 'paste' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    expect(await first.runtime.waitForTask(ticket.value.taskId)).toMatchObject({ status: 'completed', result: { patch: { status: 'applied' } } });
    await first.close();

    const moved = `${root}-unmounted`;
    renameSync(root, moved);
    const second = createHost({ store });
    const runs = await second.call('listRuns', { projectId: 'away' });
    expect(runs.ok && runs.value.runs.length).toBe(1);
    const projects = await second.call('listProjects', {});
    expect(projects.ok && projects.value[0]?.configError).toContain('No relay.config.json');
    await second.close();
    renameSync(moved, root);
    expect(existsSync(root)).toBe(true);
    store.close();
  });
});

describe('history while the app is open', () => {
  it('shows a patch applied with the CLI without a restart or a reload, announced as runs.changed', async () => {
    const root = relayProject({ projectId: 'live', files: { 'a.txt': 'before\n' } });
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store });
    expect((await host.call('registerProject', { root })).ok).toBe(true);
    expect((await host.call('listRuns', { projectId: 'live' })).ok && (await host.call('listRuns', { projectId: 'live' }))).toMatchObject({ value: { runs: [] } });

    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer({ projectId: 'live', files: { 'a.txt': 'after\n' } }));
    const announced = new Promise<string[]>((resolve) => {
      const stop = host.subscribe(({ event }) => {
        if (event.type === 'runs.changed' && event.projectId === 'live' && event.runIds.some((id) => id.startsWith('live:patch:'))) {
          stop();
          resolve(event.runIds);
        }
      });
    });
    expect((await relay(['apply', file, '--yes'], { cwd: root })).exitCode).toBe(0);
    await announced;

    const runs = await host.call('listRuns', {});
    expect(runs.ok && runs.value.runs.map((r) => [r.projectId, r.kind, r.origin])).toEqual([['live', 'patch', 'file']]);
    await host.close();
    store.close();
  });
});
