// The host over a real store file, a real runtime and the real patch engine (fakes only for the
// tick and relay engines, which later issues build).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../../src/engine/patch/transaction.js';
import { ok } from '../../../src/engine/result.js';
import type { RelayEngine, TickEngine } from '../../../src/engine/runtime/index.js';
import { openStore, type Store } from '../../../src/engine/store/index.js';
import { bindIpcMain, createHost, type Host, type IpcMainLike } from '../../../src/host/index.js';
import { CHANNEL_NAMES } from '../../../src/shared/channels.js';
import type { ChannelName, IpcReply } from '../../../src/shared/contract.js';
import { answer, relayProject } from '../../helpers/project.js';
import { gate, nextEvent } from '../../helpers/runtime.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';

function freshStore(): Store {
  return openStore({ file: path.join(tempDir(), 'relay-desk.db') });
}

function value<T>(reply: IpcReply<T>): T {
  if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
  return reply.value;
}

/** A tick engine that writes a real relais/history/<run_id>/ folder, as the tick runner will. */
const writingTick: TickEngine = {
  run: async (root, context) => {
    context.onEvent({ stage: 'judge', payload: { ok: true } });
    const runId = '20300301-120000-cafe0001';
    const dir = path.join(root, 'relais', 'history', runId);
    mkdirSync(dir, { recursive: true });
    const report = {
      run_id: runId,
      started_at: '2030-03-01T12:00:00Z',
      ended_at: '2030-03-01T12:01:00Z',
      verdict: 'blocked',
      code: 'BLOCKED_DIRTY_WORKTREE',
      task: { task_id: 'T', milestone_id: 'M', task_kind: 'execute', intent: 'Tidy up' },
      blast_radius: { files_touched: 0, lines_added: 0, lines_deleted: 0, new_files: 0 },
    };
    writeFileSync(path.join(dir, 'report.json'), JSON.stringify(report));
    writeFileSync(path.join(dir, 'report.md'), '# Blocked\n');
    return ok({ runId, verdict: 'blocked', code: 'BLOCKED_DIRTY_WORKTREE', summary: 'dirty worktree' });
  },
};

const echoRelay: RelayEngine = {
  ask: async (_root, request, context) => {
    context.onOutput('text', 'thinking…');
    return ok({ runId: 'ask-0001', backend: request.backend ?? 'fake', text: `You asked: ${request.prompt}\nMore.`, usage: { inputTokens: 5, outputTokens: 7, costUsd: null } });
  },
  review: async () => ok({ runId: 'review-0001', backend: 'fake', text: 'LGTM', usage: null }),
};

/** A host whose recording failures fail the test, unless the test expects them. */
function hostOn(store: Store, onRecordError: (error: unknown) => void = (error) => { throw error; }): Host {
  return createHost({ store, engines: { tick: writingTick, relay: echoRelay }, onRecordError });
}

async function settle(host: Host, taskId: string): Promise<void> {
  await host.runtime.waitForTask(taskId);
  await new Promise((r) => setImmediate(r));
}

