// Live history through a real host: runs made outside it (the CLIs as real processes, a crash
// recovered by another process) are indexed by the recorder from the project's files and
// announced as runs.changed; watchers follow registration; a deep link to a run not indexed yet
// reads its file without writing the store. Every wait is for an event.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/engine/store/index.js';
import { createHost, type Host } from '../../../src/host/index.js';
import type { RuntimeEvent } from '../../../src/shared/events.js';
import { relay } from '../../helpers/cli.js';
import { agentLog, fakeAgentEnv } from '../../helpers/fake-agents.js';
import { answer, relayProject } from '../../helpers/project.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const running: Array<{ host: Host; store: Store }> = [];
afterEach(async () => {
  for (const { host, store } of running.splice(0)) {
    await host.close();
    store.close();
  }
});

function start(options: { debounceMs?: number } = {}): { host: Host; store: Store } {
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  const host = createHost({ store, watch: { debounceMs: options.debounceMs ?? 50, maxWaitMs: Math.max(400, options.debounceMs ?? 0) } });
  running.push({ host, store });
  return { host, store };
}

/** Resolves with the first event of `type` that `match` accepts (from now on). */
function nextEvent<T extends RuntimeEvent['type']>(host: Host, type: T, match: (event: Extract<RuntimeEvent, { type: T }>) => boolean = () => true): Promise<Extract<RuntimeEvent, { type: T }>> {
  return new Promise((resolve) => {
    const stop = host.subscribe(({ event }) => {
      if (event.type === type && match(event as Extract<RuntimeEvent, { type: T }>)) {
        stop();
        resolve(event as Extract<RuntimeEvent, { type: T }>);
      }
    });
  });
}

async function register(host: Host, root: string): Promise<void> {
  const registered = await host.call('registerProject', { root });
  if (!registered.ok) throw new Error(registered.error.message);
}

