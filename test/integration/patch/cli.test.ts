import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relay } from '../../helpers/cli.js';
import { answer, searchReplace } from '../../helpers/patches.js';
import { gitIn, gitRepo, readTree, tempDir } from '../../helpers/temp.js';

describe('relay init', () => {
  it('writes the config with defaults, ignores .relaycode/, and writes no commands unless asked', async () => {
    const root = gitRepo({ 'tsconfig.json': '{}', '.gitignore': 'node_modules/' });
    const run = await relay(['init', '--project-id', 'shop'], { cwd: root });
    expect(run.exitCode).toBe(0);
    const config = JSON.parse(readFileSync(path.join(root, 'relay.config.json'), 'utf8'));
    expect(config).toMatchObject({ projectId: 'shop', patch: { approvalMode: 'auto', linter: '', preCommand: '', postCommand: '' } });
    expect(readFileSync(path.join(root, '.gitignore'), 'utf8')).toBe('node_modules/\n.relaycode/\n');
    expect(run.stdout).toContain('npx tsc --noEmit'); // a suggestion only
    expect((await relay(['init'], { cwd: root })).stdout).toContain('already exists');
    expect(readFileSync(path.join(root, '.gitignore'), 'utf8')).toBe('node_modules/\n.relaycode/\n');
  });

  it('takes the folder name as projectId and a linter when given', async () => {
    const root = tempDir('relay-init-');
    await relay(['init', '--linter', 'npx eslint .'], { cwd: root });
    const config = JSON.parse(readFileSync(path.join(root, 'relay.config.json'), 'utf8'));
    expect(config.projectId).toBe(path.basename(root));
    expect(config.patch.linter).toBe('npx eslint .');
  });

  it('exits 2 for a bad project id or an unknown option', async () => {
    const root = tempDir('relay-init-');
    expect((await relay(['init', '--project-id', 'has space'], { cwd: root })).exitCode).toBe(2);
    expect((await relay(['init', '--nope'], { cwd: root })).exitCode).toBe(2);
  });
});

describe('relay apply', () => {
  it('reads an answer from stdin and prints one JSON object', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    const run = await relay(['apply', '-', '--json'], { cwd: root, input: answer([{ path: 'a.txt', strategy: 'multi-search-replace', body: searchReplace('one', 'two') }]) });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'applied', files: [{ path: 'a.txt', change: 'modify', added: 1, removed: 1 }], error: null });
  });

  it('in manual mode without a terminal, refuses with the fix and leaves the tree as it was', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    const config = JSON.parse(readFileSync(path.join(root, 'relay.config.json'), 'utf8'));
    config.patch.approvalMode = 'manual';
    writeFileSync(path.join(root, 'relay.config.json'), JSON.stringify(config));
    const before = readTree(root);
    const run = await relay(['apply', '-'], { cwd: root, input: answer([{ path: 'a.txt', body: 'two' }]) });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('--yes');
    expect(readTree(root)).toEqual(before);
  });

  it('names the bad field of an invalid config', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    writeFileSync(path.join(root, 'relay.config.json'), JSON.stringify({ projectId: 'demo', patch: { approvalMode: 'sometimes' } }));
    const run = await relay(['apply', '-', '--json'], { cwd: root, input: answer([{ path: 'a.txt', body: 'two' }]) });
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout).error).toMatchObject({ code: 'CONFIG_INVALID' });
    expect(JSON.parse(run.stdout).error.message).toContain('patch.approvalMode');
  });

  it('explains a missing config and a missing answer file', async () => {
    const root = tempDir('relay-none-');
    const run = await relay(['apply', '-', '--json'], { cwd: root, input: 'x' });
    expect(JSON.parse(run.stdout).error.code).toBe('CONFIG_MISSING');
    expect((await relay(['apply', 'nope.md'], { cwd: root })).exitCode).toBe(2);
  });

  it('finds the project from a subfolder', async () => {
    const root = gitRepo({ 'src/deep/a.txt': 'one\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    const run = await relay(['apply', '-'], { cwd: path.join(root, 'src/deep'), input: answer([{ path: 'src/deep/a.txt', body: 'two' }]) });
    expect(run.exitCode).toBe(0);
    expect(readFileSync(path.join(root, 'src/deep/a.txt'), 'utf8')).toBe('two\n');
  });
});

describe('relay prompt, log, revert, git commit', () => {
  it('prints the system prompt with the project id', async () => {
    const root = tempDir('relay-prompt-');
    await relay(['init', '--project-id', 'my-app'], { cwd: root });
    const run = await relay(['prompt'], { cwd: root });
    expect(run.stdout).toContain('projectId: my-app');
    expect(run.stdout).toContain('<<<<<<< SEARCH');
  });

  it('logs, reverts by index, and commits with the answer’s message', async () => {
    const root = gitRepo({ 'a.txt': 'one\n', '.gitignore': '.relaycode/\nrelay.config.json\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    await relay(['apply', '-'], { cwd: root, input: answer([{ path: 'a.txt', body: 'two' }], { gitCommitMsg: 'feat: two' }) });
    await relay(['apply', '-'], { cwd: root, input: answer([{ path: 'b.txt', body: 'bee' }], { gitCommitMsg: 'feat: bee' }) });
    const log = JSON.parse((await relay(['log', '--json'], { cwd: root })).stdout);
    expect(log.map((r: { gitCommitMsg: string }) => r.gitCommitMsg)).toEqual(['feat: bee', 'feat: two']);
    expect((await relay(['log'], { cwd: root })).stdout).toContain('feat: bee');

    const revert = await relay(['revert', '1', '--yes', '--json'], { cwd: root });
    expect(JSON.parse(revert.stdout)).toMatchObject({ status: 'applied', files: [{ path: 'b.txt', change: 'delete' }] });
    expect(existsSync(path.join(root, 'b.txt'))).toBe(false);

    // Newest is now the revert (nothing to commit for a deleted, never-committed file): revert it back, then commit.
    await relay(['revert', '1', '--yes'], { cwd: root });
    const commit = await relay(['git', 'commit', '--yes'], { cwd: root });
    expect(commit.exitCode).toBe(0);
    expect(gitIn(root, 'log', '-1', '--format=%s').trim()).toBe('Revert "Revert "feat: bee""');
    expect(gitIn(root, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('b.txt');
  });

  it('says plainly when there is nothing to revert', async () => {
    const root = tempDir('relay-empty-');
    await relay(['init'], { cwd: root });
    const run = await relay(['revert', '--yes'], { cwd: root });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('TRANSACTION_NOT_FOUND');
  });

  it('has help for every command', async () => {
    const root = tempDir('relay-help-');
    for (const command of ['init', 'apply', 'watch', 'prompt', 'log', 'revert']) {
      const run = await relay([command, '--help'], { cwd: root });
      expect(run.exitCode, command).toBe(0);
      expect(run.stdout).toContain('Usage: relay');
    }
  });
});
