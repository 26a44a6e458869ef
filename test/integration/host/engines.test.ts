// The real engines bound into the host: an Ask through the runtime runs the other agent (a fake
// codex on disk), streams its answer as relay events, and records the run.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/engine/store/index.js';
import { realEngines } from '../../../src/host/engines.js';
import { createHost } from '../../../src/host/index.js';
import type { EventEnvelope } from '../../../src/shared/contract.js';
import { agentLog, fakeAgentEnv } from '../../helpers/fake-agents.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';
import { builderDoes, EDIT_A, makeTask, TickRepo } from '../tick/harness.js';
import { until } from '../../helpers/wait.js';

describe('real engines in the host', () => {
  it('asks a friend through the runtime and records the answer as a relay run', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'x\n' } });
    const log = agentLog();
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store, engines: realEngines({ env: fakeAgentEnv(log) }) });
    const events: EventEnvelope[] = [];
    host.subscribe((e) => void events.push(e));
    expect((await host.call('registerProject', { root })).ok).toBe(true);

    const ticket = await host.call('ask', { projectId: 'demo', prompt: 'Is this fine?' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    const settled = await host.runtime.waitForTask(ticket.value.taskId);
    expect(settled).toMatchObject({ status: 'completed', result: { kind: 'ask', relay: { backend: 'codex' } } });

    expect(log.only()).toMatchObject({ agent: 'codex', cwd: root });
    expect(log.only().argv.join(' ')).toContain('Is this fine?');
    const streamed = events.filter((e) => e.event.type === 'relay.output');
    expect(streamed.length).toBeGreaterThan(0);

    const runs = await host.call('listRuns', { projectId: 'demo', kind: 'relay' });
    expect(runs.ok && runs.value.runs).toHaveLength(1);
    const detail = await host.call('getRun', { runId: runs.ok ? runs.value.runs[0]!.id : '' });
    expect(detail.ok && detail.value.detail).toMatchObject({ kind: 'relay', backend: 'codex', prompt: 'Is this fine?' });
    await host.close();
    store.close();
  });

  it('turns a relay refusal into a failed task with the engine’s code', async () => {
    const root = relayProject({ projectId: 'demo2' });
    const log = agentLog();
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store, engines: realEngines({ env: fakeAgentEnv(log, { PHONE_A_FRIEND_DEPTH: '1' }) }) });
    await host.call('registerProject', { root });
    const ticket = await host.call('ask', { projectId: 'demo2', prompt: 'nested?' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    expect(await host.runtime.waitForTask(ticket.value.taskId)).toMatchObject({ status: 'failed', error: { code: 'DEPTH_LIMIT' } });
    expect(log.calls()).toEqual([]);
    await host.close();
    store.close();
  });
});

describe('handoff through the host', () => {
  it('builds and saves a brief from the project history, recorded as a handoff run', async () => {
    const root = relayProject({ projectId: 'hand', files: { 'a.txt': 'x\n' } });
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store, engines: realEngines({ env: {} }) });
    await host.call('registerProject', { root });
    const ticket = await host.call('buildHandoff', { projectId: 'hand', target: 'codex' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    const settled = await host.runtime.waitForTask(ticket.value.taskId);
    expect(settled).toMatchObject({ status: 'completed', result: { kind: 'handoff' } });
    const runs = await host.call('listRuns', { projectId: 'hand', kind: 'handoff' });
    expect(runs.ok && runs.value.runs).toHaveLength(1);
    const briefPath = runs.ok ? runs.value.runs[0]!.file : null;
    expect(briefPath).toMatch(/^\.relaycode\/handoffs\/brief-\d+-[a-z0-9]+\.md$/);
    await host.close();
    store.close();
  });
});

