import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builderDoes, EDIT_A, makeTask, TickRepo } from './harness.js';
import { until } from '../../helpers/wait.js';

describe('the tick lock', () => {
  it('ten concurrent `relais run`: exactly one runs, the nine others are BLOCKED_LOCK_HELD', async () => {
    const repo = new TickRepo();
    // The builder holds the lock until the test says so: after the nine others have ended.
    const release = path.join(repo.outside, 'release');
    repo.scenario({ orchestrator: [{ result: makeTask() }], builder: [{ ...builderDoes(EDIT_A), wait_for: release }] });
    let ended = 0;
    const runs = Array.from({ length: 10 }, () =>
      repo.run().then((r) => {
        ended += 1;
        return r;
      }),
    );
    await until('the nine refused runs to end while the winner holds the lock', () => ended === 9, { timeoutMs: 45_000 });
    writeFileSync(release, '');
    const results = await Promise.all(runs);

    const codes = results.map((r) => r.result.code).sort();
    expect(codes).toEqual([...Array<string>(9).fill('BLOCKED_LOCK_HELD'), 'SUCCESS']);
    expect(results.filter((r) => r.exitCode === 0)).toHaveLength(1);
    expect(repo.calls('orchestrator')).toHaveLength(1);
    expect(repo.calls('builder')).toHaveLength(1);
    // The refused runs wrote BLOCKED.json while the winner's builder ran; that is not a mutation.
    const winner = results.find((r) => r.result.code === 'SUCCESS')!;
    // Each refused run names the winner (unless it read lock.json in the instant it was being written).
    const holders = results.filter((r) => r.result.code === 'BLOCKED_LOCK_HELD').map((r) => (r.result.blocked as { lock_holder: { run_id: string } | null }).lock_holder?.run_id);
    expect(holders.filter((h) => h !== undefined).length).toBeGreaterThan(0);
    for (const holder of holders) if (holder !== undefined) expect(holder).toBe(winner.result.runId);
    expect(repo.exists('relais/lock.json')).toBe(false);
    expect(repo.counters()).toMatchObject({ ticks: 1, orchestrator_calls: 1, builder_calls: 1 });
  }, 90_000); // ten node processes on two busy cores can take a while
});