describe('live history', () => {
  it('watches a project from its registration until its removal, and nothing once the host is closed', async () => {
    const { host } = start();
    const root = relayProject({ projectId: 'demo' });
    await register(host, root);
    expect(host.liveHistory.watching()).toEqual({ demo: expect.arrayContaining([root]) });
    expect((await host.call('removeProject', { projectId: 'demo' })).ok).toBe(true);
    expect(host.liveHistory.watching()).toEqual({});
    await register(host, root);
    expect(Object.keys(host.liveHistory.watching())).toEqual(['demo']);
    await host.close();
    expect(host.liveHistory.watching()).toEqual({});
  });

  it('shows an ask and a saved brief made with the CLI, announced as they are written', async () => {
    const { host } = start();
    const root = relayProject({ projectId: 'demo' });
    await register(host, root);
    const asked = nextEvent(host, 'runs.changed', (e) => e.runIds.some((id) => id.startsWith('demo:relay:')));
    const log = agentLog();
    expect((await relay(['ask', 'Is the cache safe?'], { cwd: root, env: fakeAgentEnv(log) })).exitCode).toBe(0);
    const [askId] = (await asked).runIds.filter((id) => id.startsWith('demo:relay:'));
    const ask = await host.call('getRun', { runId: askId! });
    expect(ask.ok && ask.value).toMatchObject({ run: { kind: 'relay', origin: 'file', title: 'Ask codex: Is the cache safe?' }, detail: { prompt: 'Is the cache safe?', text: 'codex answer to: Is the cache safe?' } });

    const saved = nextEvent(host, 'runs.changed', (e) => e.runIds.some((id) => id.startsWith('demo:handoff:')));
    expect((await relay(['handoff', '--save'], { cwd: root, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tempDir() } })).exitCode).toBe(0);
    const [briefId] = (await saved).runIds;
    const brief = await host.call('getRun', { runId: briefId! });
    expect(brief.ok && brief.value).toMatchObject({ run: { kind: 'handoff', origin: 'file' }, detail: { kind: 'handoff', markdown: expect.stringContaining('# Handoff brief: demo') } });
  });

  it('turns a crashed CLI apply into a waiting run, then, once another command recovers it, a rolled-back run with its diff and a notice', async () => {
    const { host } = start();
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'before\n' } });
    await register(host, root);
    const uuid = '5e3a9d2c-0000-4000-8000-00000000dead';
    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer({ projectId: 'demo', files: { 'a.txt': 'after\n' }, uuid, message: 'Crashing change' }));
    const waiting = nextEvent(host, 'runs.changed', (e) => e.runIds.includes(`demo:patch:${uuid}`));
    const killed = await relay(['apply', file, '--yes'], { cwd: root, env: { RELAY_FAULT: 'all-written' } });
    expect(killed.exitCode).not.toBe(0);
    await waiting;
    expect((await host.call('getRun', { runId: `demo:patch:${uuid}` })).ok).toBe(true);

    const rolledBack = nextEvent(host, 'runs.rolled-back', (e) => e.uuid === uuid);
    await relay(['log'], { cwd: root });
    expect(await rolledBack).toMatchObject({ projectId: 'demo', runId: `demo:patch:${uuid}`, title: 'Crashing change', restored: ['a.txt'] });
    const run = await host.call('getRun', { runId: `demo:patch:${uuid}` });
    expect(run.ok && run.value.run).toMatchObject({ status: 'failed', verdict: 'rolled-back', code: 'APPLY_INTERRUPTED' });
    expect(run.ok && run.value.detail).toMatchObject({ kind: 'patch', state: 'rolled-back', files: [{ path: 'a.txt', diff: expect.stringContaining('+after') }] });
  });

  it('opens a run the moment its file exists (a deep link), reading the file without writing the store', async () => {
    // A watcher that waits a minute: the run is not indexed while the test runs.
    const { host, store } = start({ debounceMs: 60_000 });
    const root = relayProject({ projectId: 'demo' });
    await register(host, root);
    writeFiles(root, {
      'relais/history/20300101-000000-aaaa0001/report.json': JSON.stringify({ run_id: '20300101-000000-aaaa0001', verdict: 'success', code: 'SUCCESS', task: { intent: 'Made by relais run' } }),
      'relais/history/20300101-000000-aaaa0001/meta.json': '{}',
    });
    const id = 'demo:tick:20300101-000000-aaaa0001';
    expect(store.runs.get(id)).toBeNull();
    const run = await host.call('getRun', { runId: id });
    expect(run.ok && run.value).toMatchObject({ run: { id, kind: 'tick', title: 'Made by relais run', origin: 'file' }, detail: { kind: 'tick', runId: '20300101-000000-aaaa0001' } });
    expect(store.runs.get(id)).toBeNull();
    expect(await host.call('getRun', { runId: 'demo:tick:20300101-000000-ffff0009' })).toMatchObject({ ok: false, error: { code: 'RUN_NOT_FOUND' } });
  });

  it('never writes on a read: listing and opening runs leave the runs table alone', async () => {
    const { host, store } = start({ debounceMs: 60_000 });
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'before\n' } });
    await register(host, root);
    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer({ projectId: 'demo', files: { 'a.txt': 'after\n' }, uuid: '0a0a0a0a-0000-4000-8000-000000000001' }));
    expect((await relay(['apply', file, '--yes'], { cwd: root })).exitCode).toBe(0);
    const writes: string[] = [];
    for (const method of ['upsert', 'remove', 'removeIndexed', 'markInterrupted'] as const) {
      const original = store.runs[method] as (...args: never[]) => unknown;
      (store.runs as unknown as Record<string, unknown>)[method] = (...args: never[]) => {
        writes.push(method);
        return original(...args);
      };
    }
    const listed = await host.call('listRuns', { projectId: 'demo' });
    expect(listed.ok && listed.value.runs).toEqual([]); // not indexed yet: the listing did not do it
    expect((await host.call('getRun', { runId: 'demo:patch:0a0a0a0a-0000-4000-8000-000000000001' })).ok).toBe(true);
    expect(writes).toEqual([]);
  });
});
