// The recorder as the one writer of runs: every write it makes is announced (runs.changed), so a
// listener learns of a task's row whether it subscribed before or after the recorder; what a run
// needs comes from the events themselves; and no other module writes the runs table.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../../src/engine/runtime/index.js';
import { openStore } from '../../../src/engine/store/index.js';
import { attachRecorder } from '../../../src/host/recorder.js';
import type { Run } from '../../../src/shared/contract.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { answer, relayProject } from '../../helpers/project.js';
import { nextEvent } from '../../helpers/runtime.js';
import { tempDir } from '../../helpers/temp.js';

describe('the recorder', () => {
  it('announces a task’s rows, so a listener that subscribed before it still finds them when told', async () => {
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const runtime = createRuntime();
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'before\n' } });
    // This listener hears every event before the recorder does; it reads History when told rows changed.
    const seenAtAnnouncement: Run[][] = [];
    const seenAtTaskEnd: Run[][] = [];
    const list = (): Run[] => {
      const listed = store.runs.list({ projectId: 'demo', limit: 10 });
      return 'runs' in listed ? listed.runs : [];
    };
    runtime.subscribe(({ event }) => {
      if (event.type === 'runs.changed') seenAtAnnouncement.push(list());
      if (event.type === 'task.completed') seenAtTaskEnd.push(list());
    });
    const recorder = attachRecorder({ runtime, store });
    store.projects.upsert({ projectId: 'demo', root, name: 'demo', settings: { approvalPolicy: { mode: 'auto' }, watching: false }, registeredAt: new Date().toISOString() });
    runtime.send({ type: 'RegisterProject', projectId: 'demo', root, name: 'demo', policy: { mode: 'auto' } });
    const ticket = runtime.send({ type: 'ApplyPatch', text: answer({ projectId: 'demo', files: { 'a.txt': 'after\n' }, message: 'Change a' }), source: 'paste', projectId: 'demo' });
    if (!ticket.ok) throw new Error(ticket.error.message);
    const changed = nextEvent(runtime, 'runs.changed', (e) => e.runIds.some((id) => !id.includes(':task-')));
    await runtime.waitForTask(ticket.value.taskId);
    expect(await changed).toMatchObject({ projectId: 'demo', all: false });
    // At the task's end this early listener may see the task's running row still; when told, it sees the final one.
    expect(seenAtTaskEnd[0]!.map((r) => r.status)).toEqual(['running']);
    expect(seenAtAnnouncement.at(-1)!.map((r) => [r.title, r.status, r.verdict, r.origin])).toEqual([['Change a', 'done', 'approved', 'file']]);
    await runtime.shutdown();
    recorder.detach();
    store.close();
  });

  it('keeps what an ask was asked from the task.queued event (no side channel)', async () => {
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const runtime = createRuntime({
      engines: { relay: { ask: async () => ({ ok: false, error: { code: 'BACKEND_FAILED', message: 'no codex here' } }), review: async () => ({ ok: false, error: { code: 'BACKEND_FAILED', message: 'x' } }) } },
    });
    const recorder = attachRecorder({ runtime, store });
    const root = relayProject({ projectId: 'demo' });
    store.projects.upsert({ projectId: 'demo', root, name: 'demo', settings: { approvalPolicy: { mode: 'ask' }, watching: false }, registeredAt: new Date().toISOString() });
    runtime.send({ type: 'RegisterProject', projectId: 'demo', root, name: 'demo' });
    const queued = nextEvent(runtime, 'task.queued');
    const ticket = runtime.send({ type: 'Ask', projectId: 'demo', request: { prompt: 'Why is it slow?', backend: 'codex', includeDiff: false } });
    if (!ticket.ok) throw new Error(ticket.error.message);
    expect(await queued).toMatchObject({ prompt: 'Why is it slow?', backend: 'codex' });
    await runtime.waitForTask(ticket.value.taskId);
    expect(store.runs.byTask(ticket.value.taskId)).toMatchObject({ status: 'failed', code: 'BACKEND_FAILED', detail: { kind: 'relay', backend: 'codex', prompt: 'Why is it slow?' } });
    await runtime.shutdown();
    recorder.detach();
    store.close();
  });
});

describe('one writer of runs', () => {
  /** Every source file under src/, relative. */
  function sources(dir = path.join(REPO_ROOT, 'src')): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const absolute = path.join(dir, entry.name);
      return entry.isDirectory() ? sources(absolute) : /\.tsx?$/.test(entry.name) ? [path.relative(REPO_ROOT, absolute)] : [];
    });
  }

  it('no module but the recorder (and the store itself, rebuilding at open) writes the runs table', () => {
    // Asking the recorder to reindex is fine; writing past it is not.
    const writes = /\.runs\.(upsert|remove|removeIndexed|markInterrupted)\(|(?<!recorder)\.(reindex|indexRecord)\(/;
    const writers = sources().filter((file) => writes.test(readFileSync(path.join(REPO_ROOT, file), 'utf8')));
    expect(writers.sort()).toEqual(['src/engine/store/heal.ts', 'src/engine/store/store.ts', 'src/host/recorder.ts']);
  });
});
