// Adding a project from the window: the path field's check (checkFolder) on real folders, the
// folder picker channel with the desktop shell's picker (a fake dialog standing in for
// Electron's), and the browser's lack of one.
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/engine/store/index.js';
import { expandHome } from '../../../src/host/folders.js';
import { createHost, type FolderPicker, type Host } from '../../../src/host/index.js';
import { electronFolderPicker, type OpenDialogLike } from '../../../src/main/folder-picker.js';
import { relayProject } from '../../helpers/project.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';

let open: Array<{ host: Host; store: Store }> = [];
afterEach(async () => {
  for (const { host, store } of open) {
    await host.close();
    store.close();
  }
  open = [];
});

function hostWith(folderPicker?: FolderPicker): Host {
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  const host = createHost({ store, ...(folderPicker ? { folderPicker } : {}) });
  open.push({ host, store });
  return host;
}

async function check(host: Host, typed: string) {
  const reply = await host.call('checkFolder', { path: typed });
  if (!reply.ok) throw new Error(reply.error.message);
  return reply.value;
}

describe('checkFolder', () => {
  it('says what a typed folder is: a project already, a plain folder to set up, registered, or why not', async () => {
    const host = hostWith();
    const project = relayProject({ projectId: 'shop' });
    expect(await check(host, project)).toEqual({ root: project, problem: null, projectId: 'shop', registeredAs: null, gitRepository: true });
    const plain = tempDir('relay-plain-');
    expect(await check(host, plain)).toMatchObject({ root: plain, problem: null, projectId: null, gitRepository: false });
    // A link to a project is the project (its real path is what gets registered).
    const link = path.join(tempDir(), 'link-to-shop');
    symlinkSync(project, link);
    expect((await check(host, link)).root).toBe(project);

    expect((await check(host, 'relative/path')).problem?.code).toBe('ROOT_INVALID');
    expect((await check(host, '   ')).problem?.code).toBe('ROOT_INVALID');
    expect((await check(host, path.join(plain, 'missing'))).problem?.code).toBe('ROOT_NOT_FOUND');
    const file = path.join(plain, 'a-file');
    writeFileSync(file, 'x');
    expect((await check(host, file)).problem?.code).toBe('ROOT_NOT_FOLDER');
    const broken = gitRepo();
    writeFileSync(path.join(broken, 'relay.config.json'), '{ not json');
    expect((await check(host, broken)).problem?.code).toMatch(/^CONFIG_/);

    const registered = await host.call('registerProject', { root: project });
    expect(registered.ok).toBe(true);
    expect((await check(host, project)).registeredAs).toBe('shop');
  });

  it('expands ~ to the home folder', () => {
    expect(expandHome('~/code/x', '/home/me')).toBe('/home/me/code/x');
    expect(expandHome('~', '/home/me')).toBe('/home/me');
    expect(expandHome('/abs/~x', '/home/me')).toBe('/abs/~x');
    expect(expandHome('~other/x', '/home/me')).toBe('~other/x');
  });
});

describe('the folder picker', () => {
  it('in a browser there is none: getHostInfo says so and pickFolder refuses with FOLDER_PICKER_UNAVAILABLE', async () => {
    const host = hostWith();
    expect(await host.call('getHostInfo', {})).toEqual({ ok: true, value: { folderPicker: false } });
    const picked = await host.call('pickFolder', {});
    expect(picked.ok ? null : picked.error.code).toBe('FOLDER_PICKER_UNAVAILABLE');
  });

  it('in the desktop app, Electron’s open dialog (a fake here) picks a folder for the window, or nothing when cancelled', async () => {
    const chosen = tempDir('relay-picked-');
    const calls: unknown[][] = [];
    let answer: { canceled: boolean; filePaths: string[] } = { canceled: false, filePaths: [chosen] };
    const dialog: OpenDialogLike = {
      showOpenDialog: async (...args: unknown[]) => {
        calls.push(args);
        return answer;
      },
    };
    const parent = { id: 'main-window' };
    const host = hostWith(electronFolderPicker(dialog, () => parent));
    expect(await host.call('getHostInfo', {})).toEqual({ ok: true, value: { folderPicker: true } });
    expect(await host.call('pickFolder', {})).toEqual({ ok: true, value: { path: chosen } });
    expect(calls[0]).toEqual([parent, { title: 'Add a project folder to Relay Desk', properties: ['openDirectory', 'createDirectory'] }]);
    answer = { canceled: true, filePaths: [] };
    expect(await host.call('pickFolder', {})).toEqual({ ok: true, value: { path: null } });
    // No window open (the tray only): the dialog is shown on its own.
    const alone = electronFolderPicker(dialog, () => null);
    answer = { canceled: false, filePaths: [chosen] };
    expect(await alone.pick({ title: 't' })).toBe(chosen);
    expect(calls.at(-1)).toEqual([{ title: 't', properties: ['openDirectory', 'createDirectory'] }]);
  });
});
