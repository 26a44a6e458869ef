// History queries at scale: 100,000 runs over 20 projects and five kinds, listing the newest
// 100 with and without filters, and a deep page through the keyset cursor. Target < 20 ms each.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openStore, runId, type RunFilter, type Store } from '../src/engine/store/index.js';
import { DEFAULT_SETTINGS } from '../src/engine/store/projects.js';
import type { RunKind, RunStatus } from '../src/shared/schemas.js';
import { medianMs, report } from './util.js';

const RUNS = 100_000;
const PROJECTS = 20;
const KINDS: readonly RunKind[] = ['patch', 'tick', 'relay', 'review', 'handoff'];
const STATUSES: readonly RunStatus[] = ['done', 'done', 'done', 'failed', 'cancelled'];

function fill(store: Store): void {
  for (let p = 0; p < PROJECTS; p += 1) {
    store.projects.upsert({ projectId: `project-${p}`, root: `/bench/project-${p}`, name: `Project ${p}`, settings: DEFAULT_SETTINGS, registeredAt: '2030-01-01T00:00:00.000Z' });
  }
  const start = Date.UTC(2029, 0, 1);
  // A seeded xorshift: the same spread of projects, kinds and statuses on every run.
  let seed = 0x2545f491;
  const next = (bound: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % bound;
  };
  store.transaction(() => {
    for (let n = 0; n < RUNS; n += 1) {
      const projectId = `project-${next(PROJECTS)}`;
      const kind = KINDS[next(KINDS.length)]!;
      store.runs.upsert({
        id: runId(projectId, kind, `run-${n}`),
        projectId,
        kind,
        status: STATUSES[next(STATUSES.length)]!,
        verdict: 'approved',
        code: null,
        title: `Run number ${n} with a title of ordinary length`,
        summary: '3 files, +12/-4',
        startedAt: new Date(start + n * 60_000).toISOString(),
        endedAt: null,
        file: `.relaycode/run-${n}.yml`,
        origin: 'file',
        taskId: null,
        detail: null,
      });
    }
  });
}

/** Prints how long the history queries take on a 100,000-run store. */
export async function run(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-store-'));
  try {
    const store = openStore({ file: path.join(dir, 'relay-desk.db') });
    const began = performance.now();
    fill(store);
    console.log(`filled ${RUNS.toLocaleString('en')} runs in ${(performance.now() - began).toFixed(0)} ms`);
    const list = (filter: RunFilter) => {
      const result = store.runs.list(filter);
      if ('error' in result || result.runs.length === 0) throw new Error(`query returned nothing: ${JSON.stringify(filter)}`);
      return result;
    };
    report('newest 100 of all runs', await medianMs(() => list({ limit: 100 })), 20);
    report('newest 100 of one project', await medianMs(() => list({ limit: 100, projectId: 'project-3' })), 20);
    report('newest 100 of one project and kind', await medianMs(() => list({ limit: 100, projectId: 'project-3', kind: 'tick' })), 20);
    report('newest 100 of one kind', await medianMs(() => list({ limit: 100, kind: 'review' })), 20);
    report('newest 100 of one status (failed)', await medianMs(() => list({ limit: 100, status: 'failed' })), 20);
    report('newest 100 of one project, kind and status', await medianMs(() => list({ limit: 100, projectId: 'project-3', kind: 'patch', status: 'cancelled' })), 20);
    let cursor: string | undefined;
    for (let page = 0; page < 20; page += 1) cursor = list({ limit: 100, projectId: 'project-3', ...(cursor ? { cursor } : {}) }).nextCursor ?? undefined;
    report('page 21 of one project (keyset cursor)', await medianMs(() => list({ limit: 100, projectId: 'project-3', ...(cursor ? { cursor } : {}) })), 20);
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
