// A damaged database never stops the start: real damaged files (truncated, a garbage header, a
// -wal of garbage, none at all) are moved aside and rebuilt from the projects' files, the
// registered projects survive through projects.json, and what was done is said in one line.
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../../src/engine/patch/transaction.js';
import { describeHeal, openStore, openStoreHealing, StoreError, type Store } from '../../../src/engine/store/index.js';
import { ownerFile } from '../../../src/engine/store/owner.js';
import { readProjectList } from '../../../src/engine/store/project-list.js';
import { DEFAULT_SETTINGS } from '../../../src/engine/store/projects.js';
import { answer, relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';

const NOW = new Date('2031-03-04T05:06:07.890Z');

/** A project with two applied transactions, registered (watching off, to see settings survive) in a store at `file`. */
async function registeredProject(file: string, projectId = 'demo'): Promise<{ root: string; store: Store }> {
  const root = relayProject({ projectId });
  for (const [name, message] of [['a.txt', 'Add a'], ['b.txt', 'Add b']] as const) {
    const outcome = await applyPatch({ root, text: answer({ projectId, files: { [name]: `${name}\n` }, message }), source: 'file', decide: async () => ({ approve: true }) });
    expect(outcome.status).toBe('applied');
  }
  const store = openStore({ file });
  store.projects.upsert({ projectId, root, name: 'Demo', settings: { ...DEFAULT_SETTINGS, watching: false }, registeredAt: '2030-01-01T00:00:00.000Z' });
  store.reindex({ projectId, root });
  return { root, store };
}

function titles(store: Store): string[] {
  const list = store.runs.list({ limit: 50 });
  if ('error' in list) throw new Error(list.error);
  return list.runs.map((r) => r.title).sort();
}

describe('opening a damaged store at start', () => {
  it('moves a truncated database aside and rebuilds it, keeping the projects and their history', async () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    const { root, store } = await registeredProject(file);
    store.close();
    truncateSync(file, Math.floor(statSync(file).size / 2));

    const { store: healed, healed: report } = openStoreHealing({ file, exclusive: true, now: () => NOW });
    expect(report).toMatchObject({ cause: 'database', restoredProjects: 1, recoveredRuns: 2 });
    const aside = `${file}.damaged-2031-03-04T05-06-07-890Z`;
    expect(report!.moved).toEqual([[file, aside]]);
    expect(existsSync(aside)).toBe(true);
    expect(describeHeal(report!, file)).toBe(`The database ${file} was damaged: moved it to ${aside}, rebuilt it with 1 project and recovered 2 runs from the projects' files.`);
    expect(healed.projects.list().map((p) => [p.projectId, p.root, p.name, p.settings.watching])).toEqual([['demo', root, 'Demo', false]]);
    expect(titles(healed)).toEqual(['Add a', 'Add b']);
    healed.close();
    // The rebuilt file opens as it is next time: nothing more to heal.
    const again = openStoreHealing({ file, exclusive: true });
    expect(again.healed).toBeNull();
    again.store.close();
  });

  it('rebuilds a database whose header is garbage, from projects.json alone', async () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    const { store } = await registeredProject(file);
    store.close();
    const bytes = readFileSync(file);
    bytes.fill(0x5a, 0, 100);
    writeFileSync(file, bytes);

    const { store: healed, healed: report } = openStoreHealing({ file, now: () => NOW });
    expect(report).toMatchObject({ cause: 'database', restoredProjects: 1, recoveredRuns: 2 });
    expect(healed.projects.list().map((p) => p.projectId)).toEqual(['demo']);
    healed.close();
  });

  it('sets a -wal of garbage aside and registers again the projects whose writes it held', async () => {
    const live = path.join(tempDir(), 'relay-desk.db');
    // The registration is still in the live connection's WAL (never checkpointed): copying the
    // main file alone is what a crash with a ruined -wal leaves behind.
    const { root, store } = await registeredProject(live);
    const dir = tempDir();
    const file = path.join(dir, 'relay-desk.db');
    copyFileSync(live, file);
    copyFileSync(path.join(path.dirname(live), 'projects.json'), path.join(dir, 'projects.json'));
    writeFileSync(`${file}-wal`, Buffer.alloc(64 * 1024, 0xc3));
    writeFileSync(`${file}-shm`, Buffer.alloc(32 * 1024, 0x11));
    store.close();

    const { store: healed, healed: report } = openStoreHealing({ file, exclusive: true, now: () => NOW });
    const aside = `${file}.damaged-2031-03-04T05-06-07-890Z`;
    expect(report).toMatchObject({ cause: 'wal', restoredProjects: 1, recoveredRuns: 2 });
    expect(report!.moved).toEqual([
      [`${file}-wal`, `${aside}-wal`],
      [`${file}-shm`, `${aside}-shm`],
    ]);
    expect(readFileSync(`${aside}-wal`)).toEqual(Buffer.alloc(64 * 1024, 0xc3));
    expect(describeHeal(report!, file)).toBe(`The database's write-ahead log relay-desk.db-wal was damaged: moved it to ${aside}-wal and ${aside}-shm, registered 1 project again and recovered 2 runs from the projects' files.`);
    expect(healed.projects.list().map((p) => [p.projectId, p.root, p.settings.watching])).toEqual([['demo', root, false]]);
    expect(titles(healed)).toEqual(['Add a', 'Add b']);
    healed.close();
  });

  it('refills a missing database from projects.json', async () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    const { store } = await registeredProject(file);
    store.close();
    for (const suffix of ['', '-wal', '-shm']) if (existsSync(file + suffix)) unlinkSync(file + suffix);

    const { store: healed, healed: report } = openStoreHealing({ file });
    expect(report).toMatchObject({ cause: 'missing', restoredProjects: 1, recoveredRuns: 2, moved: [] });
    expect(describeHeal(report!, file)).toContain('There was no database at');
    expect(healed.projects.list().map((p) => p.projectId)).toEqual(['demo']);
    healed.close();
  });

  it('moves nothing while another live process owns the database', async () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    const { store } = await registeredProject(file);
    store.close();
    writeFileSync(file, 'garbage '.repeat(100));
    writeFileSync(ownerFile(file), JSON.stringify({ pid: process.ppid }));
    let error: unknown;
    try {
      openStoreHealing({ file, exclusive: true });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe('STORE_IN_USE');
    expect(readdirSync(path.dirname(file)).filter((n) => n.includes('damaged'))).toEqual([]);
  });

  it('opens a sound database as it is, and writes projects.json for an install that had none', async () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    const { store } = await registeredProject(file);
    store.close();
    unlinkSync(path.join(path.dirname(file), 'projects.json'));
    const opened = openStoreHealing({ file });
    expect(opened.healed).toBeNull();
    expect(readProjectList(path.join(path.dirname(file), 'projects.json')).projects.map((p) => p.projectId)).toEqual(['demo']);
    opened.store.close();
  });
});

