import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relay, REPO_ROOT } from '../../helpers/cli.js';
import { answer } from '../../helpers/patches.js';
import { gitRepo } from '../../helpers/temp.js';
import { startDisplay } from '../../helpers/xvfb.js';

let display: { display: string; stop: () => void };
beforeAll(async () => {
  display = await startDisplay();
  process.env.DISPLAY = display.display; // clipboardy (in this process) writes through xsel on this display
});
afterAll(() => display?.stop());

async function until(check: () => boolean, what: string, ms = 15_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('relay watch on the real clipboard (X server)', () => {
  it('applies an answer copied to the clipboard, ignores other text and other projects', async () => {
    const { default: clipboard } = await import('clipboardy');
    await clipboard.write('something copied before the watcher started');
    const root = gitRepo({ 'a.txt': 'one\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    const watcher = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'watch', '--yes', '--interval', '100', '--no-prompt'], {
      cwd: root,
      env: { DISPLAY: display.display },
      reject: false,
      all: true,
    });
    let output = '';
    watcher.all!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(() => output.includes('Watching the clipboard'), 'the watcher to start');
      await clipboard.write('plain text, not a patch');
      await clipboard.write(answer([{ path: 'a.txt', body: 'from another project' }], { projectId: 'other' }));
      await until(() => output.includes('not "demo"'), 'the other-project answer to be ignored');
      await clipboard.write(answer([{ path: 'a.txt', body: 'two' }]));
      await until(() => readFileSync(path.join(root, 'a.txt'), 'utf8') === 'two\n', 'the answer to be applied');
      await until(() => output.includes('✔ Applied'), 'the applied message');
      expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
    } finally {
      watcher.kill('SIGTERM');
      await watcher;
    }
    expect(output).not.toContain('from another project');
  });

  it('reloads relay.config.json when it is saved, and keeps the last good settings when an edit is broken', async () => {
    const { default: clipboard } = await import('clipboardy');
    const root = gitRepo({ 'a.txt': 'one\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    const configFile = path.join(root, 'relay.config.json');
    const watcher = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'watch', '--yes', '--interval', '100', '--no-prompt'], {
      cwd: root,
      env: { DISPLAY: display.display },
      reject: false,
      all: true,
    });
    let output = '';
    watcher.all!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(() => output.includes('Watching the clipboard'), 'the watcher to start');
      const config = JSON.parse(readFileSync(configFile, 'utf8'));
      writeFileSync(configFile, JSON.stringify({ ...config, projectId: 'renamed' }, null, 2));
      // Said when saved, with the new system prompt, before any answer arrives.
      await until(() => output.includes('projectId is now "renamed"'), 'the reload notice');
      expect(output).toContain('projectId: renamed');
      writeFileSync(configFile, '{ "projectId": "broken",');
      await until(() => output.includes('invalid; keeping the previous settings'), 'the broken-config notice');
      await clipboard.write(answer([{ path: 'a.txt', body: 'two' }], { projectId: 'renamed' }));
      await until(() => readFileSync(path.join(root, 'a.txt'), 'utf8') === 'two\n', 'the answer for the new id to be applied');
    } finally {
      watcher.kill('SIGTERM');
      await watcher;
    }
  });
});
