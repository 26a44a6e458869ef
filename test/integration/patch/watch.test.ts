// `relay watch` on a real X server (Xvfb) with the real clipboard: clipboardy writes it through
// xsel, the watcher is told of each copy by the XFixes extension (or polls, when forced).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relay, REPO_ROOT } from '../../helpers/cli.js';
import { answer } from '../../helpers/patches.js';
import { gitRepo } from '../../helpers/temp.js';
import { startDisplay, startPrivateDisplay, type TestDisplay } from '../../helpers/xvfb.js';
import { until } from '../../helpers/wait.js';

let display: TestDisplay;
beforeAll(async () => {
  display = await startDisplay();
  process.env.DISPLAY = display.display; // clipboardy (in this process) writes through xsel on this display
});
afterAll(() => display?.stop());

/** `relay watch` as a real child process, its stdout and stderr collected together. */
function watch(root: string, args: readonly string[], env: Record<string, string> = {}): { child: ResultPromise<{ all: true; reject: false }>; output: () => string; waitFor: (text: string, what: string) => Promise<void> } {
  const child = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'watch', ...args], { cwd: root, env: { DISPLAY: display.display, ...env }, reject: false, all: true });
  let output = '';
  child.all.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output, waitFor: async (text, what) => void (await until(what, () => output.includes(text), { timeoutMs: 15_000, intervalMs: 50, detail: () => output })) };
}

async function project(): Promise<string> {
  const root = gitRepo({ 'a.txt': 'one\n' });
  await relay(['init', '--project-id', 'demo'], { cwd: root });
  return root;
}

