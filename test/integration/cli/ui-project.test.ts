// `relay ui` opens on the project it is started in, as `code .` does: `relay ui <folder>` adds
// the folder (setting it up when it has no relay.config.json) and its link names the project;
// started inside a registered project it opens on it without adding it again; a folder that
// cannot be added is said in one line and the window still opens.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/engine/store/index.js';
import { relayProject } from '../../helpers/project.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';
import { startRelayUi } from '../../helpers/ui.js';

const env = (): Record<string, string> => ({ PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tempDir('relay-ui-home-') });

describe('relay ui in a project', () => {
  it('relay ui <folder> adds a plain folder (writing its relay.config.json) and opens on it; started inside it again, it opens on it', async () => {
    const dataDir = tempDir('relay-ui-data-');
    const folder = gitRepo({ 'src/app.ts': 'export const v = 1;\n' });
    const id = path.basename(folder);
    const first = await startRelayUi({ args: ['--data-dir', dataDir, folder], env: env(), cwd: tempDir() });
    expect(first.output()).toContain(`• Added project ${id} (${folder}); opening it.`);
    expect(new URL(first.link).hash).toBe(`${new URL(first.link).hash.split('&')[0]}&project=${encodeURIComponent(id)}`);
    expect(JSON.parse(readFileSync(path.join(folder, 'relay.config.json'), 'utf8')).projectId).toBe(id);
    expect((await first.stop()).exitCode).toBe(0);

    const again = await startRelayUi({ args: ['--data-dir', dataDir], env: env(), cwd: path.join(folder, 'src') });
    expect(again.output()).toContain(`• Opening project ${id} (${folder}).`);
    expect(again.link).toContain(`&project=${encodeURIComponent(id)}`);
    expect((await again.stop()).exitCode).toBe(0);
    const store = openStore({ file: path.join(dataDir, 'relay-desk.db') });
    try {
      expect(store.projects.list().map((p) => p.projectId)).toEqual([id]);
    } finally {
      store.close();
    }
  });

  it('started inside a CLI-initialised project that is not registered, it adds it; outside any project it opens on History', async () => {
    const dataDir = tempDir('relay-ui-data-');
    const root = relayProject({ projectId: 'from-the-cli' });
    const inside = await startRelayUi({ args: ['--data-dir', dataDir], env: env(), cwd: root });
    expect(inside.output()).toContain(`• Added project from-the-cli (${root}); opening it.`);
    expect(inside.link).toContain('&project=from-the-cli');
    expect((await inside.stop()).exitCode).toBe(0);
    const outside = await startRelayUi({ args: ['--data-dir', dataDir], env: env(), cwd: tempDir() });
    expect(outside.output()).not.toContain('project');
    expect(outside.link).not.toContain('&project=');
    expect((await outside.stop()).exitCode).toBe(0);
  });

  it('a folder that cannot be added is said in one line, and the window opens all the same', async () => {
    const missing = path.join(tempDir(), 'no-such-folder');
    const ui = await startRelayUi({ args: ['--data-dir', tempDir('relay-ui-data-'), missing], env: env(), cwd: tempDir() });
    expect(ui.output()).toContain(`! ${missing} was not added as a project: ROOT_NOT_FOUND`);
    expect(ui.link).not.toContain('&project=');
    expect(existsSync(missing)).toBe(false);
    expect((await ui.stop()).exitCode).toBe(0);
  });
});