describe('projects.json', () => {
  it('follows every change, atomically, readable by its owner only', async () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    const { root, store } = await registeredProject(file);
    const list = path.join(path.dirname(file), 'projects.json');
    expect(statSync(list).mode & 0o777).toBe(0o600);
    expect(readProjectList(list).projects.map((p) => [p.projectId, p.root])).toEqual([['demo', root]]);
    store.projects.remove('demo');
    expect(readProjectList(list).projects).toEqual([]);
    expect(readdirSync(path.dirname(file)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    store.close();
  });

  it('is read as hostile input: invalid, repeated or oversized entries are skipped, a symlink is ignored', () => {
    const dir = tempDir();
    const list = path.join(dir, 'projects.json');
    const good = { projectId: 'ok', root: '/srv/ok', name: 'OK', settings: { watching: false, approvalPolicy: { mode: 'nonsense' } }, registeredAt: '2030-01-01' };
    writeFileSync(
      list,
      JSON.stringify({
        version: 1,
        projects: [good, { ...good, root: '/srv/other' }, { ...good, projectId: 'rel', root: 'relative/root' }, { ...good, projectId: '../x', root: '/srv/x' }, { ...good, projectId: 'nul', root: '/srv/a\0b' }, 'not an object', { ...good, projectId: 'big', name: 'n'.repeat(10_000), root: '/srv/big' }],
      }),
    );
    const read = readProjectList(list);
    // The unknown policy falls back to the default; the valid part of the settings is kept.
    expect(read.projects).toEqual([{ projectId: 'ok', root: '/srv/ok', name: 'OK', registeredAt: '2030-01-01', settings: { ...DEFAULT_SETTINGS, watching: false } }]);
    expect(read.problems).toHaveLength(6);

    for (const text of ['{', '[]', JSON.stringify({ version: 2, projects: [] })]) {
      writeFileSync(list, text);
      expect(readProjectList(list).projects).toEqual([]);
    }
    unlinkSync(list);
    const elsewhere = path.join(tempDir(), 'planted.json');
    writeFileSync(elsewhere, JSON.stringify({ version: 1, projects: [good] }));
    symlinkSync(elsewhere, list);
    expect(readProjectList(list)).toMatchObject({ projects: [], problems: [expect.stringContaining('not a regular file')] });
  });
});