describe('host', () => {
  describe('input checking', () => {
    it('refuses an unknown channel and invalid input with codes, before any handler runs', async () => {
      const host = hostOn(freshStore());
      expect(await host.invoke('dropDatabase', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
      expect(await host.invoke('registerProject', { root: 42 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringContaining('root') } });
      expect(await host.invoke('applyPatch', { text: '', source: 'clipboard' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(await host.invoke('applyPatch', { text: 'x', source: 'clipboard', sneaky: true })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(await host.invoke('approve', null)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
      expect(value(await host.call('listProjects', {}))).toEqual([]);
      expect(host.runtime.state().projects).toEqual([]);
      expect(host.runtime.lastSeq).toBe(1); // only lifecycle.started: nothing ran
    });

    it('returns expected failures as data and unexpected ones as INTERNAL', async () => {
      const store = freshStore();
      const host = hostOn(store, () => undefined);
      expect(await host.call('runTick', { projectId: 'nope' })).toEqual({ ok: false, error: { code: 'UNKNOWN_PROJECT', message: 'No project "nope" is registered.' } });
      expect(await host.call('listRuns', { cursor: 'bogus' })).toMatchObject({ ok: false, error: { code: 'CURSOR_INVALID' } });
      store.close();
      expect(await host.call('listProjects', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    });
  });

  describe('projects', () => {
    it('registers a bare folder like `relay init` would, and shows the history the CLI made in an initialised one', async () => {
      const host = hostOn(freshStore());
      const bare = gitRepo({ 'README.md': 'hi\n' });
      const project = value(await host.call('registerProject', { root: bare, projectId: 'bare-one' }));
      expect(project).toMatchObject({ projectId: 'bare-one', root: bare, settings: { approvalPolicy: { mode: 'ask' }, watching: true }, linter: null, configError: null });
      expect(JSON.parse(readFileSync(path.join(bare, 'relay.config.json'), 'utf8'))).toMatchObject({ projectId: 'bare-one' });
      expect(readFileSync(path.join(bare, '.gitignore'), 'utf8')).toContain('.relaycode/');

      const cli = relayProject({ projectId: 'cli-made' });
      await applyPatch({ root: cli, text: answer({ projectId: 'cli-made', files: { 'x.txt': 'x\n' }, message: 'From the CLI' }), source: 'file', decide: async () => ({ approve: true }) });
      value(await host.call('registerProject', { root: cli }));
      const runs = value(await host.call('listRuns', { projectId: 'cli-made' }));
      expect(runs.runs.map((r) => [r.title, r.origin, r.taskId])).toEqual([['From the CLI', 'file', null]]);

      expect(await host.call('registerProject', { root: cli, projectId: 'other' })).toMatchObject({ ok: false, error: { code: 'PROJECT_ID_MISMATCH' } });
      expect(await host.call('registerProject', { root: 'relative/path' })).toMatchObject({ ok: false, error: { code: 'ROOT_INVALID' } });
      expect(await host.call('registerProject', { root: path.join(bare, 'missing') })).toMatchObject({ ok: false, error: { code: 'ROOT_NOT_FOUND' } });
      const clash = relayProject({ projectId: 'cli-made' });
      expect(await host.call('registerProject', { root: clash })).toMatchObject({ ok: false, error: { code: 'PROJECT_EXISTS' } });
    });

    it('updates the policy in the runtime, the linter in relay.config.json and watching in the store', async () => {
      const host = hostOn(freshStore());
      const root = relayProject({ projectId: 'demo' });
      value(await host.call('registerProject', { root }));
      const updated = value(await host.call('updateProjectSettings', { projectId: 'demo', approvalPolicy: { mode: 'until', until: '2030-01-01T00:00:00Z' }, linter: ['npx', 'tsc', '--noEmit'], watching: false }));
      expect(updated).toMatchObject({ settings: { approvalPolicy: { mode: 'until' }, watching: false }, linter: ['npx', 'tsc', '--noEmit'] });
      expect(host.runtime.state().projects[0]?.policy).toEqual({ mode: 'until', until: '2030-01-01T00:00:00Z' });
      expect(JSON.parse(readFileSync(path.join(root, 'relay.config.json'), 'utf8')).patch.linter).toEqual(['npx', 'tsc', '--noEmit']);
      expect(await host.call('updateProjectSettings', { projectId: 'demo', linter: 'npx tsc && rm -rf /' })).toMatchObject({ ok: false, error: { code: 'COMMAND_INVALID' } });
      expect(value(await host.call('updateProjectSettings', { projectId: 'demo', linter: null })).linter).toBeNull();
      expect(value(await host.call('getSystemPrompt', { projectId: 'demo' })).prompt).toContain('demo');
    });

    it('removes a project unless it has work in progress', async () => {
      const host = hostOn(freshStore());
      const root = relayProject({ projectId: 'demo' });
      value(await host.call('registerProject', { root }));
      const ticket = value(await host.call('applyPatch', { text: answer({ projectId: 'demo', files: { 'a.txt': 'a\n' } }), source: 'clipboard' }));
      const waiting = await nextEvent(host.runtime, 'task.waiting-approval');
      expect(await host.call('removeProject', { projectId: 'demo' })).toMatchObject({ ok: false, error: { code: 'PROJECT_BUSY' } });
      value(await host.call('reject', { approvalId: waiting.approvalId }));
      await settle(host, ticket.taskId);
      expect(value(await host.call('removeProject', { projectId: 'demo' }))).toEqual({ projectId: 'demo' });
      expect(value(await host.call('listProjects', {}))).toEqual([]);
      expect(existsSync(path.join(root, 'relay.config.json'))).toBe(true);
    });
  });

  describe('runs', () => {
    it('records an approved patch from its file of truth, with its task events', async () => {
      const host = hostOn(freshStore());
      const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'old\n' } });
      value(await host.call('registerProject', { root }));
      const ticket = value(await host.call('applyPatch', { text: answer({ projectId: 'demo', files: { 'a.txt': 'new\n' }, message: 'Renew a' }), source: 'paste' }));
      const waiting = await nextEvent(host.runtime, 'task.waiting-approval');
      // While it waits, the history already shows it as pending.
      expect(value(await host.call('listRuns', { status: 'waiting' })).runs.map((r) => r.title)).toEqual(['Renew a']);
      const state = value(await host.call('getRuntimeState', {}));
      expect(state.projects[0]?.approvals.map((a) => a.approvalId)).toEqual([waiting.approvalId]);
      value(await host.call('approve', { approvalId: waiting.approvalId }));
      await settle(host, ticket.taskId);

      const [run] = value(await host.call('listRuns', { projectId: 'demo', kind: 'patch' })).runs;
      expect(run).toMatchObject({ title: 'Renew a', status: 'done', verdict: 'approved', origin: 'file', taskId: ticket.taskId });
      const detail = value(await host.call('getRun', { runId: run!.id }));
      expect(detail.detail).toMatchObject({ kind: 'patch', state: 'approved', gitCommitMsg: 'Renew a', files: [{ path: 'a.txt', diff: expect.stringContaining('+new') }] });
      expect(detail.events.map((e) => e.event.type)).toEqual(expect.arrayContaining(['task.queued', 'task.started', 'task.waiting-approval', 'task.approval-resolved', 'patch.committed', 'task.completed']));
      expect(detail.events.map((e) => e.seq)).toEqual([...detail.events.map((e) => e.seq)].sort((a, b) => a - b));

      const revert = value(await host.call('revert', { projectId: 'demo', transaction: (detail.detail as { uuid: string }).uuid }));
      await settle(host, revert.taskId);
      expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('old\n');
      expect(value(await host.call('getRun', { runId: run!.id })).run.verdict).toBe('reverted');
    });

    it('keeps a rejected patch as an app-only run with what the person saw', async () => {
      const host = hostOn(freshStore());
      const root = relayProject({ projectId: 'demo' });
      value(await host.call('registerProject', { root }));
      const ticket = value(await host.call('applyPatch', { text: answer({ projectId: 'demo', files: { 'b.txt': 'b\n' }, message: 'Add b' }), source: 'clipboard' }));
      const waiting = await nextEvent(host.runtime, 'task.waiting-approval');
      value(await host.call('reject', { approvalId: waiting.approvalId, reason: 'not now' }));
      await settle(host, ticket.taskId);
      const [run] = value(await host.call('listRuns', {})).runs;
      expect(run).toMatchObject({ kind: 'patch', status: 'done', verdict: 'rejected', code: 'REJECTED', origin: 'app', title: 'Add b' });
      expect(value(await host.call('getRun', { runId: run!.id })).detail).toMatchObject({ state: 'rejected', files: [{ path: 'b.txt', diff: expect.stringContaining('+b') }], error: { code: 'REJECTED' } });
    });

    it('records ticks from relais/history and asks from the answer', async () => {
      const host = hostOn(freshStore());
      const root = relayProject({ projectId: 'demo' });
      value(await host.call('registerProject', { root }));
      const tick = value(await host.call('runTick', { projectId: 'demo' }));
      const ask = value(await host.call('ask', { projectId: 'demo', prompt: 'Is this safe?', backend: 'gemini' }));
      expect(ask.position).toBe(1);
      await settle(host, tick.taskId);
      await settle(host, ask.taskId);

      const runs = value(await host.call('listRuns', { projectId: 'demo' })).runs;
      const tickRun = runs.find((r) => r.kind === 'tick')!;
      expect(tickRun).toMatchObject({ verdict: 'blocked', code: 'BLOCKED_DIRTY_WORKTREE', title: 'Tidy up', origin: 'file', taskId: tick.taskId });
      expect(value(await host.call('getRun', { runId: tickRun.id })).detail).toMatchObject({ kind: 'tick', report: { verdict: 'blocked' }, reportMarkdown: '# Blocked\n' });
      const askRun = runs.find((r) => r.kind === 'relay')!;
      expect(askRun).toMatchObject({ status: 'done', summary: 'You asked: Is this safe?', origin: 'app' });
      expect(value(await host.call('getRun', { runId: askRun.id })).detail).toMatchObject({ kind: 'relay', backend: 'gemini', prompt: 'Is this safe?', usage: { inputTokens: 5 } });
      expect(await host.call('buildHandoff', { projectId: 'demo' })).toMatchObject({ ok: false, error: { code: 'ENGINE_UNAVAILABLE' } });
    });

    it('shows a task as running from its start; its final row takes the running row\'s place', async () => {
      const release = gate();
      const slowRelay: RelayEngine = {
        ask: async () => {
          await release.promise;
          return ok({ runId: 'ask-slow', backend: 'fake', text: 'Done thinking.', usage: null });
        },
        review: async () => ok({ runId: 'review', backend: 'fake', text: 'ok', usage: null }),
      };
      const store = freshStore();
      const host = createHost({ store, engines: { relay: slowRelay }, onRecordError: (error) => { throw error; } });
      const root = relayProject({ projectId: 'demo' });
      value(await host.call('registerProject', { root }));
      const ticket = value(await host.call('ask', { projectId: 'demo', prompt: 'Slow one?' }));
      await nextEvent(host.runtime, 'task.started', (e) => e.taskId === ticket.taskId);

      const [running] = value(await host.call('listRuns', {})).runs;
      expect(running).toMatchObject({ kind: 'relay', status: 'running', title: 'Ask: Slow one?', taskId: ticket.taskId, endedAt: null });
      expect(value(await host.call('listRuns', { status: 'running' })).runs).toHaveLength(1);
      expect(value(await host.call('getRun', { runId: running!.id })).run.status).toBe('running');

      // What a process that died mid-task leaves: the next start marks the row interrupted.
      const crashed = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
      crashed.projects.upsert(store.projects.get('demo')!);
      crashed.runs.upsert({ ...running!, detail: null });
      const restarted = createHost({ store: crashed, engines: { relay: slowRelay } });
      expect(crashed.runs.get(running!.id)).toMatchObject({ status: 'failed', code: 'INTERRUPTED', summary: 'Relay Desk stopped before this run ended.' });
      await restarted.close();
      crashed.close();

      release.open();
      await settle(host, ticket.taskId);
      const runs = value(await host.call('listRuns', {})).runs;
      expect(runs.map((r) => [r.status, r.summary])).toEqual([['done', 'Done thinking.']]);
      // A window still showing the running row's address gets the final run.
      expect(value(await host.call('getRun', { runId: running!.id })).run).toMatchObject({ id: runs[0]!.id, status: 'done' });
    });

    it('continues the event seq and the projects\' policies after a restart on the same store', async () => {
      const file = path.join(tempDir(), 'relay-desk.db');
      const store = openStore({ file });
      const first = hostOn(store);
      const root = relayProject({ projectId: 'demo' });
      value(await first.call('registerProject', { root }));
      value(await first.call('updateProjectSettings', { projectId: 'demo', approvalPolicy: { mode: 'auto' } }));
      await first.close();
      const lastSeq = store.events.lastSeq();
      expect(lastSeq).toBe(first.runtime.lastSeq);
      store.close();

      const reopened = openStore({ file });
      const second = hostOn(reopened);
      expect(second.runtime.state().projects).toMatchObject([{ projectId: 'demo', policy: { mode: 'auto' } }]);
      const replay = value(await second.call('replayEvents', { since: 0 }));
      expect(replay.events[0]!.seq).toBe(lastSeq + 1);
      expect(replay.complete).toBe(false);
      await second.close();
    });
  });

  describe('the ipcMain binding', () => {
    it('registers one handler per channel and refuses senders that are not the app window', async () => {
      const handlers = new Map<string, Parameters<IpcMainLike['handle']>[1]>();
      const ipcMain: IpcMainLike = { handle: (channel, listener) => handlers.set(channel, listener), removeHandler: (channel) => handlers.delete(channel) };
      const host = hostOn(freshStore());
      const unbind = bindIpcMain(ipcMain, host, { isTrustedSender: (event) => event.senderFrame?.url.startsWith('file://') ?? false });
      expect(handlers.size).toBe(CHANNEL_NAMES.length);
      const listProjects = handlers.get('relay:listProjects' satisfies `relay:${ChannelName}`)!;
      expect(await listProjects({ senderFrame: { url: 'file:///app/index.html' } }, {})).toEqual({ ok: true, value: [] });
      expect(await listProjects({ senderFrame: { url: 'https://evil.example' } }, {})).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
      unbind();
      expect(handlers.size).toBe(0);
    });
  });
});
