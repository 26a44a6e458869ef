import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, rebuildStore, runId, StoreError } from '../../../src/engine/store/index.js';
import { DEFAULT_SETTINGS } from '../../../src/engine/store/projects.js';
import { answer, relayProject } from '../../helpers/project.js';
import { applyPatch } from '../../../src/engine/patch/transaction.js';
import { tempDir } from '../../helpers/temp.js';

function openError(file: string): StoreError {
  try {
    openStore({ file }).close();
  } catch (error) {
    if (error instanceof StoreError) return error;
    throw error;
  }
  throw new Error('the store opened');
}

/** Overwrites bytes across the second half of the file, where the runs' pages are. */
function damagePages(file: string): void {
  const bytes = readFileSync(file);
  for (let i = Math.floor(bytes.length / 2); i < bytes.length; i += 61) bytes[i] = 0xa5;
  writeFileSync(file, bytes);
}

describe('a damaged database', () => {
  it('that is not SQLite at all is refused with STORE_CORRUPT and a way out', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    writeFileSync(file, 'this is not a database '.repeat(300));
    const error = openError(file);
    expect(error.code).toBe('STORE_CORRUPT');
    expect(error.name).toBe('StoreError');
    expect(error.message).toMatch(/damaged.*rebuild/s);
  });

  it('with damaged pages is refused, and rebuilding it keeps the projects and the history in their files', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'relay-desk.db');
    const root = relayProject({ projectId: 'demo' });
    const outcome = await applyPatch({ root, text: answer({ projectId: 'demo', files: { 'a.txt': 'a\n' }, message: 'Add a' }), source: 'file', decide: async () => ({ approve: true }) });
    expect(outcome.status).toBe('applied');

    const store = openStore({ file });
    store.projects.upsert({ projectId: 'demo', root, name: 'Demo', settings: { ...DEFAULT_SETTINGS, watching: false }, registeredAt: '2030-01-01T00:00:00.000Z' });
    store.reindex({ projectId: 'demo', root });
    // Enough app-only rows that the damage lands in the runs table, not the projects table.
    store.transaction(() => {
      for (let n = 0; n < 3000; n += 1) {
        store.runs.upsert({ id: runId('demo', 'relay', `r${n}`), projectId: 'demo', kind: 'relay', status: 'done', verdict: null, code: null, title: 'x'.repeat(200), summary: '', startedAt: '2030-01-01T00:00:00.000Z', endedAt: null, file: null, origin: 'app', taskId: null, detail: null });
      }
    });
    store.close();
    damagePages(file);

    expect(openError(file).code).toBe('STORE_CORRUPT');

    const rebuilt = rebuildStore({ file });
    expect(rebuilt.movedTo && existsSync(rebuilt.movedTo)).toBe(true);
    expect(statSync(rebuilt.movedTo!).size).toBeGreaterThan(0);
    expect(rebuilt.projects.map((p) => [p.projectId, p.settings.watching])).toEqual([['demo', false]]);
    const list = rebuilt.store.runs.list({ limit: 10 });
    expect('runs' in list && list.runs.map((r) => [r.kind, r.title, r.verdict])).toEqual([['patch', 'Add a', 'approved']]);
    rebuilt.store.close();
    openStore({ file }).close();
  });

  it('that cannot even yield its projects is still replaced by a working one', () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    writeFileSync(file, Buffer.alloc(8192, 7));
    const rebuilt = rebuildStore({ file });
    expect(rebuilt.projects).toEqual([]);
    rebuilt.store.settings.set('ok', true);
    expect(rebuilt.store.settings.get('ok')).toBe(true);
    rebuilt.store.close();
  });
});
