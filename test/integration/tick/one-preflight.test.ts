// `relais run` and the app's Run tick go through one preflight (engine/tick/start.ts) as the
// same runner (thisProcessRunner): the same repository is refused, or let through, by both with
// the same code. The window's confirmation (previewTick) asks that preflight too, changing
// nothing, and reads what the tick may spend from relais.config.json and the tick history.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/engine/store/index.js';
import { costOfMeta, median, previewTick } from '../../../src/engine/tick/preview.js';
import { preflightTick } from '../../../src/engine/tick/start.js';
import { createHost } from '../../../src/host/index.js';
import { realEngines } from '../../../src/host/engines.js';
import { gitIn, tempDir } from '../../helpers/temp.js';
import { builderDoes, EDIT_A, makeTask, TickRepo } from './harness.js';

const ROOT_REFUSAL = 'BLOCKED_MISSING_CONFIG';
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

describe('preflightTick', () => {
  it('refuses root with bypassPermissions (the code relais run writes), and lets another user through; check mode writes nothing', async () => {
    const repo = new TickRepo();
    const asRoot = await preflightTick({ root: repo.root, uid: 0, env: { PATH: process.env.PATH ?? '' } }, { kind: 'check', at: new Date() });
    expect(asRoot.ok).toBe(false);
    if (!asRoot.ok) {
      expect(asRoot.blocker.code).toBe(ROOT_REFUSAL);
      expect(asRoot.blocker.reason).toContain('Running as root');
    }
    const sandboxed = await preflightTick({ root: repo.root, uid: 0, env: { IS_SANDBOX: '1' } }, { kind: 'check', at: new Date() });
    expect(sandboxed.ok).toBe(true);
    const user = await preflightTick({ root: repo.root, uid: 1000, env: {} }, { kind: 'check', at: new Date() });
    expect(user.ok).toBe(true);
    expect(existsSync(path.join(repo.root, 'relais/BLOCKED.json'))).toBe(false);
    expect(existsSync(path.join(repo.root, 'relais/lock.json'))).toBe(false);
    expect(repo.gitStatus()).toBe('');
  });

  it('in check mode reports a held lock as BLOCKED_LOCK_HELD', async () => {
    const repo = new TickRepo();
    const held = await preflightTick({ root: repo.root, uid: 1000 }, { kind: 'run', runId: 'r1', at: new Date() });
    expect(held.ok).toBe(true);
    try {
      const check = await preflightTick({ root: repo.root, uid: 1000 }, { kind: 'check', at: new Date() });
      expect(check.ok ? null : check.blocker.code).toBe('BLOCKED_LOCK_HELD');
    } finally {
      held.lock?.release();
    }
  });
});

describe('relais run and the app refuse or run the same tick', () => {
  it('a tick started through the host meets the same preflight as relais run in the same repository (as root: both refused with the same code and reason)', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['pass'] }), cost: 0.1 }], builder: [{ ...builderDoes(EDIT_A), cost: 0.2 }] });
    // No IS_SANDBOX: under root, Claude Code would refuse bypassPermissions (the default mode).
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', FAKE_CLAUDE_LOG: repo.logFile, FAKE_CLAUDE_SCENARIO: repo.scenarioFile };
    const cli = await repo.run({ IS_SANDBOX: '' });
    if (cli.result.verdict === 'success') {
      gitReset(repo);
    }
    const store = openStore({ file: path.join(tempDir('relais-one-preflight-'), 'desk.db') });
    const host = createHost({ store, engines: realEngines({ env }) });
    try {
      const registered = await host.call('registerProject', { root: repo.root, projectId: 'one-preflight' });
      if (!registered.ok) throw new Error(registered.error.message);
      repo.commit('relay init');
      const preview = await host.call('previewTick', { projectId: 'one-preflight' });
      if (!preview.ok) throw new Error(preview.error.message);
      const ticket = await host.call('runTick', { projectId: 'one-preflight' });
      if (!ticket.ok) throw new Error(ticket.error.message);
      const settled = await host.runtime.waitForTask(ticket.value.taskId);
      const tick = settled?.status === 'completed' && settled.result.kind === 'tick' ? settled.result.tick : null;
      expect(tick).not.toBeNull();
      expect({ verdict: tick!.verdict, code: tick!.code }).toEqual({ verdict: cli.result.verdict, code: cli.result.code });
      expect(preview.value.preflight.ready).toBe(cli.result.verdict !== 'blocked');
      if (isRoot) {
        expect(tick!.code).toBe(ROOT_REFUSAL);
        expect(tick!.summary).toContain('Running as root');
        expect(preview.value.preflight).toMatchObject({ ready: false, code: ROOT_REFUSAL });
        expect(repo.calls()).toEqual([]);
      }
    } finally {
      await host.close();
      store.close();
    }
  }, 60_000);
});

