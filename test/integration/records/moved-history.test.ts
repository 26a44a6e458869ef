// The moved-history-folder bug: with relais.config.json's history.dir set elsewhere, a real
// `relais run` (the fake Claude on disk) used to vanish from the window and from briefs, because
// every reader looked in relais/history. Now the tick shows up live in an open host, opens with
// its report and diff, and is in the brief's history.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRelayConfig, writeRelayConfig } from '../../../src/engine/patch/config.js';
import { loadProjectHistory } from '../../../src/engine/handoff/history.js';
import { openStore, type Store } from '../../../src/engine/store/index.js';
import { createHost, type Host } from '../../../src/host/index.js';
import type { RuntimeEvent } from '../../../src/shared/events.js';
import { tempDir } from '../../helpers/temp.js';
import { builderDoes, EDIT_A, makeTask, TickRepo, type Json } from '../tick/harness.js';

const open: Array<{ host: Host; store: Store }> = [];
afterEach(async () => {
  for (const { host, store } of open.splice(0)) {
    await host.close();
    store.close();
  }
});

describe('a tick history folder moved by relais.config.json', () => {
  it('shows a relais run live in the window, opens it, and gives it to briefs', async () => {
    const repo = new TickRepo({ config: (config) => ((config.history as Json).dir = 'ops/tick-history') });
    writeRelayConfig(repo.root, defaultRelayConfig('moved'));
    repo.commit('relay init');
    repo.scenario({ orchestrator: [{ result: makeTask() }], builder: [builderDoes(EDIT_A)] });

    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store, watch: { debounceMs: 50 } });
    open.push({ host, store });
    expect((await host.call('registerProject', { root: repo.root })).ok).toBe(true);
    const announced = new Promise<Extract<RuntimeEvent, { type: 'runs.changed' }>>((resolve) => {
      const stop = host.subscribe(({ event }) => {
        if (event.type === 'runs.changed' && event.runIds.some((id) => id.startsWith('moved:tick:'))) {
          stop();
          resolve(event);
        }
      });
    });

    const run = await repo.run();
    expect(run.result).toMatchObject({ verdict: 'success' });
    const runId = String(run.result.runId);
    expect(repo.exists(`ops/tick-history/${runId}/report.json`)).toBe(true);
    expect(repo.exists(`relais/history/${runId}`)).toBe(false);

    expect((await announced).runIds).toContain(`moved:tick:${runId}`);
    const listed = await host.call('listRuns', { projectId: 'moved', kind: 'tick' });
    expect(listed.ok && listed.value.runs).toMatchObject([{ id: `moved:tick:${runId}`, verdict: 'success', file: `ops/tick-history/${runId}/report.json` }]);
    const detail = await host.call('getRun', { runId: `moved:tick:${runId}` });
    expect(detail.ok && detail.value.detail).toMatchObject({ kind: 'tick', runId, diffPatch: expect.stringContaining('src/a.ts') });

    const history = await loadProjectHistory(repo.root);
    expect(history.ticks.map((t) => [t.runId, t.folder])).toEqual([[runId, `ops/tick-history/${runId}`]]);
  });
});