describe('ticks through the host', () => {
  async function tickHost(repo: TickRepo) {
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const env = { ...process.env, IS_SANDBOX: '1', FAKE_CLAUDE_LOG: repo.logFile, FAKE_CLAUDE_SCENARIO: repo.scenarioFile } as Record<string, string>;
    const host = createHost({ store, engines: realEngines({ env }) });
    const registered = await host.call('registerProject', { root: repo.root, projectId: 'ticks' });
    if (!registered.ok) throw new Error(registered.error.message);
    repo.commit('relay init'); // registering writes relay.config.json; a tick needs a clean tree
    return { host, store };
  }

  it('runs a tick with the real runner, streams its stages, and records the verdict', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['pass'] }), cost: 0.1 }], builder: [{ ...builderDoes(EDIT_A), cost: 0.2 }] });
    const { host, store } = await tickHost(repo);
    const stages: string[] = [];
    host.subscribe((e) => {
      if (e.event.type === 'tick.stage') stages.push(e.event.stage);
    });
    const ticket = await host.call('runTick', { projectId: 'ticks' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    expect(await host.runtime.waitForTask(ticket.value.taskId)).toMatchObject({ status: 'completed', result: { kind: 'tick', tick: { verdict: 'success', code: 'SUCCESS' } } });
    expect(stages).toEqual(['started', 'orchestrated', 'built', 'judged', 'verified', 'reported']);
    expect(repo.file('src/a.ts')).toBe('export const a = 2;\n');
    const runs = await host.call('listRuns', { projectId: 'ticks', kind: 'tick' });
    expect(runs.ok && runs.value.runs[0]).toMatchObject({ verdict: 'success', code: 'SUCCESS' });
    await host.close();
    store.close();
  });

  it('cancelling a tick kills the builder, stops the tick and rolls the repository back', async () => {
    const hold = path.join(tempDir(), 'never-created');
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask() }], builder: [{ ...builderDoes(EDIT_A), wait_for: hold }] });
    const { host, store } = await tickHost(repo);
    const before = repo.snapshot();
    const ticket = await host.call('runTick', { projectId: 'ticks' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    await until('the builder to start', () => repo.calls('builder').length > 0);
    expect((await host.call('cancelTask', { taskId: ticket.value.taskId })).ok).toBe(true);
    const settled = await host.runtime.waitForTask(ticket.value.taskId);
    expect(settled).toMatchObject({ result: { tick: { verdict: 'stop', code: 'STOP_INTERRUPTED' } } });
    repo.expectRolledBack(before);
    await host.close();
    store.close();
  });
});

describe('the handoff nudge through the host', () => {
  it('a tick whose Claude session passes 90% of its context raises a handoff prompt; approving writes a brief', async () => {
    const big = { input_tokens: 1_000, cache_read_input_tokens: 180_000, cache_creation_input_tokens: 0, output_tokens: 2_000 };
    const repo = new TickRepo().scenario({
      orchestrator: [{ result: makeTask(), session_id: 'orch-1' }],
      builder: [{ ...builderDoes(EDIT_A), session_id: 'build-1', usage: big, context_window: 200_000 }],
    });
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const env = { ...process.env, IS_SANDBOX: '1', FAKE_CLAUDE_LOG: repo.logFile, FAKE_CLAUDE_SCENARIO: repo.scenarioFile } as Record<string, string>;
    const host = createHost({ store, engines: realEngines({ env }) });
    await host.call('registerProject', { root: repo.root, projectId: 'nudge' });
    repo.commit('relay init');
    const events: EventEnvelope[] = [];
    host.subscribe((e) => void events.push(e));

    const ticket = await host.call('runTick', { projectId: 'nudge' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    await host.runtime.waitForTask(ticket.value.taskId);
    const usage = events.filter((e) => e.event.type === 'metrics.usage').map((e) => (e.event as { usage: { sessionId?: string; contextTokens?: number } }).usage);
    expect(usage).toEqual([expect.objectContaining({ sessionId: 'orch-1', contextTokens: 150 }), expect.objectContaining({ sessionId: 'build-1', contextTokens: 183_000 })]);
    const state = await host.call('getRuntimeState', {});
    const prompt = state.ok ? state.value.prompts[0] : undefined;
    expect(prompt).toMatchObject({ projectId: 'nudge', kind: 'handoff-prompt', sessionId: 'build-1', pct: 91.5 });

    const approved = await host.call('approve', { approvalId: prompt!.approvalId });
    if (!approved.ok) throw new Error(approved.error.message);
    expect(await host.runtime.waitForTask(approved.value.taskId)).toMatchObject({ status: 'completed', result: { kind: 'handoff' } });
    const briefs = await host.call('listRuns', { projectId: 'nudge', kind: 'handoff' });
    expect(briefs.ok && briefs.value.runs).toHaveLength(1);
    await host.close();
    store.close();
  });
});

describe('usage from an ask with the claude backend', () => {
  it('reports the session’s tokens as metrics, which the handoff nudge watches', async () => {
    const root = relayProject({ projectId: 'askc', files: { 'a.txt': 'x\n' } });
    const log = agentLog();
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store, engines: realEngines({ env: fakeAgentEnv(log) }) });
    const events: EventEnvelope[] = [];
    host.subscribe((e) => void events.push(e));
    await host.call('registerProject', { root });
    const ticket = await host.call('ask', { projectId: 'askc', prompt: 'Is this fine?', backend: 'claude' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    expect(await host.runtime.waitForTask(ticket.value.taskId)).toMatchObject({ status: 'completed' });
    const usage = events.find((e) => e.event.type === 'metrics.usage')?.event as { usage: Record<string, unknown> } | undefined;
    expect(usage?.usage).toMatchObject({ inputTokens: 100, outputTokens: 20, sessionId: '3f2e-fake-session', contextTokens: 120, contextWindow: 200_000 });
    await host.close();
    store.close();
  });
});
