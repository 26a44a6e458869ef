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