describe('relay watch on the real clipboard (X server)', () => {
  it('is told of each copy: applies an answer copied to the clipboard, ignores other text and other projects, and prints no prompt unless asked', async () => {
    const { default: clipboard } = await import('clipboardy');
    await clipboard.write('something copied before the watcher started');
    const root = await project();
    const watcher = watch(root, ['--yes']);
    try {
      await watcher.waitFor('Watching the clipboard', 'the watcher to start');
      expect(watcher.output()).toContain('(read after each copy)');
      await clipboard.write('plain text, not a patch');
      await clipboard.write(answer([{ path: 'a.txt', body: 'from another project' }], { projectId: 'other' }));
      await watcher.waitFor('not "demo"', 'the other-project answer to be ignored');
      await clipboard.write(answer([{ path: 'a.txt', body: 'two' }]));
      await watcher.waitFor('✔ Applied', 'the applied message');
      expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
    } finally {
      watcher.child.kill('SIGTERM');
      expect((await watcher.child).exitCode).toBe(0);
    }
    expect(watcher.output()).not.toContain('from another project');
    expect(watcher.output()).not.toContain('projectId: demo'); // the system prompt is printed only with --prompt
  });

  it('applies an answer without a control block that fits this project, says nothing about other text, and prints the reply of a near miss', async () => {
    const { default: clipboard } = await import('clipboardy');
    const root = await project();
    const watcher = watch(root, ['--yes']);
    try {
      await watcher.waitFor('Watching the clipboard', 'the watcher to start');
      // A README's example labelled with this project's file, and a diff of another repository.
      await clipboard.write('## Usage\n\n```txt\n// a.txt\nhello from the docs\n```\n');
      await clipboard.write('diff --git a/lib/x.rb b/lib/x.rb\n--- a/lib/x.rb\n+++ b/lib/x.rb\n@@ -1,2 +1,2 @@\n-a = 1\n+a = 2\n b = 3\n');
      await clipboard.write('a.txt\n```\n<<<<<<< SEARCH\none\n=======\nuno\n>>>>>>> REPLACE\n```\n');
      await watcher.waitFor('✔ Applied', 'the block-less answer to be applied');
      expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('uno\n');
      await clipboard.write('a.txt\n```\n<<<<<<< SEARCH\nuno!\n=======\ndos\n>>>>>>> REPLACE\n```\n');
      await watcher.waitFor('Reply for the assistant', 'the near miss and its reply');
      expect(watcher.output()).toContain('✘ A copied answer for this project does not apply (SEARCH_NOT_FOUND)');
      expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('uno\n');
    } finally {
      watcher.child.kill('SIGTERM');
      await watcher.child;
    }
    expect(watcher.output()).not.toContain('hello from the docs');
    expect(watcher.output()).not.toContain('lib/x.rb');
    expect(watcher.output().match(/✔ Applied/g)).toHaveLength(1);
  });

  it('polls when RELAY_CLIPBOARD=poll, and applies what is copied', async () => {
    const { default: clipboard } = await import('clipboardy');
    const root = await project();
    const watcher = watch(root, ['--yes', '--interval', '100'], { RELAY_CLIPBOARD: 'poll' });
    try {
      await watcher.waitFor('Watching the clipboard', 'the watcher to start');
      expect(watcher.output()).toContain('(every 100 ms)');
      await clipboard.write(answer([{ path: 'a.txt', body: 'polled' }]));
      await watcher.waitFor('✔ Applied', 'the applied message');
      expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('polled\n');
    } finally {
      watcher.child.kill('SIGTERM');
      await watcher.child;
    }
  });

  it('reloads relay.config.json when it is saved, and keeps the last good settings when an edit is broken', async () => {
    const { default: clipboard } = await import('clipboardy');
    const root = await project();
    const configFile = path.join(root, 'relay.config.json');
    const watcher = watch(root, ['--yes', '--prompt']);
    try {
      await watcher.waitFor('Watching the clipboard', 'the watcher to start');
      expect(watcher.output()).toContain('projectId: demo'); // --prompt prints the system prompt first
      const config = JSON.parse(readFileSync(configFile, 'utf8'));
      writeFileSync(configFile, JSON.stringify({ ...config, projectId: 'renamed' }, null, 2));
      // Said when saved, with the new system prompt, before any answer arrives.
      await watcher.waitFor('projectId is now "renamed"', 'the reload notice');
      await watcher.waitFor('projectId: renamed', 'the new system prompt');
      writeFileSync(configFile, '{ "projectId": "broken",');
      await watcher.waitFor('invalid; keeping the previous settings', 'the broken-config notice');
      await clipboard.write(answer([{ path: 'a.txt', body: 'two' }], { projectId: 'renamed' }));
      await until('the answer for the new id to be applied', () => readFileSync(path.join(root, 'a.txt'), 'utf8') === 'two\n', { timeoutMs: 15_000, detail: watcher.output });
    } finally {
      watcher.child.kill('SIGTERM');
      await watcher.child;
    }
  });

  it('without a display says so once and exits 1', async () => {
    const root = await project();
    const run = await relay(['watch', '--yes'], { cwd: root, env: { DISPLAY: '', WAYLAND_DISPLAY: '' } });
    expect(run.exitCode).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining('✘ The clipboard cannot be read here: neither DISPLAY nor WAYLAND_DISPLAY is set')]);
    expect(run.stderr).toContain('relay apply');
    expect(run.stdout).toBe('');
  });

  it('stops with one line and exit 1 when the display goes away, in both modes', async () => {
    const root = await project();
    for (const mode of ['x11', 'poll']) {
      const own = await startPrivateDisplay();
      const watcher = watch(root, ['--yes', '--interval', '50'], { DISPLAY: own.display, RELAY_CLIPBOARD: mode });
      await watcher.waitFor('Watching the clipboard', `the ${mode} watcher to start`);
      own.stop();
      const ended = await watcher.child;
      expect(ended.exitCode, `${mode}:\n${watcher.output()}`).toBe(1);
      const stopped = watcher.output().split('\n').filter((line) => line.startsWith('✘ Stopped watching'));
      expect(stopped, watcher.output()).toHaveLength(1);
      // Repeated read failures before giving up are said once, not at every poll.
      expect(watcher.output().split('\n').filter((line) => line.startsWith('! clipboard')).length).toBeLessThanOrEqual(1);
    }
  });
});
