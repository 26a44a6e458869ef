// Watching a project's files of truth with real fs events in temp folders: what changed is
// reported once per burst (debounced), folders that appear are picked up (and what they already
// hold), a folder that is a symbolic link is never watched, a moved history folder is followed,
// and closing stops everything. Every wait is for a report, never a fixed sleep.
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchProject, type ProjectWatcher } from '../../../src/host/project-watch.js';
import type { ChangedRecord } from '../../../src/host/recorder.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

/** A watcher whose reports can be awaited one at a time. */
function watched(root: string): { watcher: ProjectWatcher; next(): Promise<readonly ChangedRecord[]>; reindexed(): Promise<void>; reports: Array<readonly ChangedRecord[]> } {
  const reports: Array<readonly ChangedRecord[]> = [];
  const waiting: Array<(changes: readonly ChangedRecord[]) => void> = [];
  const reindexWaiting: Array<() => void> = [];
  const watcher = watchProject(
    { projectId: 'demo', root },
    {
      onChanges: (changes) => {
        reports.push(changes);
        waiting.shift()?.(changes);
      },
      onReindex: () => reindexWaiting.shift()?.(),
      onError: (error) => {
        throw error;
      },
    },
    { debounceMs: 50, maxWaitMs: 400 },
  );
  open.push(watcher);
  return {
    watcher,
    reports,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    reindexed: () => new Promise((resolve) => reindexWaiting.push(resolve)),
  };
}

const open: ProjectWatcher[] = [];
afterEach(() => {
  for (const watcher of open.splice(0)) watcher.close();
});

const keys = (changes: readonly ChangedRecord[]): string[] => changes.map((c) => `${c.kind}:${c.key}`).sort();

/** Polls `check` until it holds (a re-arm that finds nothing to report raises no report to wait on). */
async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 10; !check(); delay = Math.min(delay * 2, 100)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
  }
}

