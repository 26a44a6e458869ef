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

  it('revert refuses, naming the file, when a later edit overlaps, and merges one that does not', async () => {
    const root = gitRepo({ 'a.txt': 'one\ntwo\nthree\nfour\nfive\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    await relay(['apply', '-'], { cwd: root, input: answer([{ path: 'a.txt', strategy: 'multi-search-replace', body: searchReplace('two', 'TWO') }]) });
    writeFileSync(path.join(root, 'a.txt'), 'one\nTWO!\nthree\nfour\nfive\n');
    const refused = await relay(['revert', '--yes', '--json'], { cwd: root });
    expect(refused.exitCode).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 'rejected', error: { code: 'REVERT_CONFLICT' } });
    expect(JSON.parse(refused.stdout).error.message).toContain('a.txt');
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\nTWO!\nthree\nfour\nfive\n');
    const plain = await relay(['revert', '--yes'], { cwd: root });
    expect(plain.stderr).toMatch(/Not reverted \(REVERT_CONFLICT\): a\.txt/);

    writeFileSync(path.join(root, 'a.txt'), 'one\nTWO\nthree\nfour\nFIVE\n');
    const merged = await relay(['revert', '--yes'], { cwd: root });
    expect(merged.exitCode).toBe(0);
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\nfour\nFIVE\n');
  });

  it('revert --json without --yes asks nobody and reverts nothing', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    await relay(['apply', '-'], { cwd: root, input: answer([{ path: 'a.txt', body: 'two' }]) });
    const run = await relay(['revert', '--json'], { cwd: root });
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'rejected', error: { code: 'NOT_CONFIRMED' } });
    expect(JSON.parse(run.stdout).error.message).toContain('--yes');
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('git commit says so when the transaction has nothing left to commit, and commits from a project in a subfolder', async () => {
    const repo = gitRepo({ 'app/a.txt': 'one\n', '.gitignore': '.relaycode/\nrelay.config.json\n' });
    const root = path.join(repo, 'app');
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    await relay(['apply', '-'], { cwd: root, input: answer([{ path: 'a.txt', body: 'two' }, { path: 'my notes.txt', body: 'n' }], { gitCommitMsg: 'feat: two' }) });
    writeFileSync(path.join(root, 'unrelated.txt'), 'stays out of the commit\n');
    const first = await relay(['git', 'commit', '--yes'], { cwd: root });
    expect(first.exitCode).toBe(0);
    expect(gitIn(repo, 'log', '-1', '--format=%s').trim()).toBe('feat: two');
    expect(gitIn(repo, 'show', '--name-only', '--format=', 'HEAD').trim().split('\n').sort()).toEqual(['app/a.txt', 'app/my notes.txt']);
    const head = gitIn(repo, 'rev-parse', 'HEAD');
    const again = await relay(['git', 'commit', '--yes'], { cwd: root });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('Nothing to commit');
    expect(gitIn(repo, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('names the bad field of a config, an unknown field, and a command that needs a shell', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    writeFileSync(path.join(root, 'relay.config.json'), JSON.stringify({ projectId: 'demo', patch: { lintr: 'eslint', postCommand: 'prettier -w . && git add -A' } }));
    const run = await relay(['apply', '-'], { cwd: root, input: answer([{ path: 'a.txt', body: 'two' }]) });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('patch.lintr: unknown field');
    expect(run.stderr).toMatch(/patch\.postCommand: .*shell operator "&&"/);
    expect((await relay(['init', '--linter', 'eslint . | tee x'], { cwd: tempDir('relay-init-') })).exitCode).toBe(2);
  });

  it('says plainly when there is nothing to revert', async () => {
    const root = tempDir('relay-empty-');
    await relay(['init'], { cwd: root });
    const run = await relay(['revert', '--yes'], { cwd: root });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('TRANSACTION_NOT_FOUND');
    const unset = await relay(['revert', '--yes', '--json'], { cwd: tempDir('relay-none-') });
    expect(unset.exitCode).toBe(1);
    expect(JSON.parse(unset.stdout)).toMatchObject({ status: 'rejected', error: { code: 'CONFIG_MISSING' } });
  });

  it('has help for every command', async () => {
    const root = tempDir('relay-help-');
    for (const command of [['init'], ['apply'], ['watch'], ['prompt'], ['log'], ['revert'], ['git', 'commit']]) {
      const run = await relay([...command, '--help'], { cwd: root });
      expect(run.exitCode, command.join(' ')).toBe(0);
      expect(run.stdout).toContain('Usage: relay');
    }
    // The commands that change files say what their exit codes mean and show examples.
    for (const command of [['init'], ['apply'], ['revert'], ['git', 'commit']]) {
      expect((await relay([...command, '--help'], { cwd: root })).stdout, command.join(' ')).toContain('Exit codes: 0');
    }
    expect((await relay(['apply', '--help'], { cwd: root })).stdout).toContain('Examples:');
    expect((await relay(['--help'], { cwd: root })).stdout).toContain('Exit codes: 0');
  });
});
