// "Approve & commit" of a SUCCESS tick through the host: real ticks with the fake Claude in a
// temp git repository, then the commitTick channel, queued through the runtime like any task.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/engine/store/index.js';
import { realEngines } from '../../../src/host/engines.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { gitIn, tempDir } from '../../helpers/temp.js';
import { builderDoes, EDIT_A, makeTask, TickRepo, type Json } from '../tick/harness.js';

const EDIT_B: Json = { op: 'write', path: 'src/b.ts', content: 'export const b = 20;\nexport const c = 3;\n' };

let open: Array<{ host: Host; store: Store }> = [];
afterEach(async () => {
  for (const { host, store } of open) {
    await host.close();
    store.close();
  }
  open = [];
});

async function tickHost(repo: TickRepo) {
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  const env = { ...process.env, IS_SANDBOX: '1', FAKE_CLAUDE_LOG: repo.logFile, FAKE_CLAUDE_SCENARIO: repo.scenarioFile } as Record<string, string>;
  const host = createHost({ store, engines: realEngines({ env }) });
  open.push({ host, store });
  const registered = await host.call('registerProject', { root: repo.root, projectId: 'ticks' });
  if (!registered.ok) throw new Error(registered.error.message);
  repo.commit('relay init'); // registering writes relay.config.json; a tick needs a clean tree
  return host;
}

async function tick(host: Host) {
  const ticket = await host.call('runTick', { projectId: 'ticks' });
  if (!ticket.ok) throw new Error(ticket.error.message);
  const settled = await host.runtime.waitForTask(ticket.value.taskId);
  if (settled?.result?.kind !== 'tick') throw new Error(`no tick result: ${JSON.stringify(settled)}`);
  return settled.result.tick;
}

async function commit(host: Host, runId: string, message = `relais ${runId}: approved`) {
  const ticket = await host.call('commitTick', { projectId: 'ticks', runId, message });
  if (!ticket.ok) throw new Error(ticket.error.message);
  return { ticket: ticket.value, settled: await host.runtime.waitForTask(ticket.value.taskId) };
}

async function tickDetail(host: Host, runId: string) {
  const got = await host.call('getRun', { runId: `ticks:tick:${runId}` });
  if (!got.ok) throw new Error(got.error.message);
  if (got.value.detail?.kind !== 'tick') throw new Error('not a tick detail');
  return { run: got.value.run, detail: got.value.detail };
}

const twoSuccesses = () => ({
  orchestrator: [{ result: makeTask({ fast: ['pass'] }) }, { result: { ...makeTask({ fast: ['pass'] }), task_id: 'T-2', intent: 'Change b.' } }],
  builder: [builderDoes(EDIT_A), { result: { summary: 'Changed b.', files_intended: ['src/b.ts'], commands_ran: [], notes: [] }, edits: [EDIT_B] }],
});