/** Puts back the change a SUCCESS tick left (not root: relais run got through), so the app's tick starts from the same tree. */
function gitReset(repo: TickRepo): void {
  gitIn(repo.root, 'checkout', '-q', '--', '.');
}

describe('previewTick', () => {
  it('shows the attempt limits, the milestone budget left, today’s spend and the median cost of recent ticks; nothing is written', async () => {
    const repo = new TickRepo().scenario({
      orchestrator: [
        { result: makeTask({ fast: ['pass'] }), cost: 0.1 },
        { result: makeTask({ fast: ['pass'] }), cost: 0.3 },
        { result: makeTask({ fast: ['pass'] }), cost: 0.5 },
      ],
      builder: [
        { ...builderDoes({ op: 'write', path: 'src/a.ts', content: 'export const a = 2;\n' }), cost: 0.2 },
        { ...builderDoes({ op: 'write', path: 'src/a.ts', content: 'export const a = 3;\n' }), cost: 0.4 },
        { ...builderDoes({ op: 'write', path: 'src/a.ts', content: 'export const a = 4;\n' }), cost: 1.0 },
      ],
    });
    const empty = await previewTick({ root: repo.root, uid: 1000, now: new Date() });
    expect(empty.recent).toEqual({ ticks: 0, medianCostUsd: null });
    expect(empty.today).toEqual({ ticks: 0, costUsd: 0 });
    for (let i = 0; i < 3; i += 1) {
      const run = await repo.run();
      expect(run.result.code).toBe('SUCCESS');
      repo.commit(`tick ${i}`);
    }
    const before = repo.gitStatus();
    const preview = await previewTick({ root: repo.root, uid: 1000, now: new Date() });
    expect(preview.preflight).toEqual({ ready: true, warnings: [] });
    // Defaults: 1 + 1 retry orchestrator calls at $0.40, one builder call at $1.50.
    expect(preview.limits).toMatchObject({ orchestratorCalls: 2, builderCalls: 1, orchestratorMaxBudgetUsd: 0.4, builderMaxBudgetUsd: 1.5, worstCaseUsd: 2.3 });
    expect(preview.today).toEqual({ ticks: 3, costUsd: 2.5 });
    // Tick costs 0.3, 0.7 and 1.5: the median is 0.7.
    expect(preview.recent).toEqual({ ticks: 3, medianCostUsd: 0.7 });
    const ticks = preview.budget?.lines.find((l) => l.counter === 'ticks');
    expect(ticks).toEqual({ counter: 'ticks', used: 3, limit: 200, left: 197 });
    expect(preview.budget?.lines.find((l) => l.counter === 'estimated_cost_usd')).toMatchObject({ used: 2.5, left: 77.5 });
    expect(repo.gitStatus()).toBe(before);
    expect(existsSync(path.join(repo.root, 'relais/lock.json'))).toBe(false);
  }, 90_000);

  it('reads costs tolerantly: only numbers count, a tick with no reported cost is left out of the median', () => {
    expect(costOfMeta({ orchestrator: { calls: [{ cost_usd: 0.1 }, { cost_usd: null }] }, builder: { call: { cost_usd: 0.25 } } })).toBe(0.35);
    expect(costOfMeta({ orchestrator: { calls: 'nope' }, builder: null })).toBeNull();
    expect(costOfMeta(null)).toBeNull();
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});
