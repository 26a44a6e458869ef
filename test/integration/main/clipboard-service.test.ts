// The app's clipboard watcher against a real host: a fake clipboard source stands in for
// Electron's clipboard (the only part that needs the Electron binary).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/engine/store/index.js';
import { createHost } from '../../../src/host/index.js';
import { startClipboardService } from '../../../src/main/clipboard-service.js';
import type { Route } from '../../../src/main/router.js';
import { answer } from '../../helpers/patches.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/wait.js';

describe('the clipboard service', () => {
  it('routes a copied answer to its project and applies it; tells when no project matches', async () => {
    const root = relayProject({ projectId: 'shop', files: { 'a.txt': 'one\n' } });
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store });
    await host.call('registerProject', { root });
    await host.call('updateProjectSettings', { projectId: 'shop', approvalPolicy: { mode: 'auto' } });

    let clipboard = 'copied before the app started';
    const unrouted: Route[] = [];
    const projects = () => store.projects.list().map((p) => ({ id: p.projectId, projectId: p.projectId, root: p.root, watching: p.settings.watching }));
    const service = startClipboardService({
      source: { read: () => clipboard },
      intervalMs: 20,
      projects,
      apply: async (text, project) => {
        const reply = await host.call('applyPatch', { text, source: 'clipboard', projectId: project.projectId });
        if (reply.ok) await host.runtime.waitForTask(reply.value.taskId);
      },
      unrouted: (route) => void unrouted.push(route),
    });
    await service.ready;

    clipboard = answer([{ path: 'a.txt', body: 'two' }], { projectId: 'shop' });
    await until('the answer to be applied', () => readFileSync(path.join(root, 'a.txt'), 'utf8') === 'two\n');

    clipboard = answer([{ path: 'a.txt', body: 'three' }], { projectId: 'wiki' });
    await until('the unrouted answer', () => unrouted.length === 1);
    expect(unrouted[0]).toEqual({ kind: 'no-project', projectId: 'wiki' });

    await host.call('updateProjectSettings', { projectId: 'shop', watching: false });
    clipboard = answer([{ path: 'a.txt', body: 'four' }], { projectId: 'shop' });
    await until('the answer for a project that is not watching', () => unrouted.length === 2);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');

    await service.stop();
    await host.close();
    store.close();
  });
});