describe('Approve & commit a SUCCESS tick', () => {
  it('offers the commit, commits exactly the touched paths, records commit.json, and unblocks the next tick', async () => {
    const repo = new TickRepo().scenario(twoSuccesses());
    const host = await tickHost(repo);
    const first = await tick(host);
    expect(first).toMatchObject({ verdict: 'success', code: 'SUCCESS' });
    const before = repo.head();

    const offered = await tickDetail(host, first.runId);
    expect(offered.detail.commit).toBeNull();
    expect(offered.detail.commitOffer).toEqual({ suggestedMessage: `relais ${first.runId}: Change the value of a.`, paths: ['src/a.ts'], problem: null });

    // Two commands in a row: the second queues behind the first, then finds the tick committed.
    const one = host.call('commitTick', { projectId: 'ticks', runId: first.runId, message: offered.detail.commitOffer!.suggestedMessage });
    const two = host.call('commitTick', { projectId: 'ticks', runId: first.runId, message: 'again' });
    const [a, b] = await Promise.all([one, two]);
    if (!a.ok || !b.ok) throw new Error('not queued');
    expect([a.value.position, b.value.position]).toEqual([0, 1]);
    const settledA = await host.runtime.waitForTask(a.value.taskId);
    const settledB = await host.runtime.waitForTask(b.value.taskId);
    expect(settledA).toMatchObject({ status: 'completed', result: { kind: 'commit', commit: { runId: first.runId, paths: ['src/a.ts'], parent: before } } });
    expect(settledB).toMatchObject({ status: 'failed', error: { code: 'TICK_ALREADY_COMMITTED' } });

    const sha = repo.head();
    expect(sha).not.toBe(before);
    expect(settledA?.result).toMatchObject({ commit: { commit: sha } });
    expect(gitIn(repo.root, 'show', '--name-only', '--format=%s', 'HEAD').trim().split('\n')).toEqual([`relais ${first.runId}: Change the value of a.`, '', 'src/a.ts']);
    expect(repo.gitStatus()).toBe('');
    const record = JSON.parse(readFileSync(path.join(repo.root, 'relais/history', first.runId, 'commit.json'), 'utf8')) as Json;
    expect(record).toMatchObject({ run_id: first.runId, commit: sha, paths: ['src/a.ts'] });

    const shown = await tickDetail(host, first.runId);
    expect(shown.detail.commit).toMatchObject({ commit: sha, message: `relais ${first.runId}: Change the value of a.` });
    expect(shown.detail.commitOffer).toBeNull();
    expect(shown.run.summary).toContain(`committed ${sha.slice(0, 10)}`);
    // The tick's row keeps its own task; the commit made no row of its own.
    const runs = await host.call('listRuns', { projectId: 'ticks', kind: 'tick' });
    expect(runs.ok && runs.value.runs.map((r) => r.id)).toEqual([`ticks:tick:${first.runId}`]);

    const second = await tick(host);
    expect(second).toMatchObject({ verdict: 'success', code: 'SUCCESS' });
    expect(repo.file('src/b.ts')).toContain('b = 20');
    // The new tick (often started in the same second as the first: run ids alone do not order them) is the one offered.
    expect((await tickDetail(host, second.runId)).detail.commitOffer).toMatchObject({ paths: ['src/b.ts'], problem: null });
    expect((await tickDetail(host, first.runId)).detail.commitOffer).toBeNull();
  });

  it('refuses, naming the files, when the work tree changed outside the tick or a touched file was edited after it', async () => {
    const repo = new TickRepo().scenario(twoSuccesses());
    const host = await tickHost(repo);
    const first = await tick(host);
    const head = repo.head();

    repo.write({ 'README.md': '# edited by hand\n', 'notes.txt': 'new\n' });
    const offered = await tickDetail(host, first.runId);
    expect(offered.detail.commitOffer?.problem).toMatchObject({ code: 'WORKTREE_DIFFERS' });
    const outside = await commit(host, first.runId);
    expect(outside.settled).toMatchObject({ status: 'failed', error: { code: 'WORKTREE_DIFFERS' } });
    const message = outside.settled?.status === 'failed' ? outside.settled.error.message : '';
    expect(message).toContain('README.md');
    expect(message).toContain('notes.txt');
    expect(message).not.toContain('src/a.ts');
    expect(repo.head()).toBe(head);

    gitIn(repo.root, 'checkout', '--', 'README.md');
    gitIn(repo.root, 'clean', '-fq', '--', 'notes.txt');
    repo.write({ 'src/a.ts': 'export const a = 3;\n' });
    const edited = await commit(host, first.runId);
    expect(edited.settled).toMatchObject({ status: 'failed', error: { code: 'TICK_CHANGES_EDITED', message: expect.stringContaining('src/a.ts') } });
    expect(repo.head()).toBe(head);
    expect(existsSync(path.join(repo.root, 'relais/history', first.runId, 'commit.json'))).toBe(false);

    // HEAD moved (someone committed by hand): refused, and no longer offered.
    repo.write({ 'src/a.ts': 'export const a = 2;\n' });
    gitIn(repo.root, 'commit', '-q', '--allow-empty', '-m', 'by hand');
    expect((await commit(host, first.runId)).settled).toMatchObject({ status: 'failed', error: { code: 'HEAD_MOVED' } });
    expect((await tickDetail(host, first.runId)).detail.commitOffer).toBeNull();
  });

  it('refuses a STOP tick and a BLOCKED one, and rejects unsafe input before any path is built', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['fail'] }) }, { result: makeTask() }], builder: [builderDoes(EDIT_A), builderDoes(EDIT_A)] });
    const host = await tickHost(repo);
    const stopped = await tick(host);
    expect(stopped.verdict).toBe('stop');
    expect((await tickDetail(host, stopped.runId)).detail.commitOffer).toBeNull();
    expect((await commit(host, stopped.runId)).settled).toMatchObject({ status: 'failed', error: { code: 'TICK_NOT_SUCCESS' } });

    repo.write({ 'README.md': '# dirty\n' });
    const blocked = await tick(host);
    expect(blocked).toMatchObject({ verdict: 'blocked', code: 'BLOCKED_DIRTY_WORKTREE' });
    expect((await commit(host, blocked.runId)).settled).toMatchObject({ status: 'failed', error: { code: 'TICK_NOT_FOUND' } });

    for (const runId of ['../escape', 'a/b', '', '.hidden']) {
      expect(await host.call('commitTick', { projectId: 'ticks', runId, message: 'x' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    }
    expect(await host.call('commitTick', { projectId: 'ticks', runId: stopped.runId, message: '   ' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.call('commitTick', { projectId: 'ticks', runId: stopped.runId, message: 'x'.repeat(5001) })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