describe('watching a project', () => {
  it('reports a burst of record writes once, each record once', async () => {
    const root = relayProject({ projectId: 'demo' });
    mkdirSync(path.join(root, '.relaycode'));
    const w = watched(root);
    const report = w.next();
    // One synchronous burst: every write lands before the first event is handled.
    for (let i = 0; i < 20; i += 1) writeFileSync(path.join(root, '.relaycode', `tx-${i}.yml`), 'x');
    writeFileSync(path.join(root, '.relaycode', 'tx-3.pending.yml'), 'x');
    writeFileSync(path.join(root, '.relaycode', 'lock.json'), '{}'); // not a record
    expect(keys(await report)).toEqual(Array.from({ length: 20 }, (_, i) => `transaction:tx-${i}`).sort());
    expect(w.reports).toHaveLength(1);
  });

  it('picks up .relaycode when it appears, and answers/ and handoffs/ with what they already hold', async () => {
    const root = relayProject({ projectId: 'demo' });
    const w = watched(root);
    expect(w.watcher.folders()).toEqual([root]);
    mkdirSync(path.join(root, '.relaycode'));
    await until('.relaycode to be watched', () => w.watcher.folders().includes(path.join(root, '.relaycode')));
    expect(w.watcher.folders()).toEqual([root, path.join(root, '.relaycode')]);
    const report = w.next();
    // The subfolder and its first file arrive together: the file raised no event of its own.
    writeFiles(root, { '.relaycode/answers/relay-one.json': '{}', '.relaycode/handoffs/brief-1-a.md': '# b' });
    const seen = new Set<string>();
    for (let changes = await report; ; changes = await w.next()) {
      for (const key of keys(changes)) seen.add(key);
      if (seen.has('answer:relay-one') && seen.has('handoff:brief-1-a')) break;
    }
    expect(w.watcher.folders()).toEqual(expect.arrayContaining([path.join(root, '.relaycode/answers'), path.join(root, '.relaycode/handoffs')]));
  });

  it('never watches a record folder that is a symbolic link (only its parent, for a real folder in its place)', async () => {
    const root = relayProject({ projectId: 'demo' });
    const elsewhere = tempDir('relay-elsewhere-');
    symlinkSync(elsewhere, path.join(root, '.relaycode'));
    const w = watched(root);
    expect(w.watcher.folders()).toEqual([root]);
    // Writes behind the link raise nothing; a tick in the real history folder does, and is all that is reported.
    writeFileSync(path.join(elsewhere, 'planted.yml'), 'x');
    const report = w.next();
    writeFiles(root, { 'relais/history/20300101-000000-aaaa0001/meta.json': '{}' });
    const seen: string[] = [];
    for (let changes = await report; ; changes = await w.next()) {
      seen.push(...keys(changes));
      if (seen.includes('tick:20300101-000000-aaaa0001')) break;
    }
    expect(seen.every((k) => k.startsWith('tick:'))).toBe(true);
    expect(w.watcher.folders()).not.toContain(path.join(root, '.relaycode'));
    // The link replaced by a real folder: watched from then on.
    rmSync(path.join(root, '.relaycode'));
    mkdirSync(path.join(root, '.relaycode'));
    await until('the real .relaycode to be watched', () => w.watcher.folders().includes(path.join(root, '.relaycode')));
  });

  it('follows the history folder relais.config.json names, and asks for a reindex when the config changes', async () => {
    const root = relayProject({ projectId: 'demo' });
    writeFiles(root, { 'relais.config.json': JSON.stringify({ history: { dir: 'ops/ticks' } }), 'ops/ticks/.keep': '' });
    const w = watched(root);
    expect(w.watcher.folders()).toContain(path.join(root, 'ops/ticks'));
    const report = w.next();
    writeFiles(root, { 'ops/ticks/20300101-000000-bbbb0002/meta.json': '{}', 'relais/history/20300101-000000-cccc0003/meta.json': '{}' });
    const seen: string[] = [];
    for (let changes = await report; ; changes = await w.next()) {
      seen.push(...keys(changes));
      if (seen.includes('tick:20300101-000000-bbbb0002')) break;
    }
    expect(seen).not.toContain('tick:20300101-000000-cccc0003');
    const reindex = w.reindexed();
    writeFileSync(path.join(root, 'relais.config.json'), JSON.stringify({ history: { dir: 'relais/history' } }));
    await reindex;
    expect(w.watcher.folders()).toContain(path.join(root, 'relais/history'));
    expect(w.watcher.folders()).not.toContain(path.join(root, 'ops/ticks'));
  });

  it('reads a tick again when its folder is finished after it appeared (meta.json comes last)', async () => {
    const root = relayProject({ projectId: 'demo' });
    mkdirSync(path.join(root, 'relais/history'), { recursive: true });
    const w = watched(root);
    const first = w.next();
    mkdirSync(path.join(root, 'relais/history/20300101-000000-dddd0004'));
    expect(keys(await first)).toEqual(['tick:20300101-000000-dddd0004']);
    // Still being written: its folder is watched until meta.json is there.
    const run = path.join(root, 'relais/history/20300101-000000-dddd0004');
    await until('the unfinished tick folder to be watched', () => w.watcher.folders().includes(run));
    const finished = w.next();
    writeFileSync(path.join(run, 'meta.json'), '{}');
    expect(keys(await finished)).toEqual(['tick:20300101-000000-dddd0004']);
    await until('the finished tick folder to be let go', () => !w.watcher.folders().includes(run));
  });

  it('reports a removed record, and watches a folder moved away and replaced anew', async () => {
    const root = relayProject({ projectId: 'demo' });
    writeFiles(root, { '.relaycode/answers/relay-gone.json': '{}' });
    const w = watched(root);
    const removed = w.next();
    rmSync(path.join(root, '.relaycode/answers/relay-gone.json'));
    expect(keys(await removed)).toEqual(['answer:relay-gone']);
    const back = w.next();
    renameSync(path.join(root, '.relaycode/answers'), path.join(root, 'answers-away'));
    mkdirSync(path.join(root, '.relaycode/answers'));
    writeFileSync(path.join(root, '.relaycode/answers/relay-new.json'), '{}');
    const seen: string[] = [];
    for (let changes = await back; ; changes = await w.next()) {
      seen.push(...keys(changes));
      if (seen.includes('answer:relay-new')) break;
    }
  });

  it('stops watching when closed', () => {
    const root = relayProject({ projectId: 'demo' });
    mkdirSync(path.join(root, '.relaycode'));
    const w = watched(root);
    expect(w.watcher.folders().length).toBeGreaterThan(0);
    w.watcher.close();
    expect(w.watcher.folders()).toEqual([]);
  });
});
