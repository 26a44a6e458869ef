import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, runId, type Store, type StoredRun } from '../../../src/engine/store/index.js';
import { DEFAULT_SETTINGS } from '../../../src/engine/store/projects.js';
import { tempDir } from '../../helpers/temp.js';

function storeWithProjects(...ids: string[]): Store {
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  for (const id of ids) store.projects.upsert({ projectId: id, root: `/p/${id}`, name: id, settings: DEFAULT_SETTINGS, registeredAt: '2030-01-01T00:00:00.000Z' });
  return store;
}

function run(projectId: string, n: number, overrides: Partial<StoredRun> = {}): StoredRun {
  return {
    id: runId(projectId, 'patch', `r${String(n).padStart(4, '0')}`),
    projectId,
    kind: 'patch',
    status: 'done',
    verdict: 'approved',
    code: null,
    title: `run ${n}`,
    summary: '',
    startedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, n)).toISOString(),
    endedAt: null,
    file: null,
    origin: 'app',
    taskId: null,
    detail: null,
    ...overrides,
  };
}

describe('runs', () => {
  it('lists newest first in pages that join up without gaps or repeats', () => {
    const store = storeWithProjects('a');
    for (let n = 0; n < 25; n += 1) store.runs.upsert(run('a', n));
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const result = store.runs.list({ limit: 10, ...(cursor ? { cursor } : {}) });
      if ('error' in result) throw new Error(result.error);
      seen.push(...result.runs.map((r) => r.title));
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `run ${24 - i}`));
  });

  it('filters by project, kind and status', () => {
    const store = storeWithProjects('a', 'b');
    store.runs.upsert(run('a', 1));
    store.runs.upsert(run('b', 2));
    store.runs.upsert(run('a', 3, { id: runId('a', 'tick', 't3'), kind: 'tick', verdict: 'success' }));
    store.runs.upsert(run('a', 4, { id: runId('a', 'relay', 'x4'), kind: 'relay', status: 'failed' }));
    const titles = (filter: Parameters<Store['runs']['list']>[0]) => {
      const result = store.runs.list(filter);
      return 'error' in result ? [] : result.runs.map((r) => r.title);
    };
    expect(titles({ limit: 100, projectId: 'a' })).toEqual(['run 4', 'run 3', 'run 1']);
    expect(titles({ limit: 100, projectId: 'a', kind: 'tick' })).toEqual(['run 3']);
    expect(titles({ limit: 100, status: 'failed' })).toEqual(['run 4']);
    expect(titles({ limit: 100, kind: 'patch' })).toEqual(['run 2', 'run 1']);
  });

  it('refuses a cursor it did not make', () => {
    const store = storeWithProjects('a');
    expect(store.runs.list({ limit: 10, cursor: 'not-a-cursor' })).toEqual({ error: 'CURSOR_INVALID' });
  });

  it('orders timestamps written with offsets by the instant they name', () => {
    const store = storeWithProjects('a');
    store.runs.upsert(run('a', 1, { startedAt: '2030-01-01T10:00:00+02:00', title: 'eight utc' }));
    store.runs.upsert(run('a', 2, { startedAt: '2030-01-01T09:00:00Z', title: 'nine utc' }));
    const result = store.runs.list({ limit: 10 });
    expect('runs' in result && result.runs.map((r) => r.title)).toEqual(['nine utc', 'eight utc']);
  });

  it('keeps the task link and app detail when a row is upserted again without them', () => {
    const store = storeWithProjects('a');
    store.runs.upsert(run('a', 1, { taskId: 'task-1', detail: { note: 'kept' } }));
    store.runs.upsert(run('a', 1, { status: 'done', verdict: 'reverted' }));
    expect(store.runs.get(runId('a', 'patch', 'r0001'))).toMatchObject({ verdict: 'reverted', taskId: 'task-1', detail: { note: 'kept' } });
    expect(store.runs.byTask('task-1')?.id).toBe(runId('a', 'patch', 'r0001'));
  });

  it('drops a project\'s runs with the project', () => {
    const store = storeWithProjects('a');
    store.runs.upsert(run('a', 1));
    store.projects.remove('a');
    expect(store.runs.get(runId('a', 'patch', 'r0001'))).toBeNull();
  });

  it('stores events and reports the last seq', () => {
    const store = storeWithProjects('a');
    expect(store.events.lastSeq()).toBe(0);
    store.events.append([
      { seq: 1, ts: 5, event: { type: 'lifecycle.started', version: '1' } },
      { seq: 2, ts: 6, event: { type: 'task.cancelling', taskId: 't', projectId: 'a', reason: 'user' } },
    ]);
    expect(store.events.lastSeq()).toBe(2);
    expect(store.events.forTask('t')).toEqual([{ seq: 2, ts: 6, event: { type: 'task.cancelling', taskId: 't', projectId: 'a', reason: 'user' } }]);
  });
});
