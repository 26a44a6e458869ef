// The handoff nudge in the runtime: an agent session whose context passes 90% raises one
// approval of kind handoff-prompt (once per session and threshold); declining changes nothing,
// accepting queues a handoff brief, shutdown declines.
import { describe, expect, it } from 'vitest';
import { createRuntime, type HandoffEngine, type TickEngine } from '../../../src/engine/runtime/index.js';
import { ok } from '../../../src/engine/result.js';
import type { Usage } from '../../../src/shared/schemas.js';
import { counterIds, nextEvent, record } from '../../helpers/runtime.js';

/** A tick engine that reports the given usage figures, then succeeds. */
function reportingTicks(reports: Usage[][]): TickEngine {
  let call = 0;
  return {
    run: async (_root, context) => {
      for (const usage of reports[call++] ?? []) context.onUsage(usage);
      return ok({ runId: `r${call}`, verdict: 'success', code: 'SUCCESS', summary: 'ok' });
    },
  };
}

const usage = (sessionId: string, contextTokens: number): Usage => ({ inputTokens: contextTokens, outputTokens: 0, costUsd: 0.01, sessionId, contextTokens, contextWindow: 200_000 });

describe('handoff prompts', () => {
  it('raises one prompt when a session crosses 90%, not again for it, and one per other session', async () => {
    const ticks = reportingTicks([
      [usage('s1', 100_000), usage('s1', 182_000), usage('s1', 190_000)],
      [usage('s1', 199_000), usage('s2', 185_000)],
    ]);
    const runtime = createRuntime({ newId: counterIds(), engines: { tick: ticks } });
    const seen = record(runtime);
    runtime.send({ type: 'RegisterProject', projectId: 'p', root: '/p', name: 'P' });
    runtime.send({ type: 'RunTick', projectId: 'p' });
    await nextEvent(runtime, 'task.completed');
    runtime.send({ type: 'RunTick', projectId: 'p' });
    await nextEvent(runtime, 'task.completed');

    const prompts = seen.map((e) => e.event).filter((e) => e.type === 'approval.requested');
    expect(prompts).toEqual([
      expect.objectContaining({ projectId: 'p', kind: 'handoff-prompt', sessionId: 's1', thresholdPct: 90, pct: 91 }),
      expect.objectContaining({ sessionId: 's2', pct: 92.5 }),
    ]);
    expect(runtime.state().prompts.map((p) => p.sessionId)).toEqual(['s1', 's2']);
    await runtime.shutdown();
    expect(runtime.state().prompts).toEqual([]);
    expect(seen.map((e) => e.event).filter((e) => e.type === 'approval.resolved')).toEqual([
      expect.objectContaining({ accepted: false, by: 'shutdown' }),
      expect.objectContaining({ accepted: false, by: 'shutdown' }),
    ]);
  });

  it('declining does nothing; accepting queues a handoff brief for the project', async () => {
    const built: string[] = [];
    const handoff: HandoffEngine = { build: async (root) => (built.push(root), ok({ briefId: 'brief-1-a', path: '.relaycode/handoffs/brief-1-a.md', tokens: 10, warnings: [] })) };
    const runtime = createRuntime({ newId: counterIds(), engines: { tick: reportingTicks([[usage('a', 195_000)], [usage('b', 195_000)]]), handoff } });
    const seen = record(runtime);
    runtime.send({ type: 'RegisterProject', projectId: 'p', root: '/p', name: 'P' });
    runtime.send({ type: 'RunTick', projectId: 'p' });
    const first = await nextEvent(runtime, 'approval.requested', (e) => e.sessionId === 'a');
    expect(runtime.send({ type: 'Reject', approvalId: first.approvalId })).toEqual({ ok: true, value: { approvalId: first.approvalId, taskId: '' } });
    expect(built).toEqual([]);

    runtime.send({ type: 'RunTick', projectId: 'p' });
    const second = await nextEvent(runtime, 'approval.requested', (e) => e.sessionId === 'b');
    const accepted = runtime.send({ type: 'Approve', approvalId: second.approvalId });
    expect(accepted.ok).toBe(true);
    expect(accepted.ok && accepted.value.taskId).not.toBe('');
    await nextEvent(runtime, 'task.completed', (e) => e.kind === 'handoff');
    expect(built).toEqual(['/p']);
    expect(seen.map((e) => e.event).filter((e) => e.type === 'approval.resolved').map((e) => (e as { accepted: boolean }).accepted)).toEqual([false, true]);
    expect(runtime.send({ type: 'Approve', approvalId: second.approvalId })).toMatchObject({ ok: false, error: { code: 'APPROVAL_NOT_FOUND' } });
    await runtime.shutdown();
  });

  it('ignores usage without a session or a context window', async () => {
    const runtime = createRuntime({ newId: counterIds(), engines: { tick: reportingTicks([[{ inputTokens: 199_000, outputTokens: 0, costUsd: null }]]) } });
    runtime.send({ type: 'RegisterProject', projectId: 'p', root: '/p', name: 'P' });
    runtime.send({ type: 'RunTick', projectId: 'p' });
    await nextEvent(runtime, 'task.completed');
    expect(runtime.state().prompts).toEqual([]);
    await runtime.shutdown();
  });
});
