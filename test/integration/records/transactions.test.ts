// engine/records' transaction reader: every record a project holds (applied, pending, rolled back
// after a crash), as the input it is — a record that is damaged, names a path an answer could never
// write, or is reached through a link is refused with its code — and "reverted" derived in one
// place (a rolled-back revert reverted nothing).
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../../src/engine/patch/transaction.js';
import { revertTransaction } from '../../../src/engine/patch/revert.js';
import {
  findByContentHash,
  hasCommitted,
  listCommitted,
  loadRecord,
  reachedCommitPoint,
  readProjectRuns,
  readRecordRuns,
  readRunById,
  readRunDetail,
  readTransaction,
  scanCommitted,
  scanTransactions,
} from '../../../src/engine/records/index.js';
import { relay } from '../../helpers/cli.js';
import { recordPatch } from '../../helpers/handoff.js';
import { plantedRecord, plantRecord } from '../../helpers/jail.js';
import { answer, relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';

const approve = async () => ({ approve: true as const });

/** A project whose `relay apply` of `files` was SIGKILLed once every file was written, then recovered by `relay log`. */
async function crashedApply(files: Record<string, string>, uuid = '6f1c3c1e-0000-4000-8000-00000000c0de'): Promise<{ root: string; uuid: string; text: string }> {
  const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'before\n' } });
  const text = answer({ projectId: 'demo', files, uuid, message: 'Interrupted change' });
  const file = path.join(tempDir(), 'answer.md');
  writeFileSync(file, text);
  const killed = await relay(['apply', file, '--yes'], { cwd: root, env: { RELAY_FAULT: 'all-written' } });
  expect(killed.exitCode).not.toBe(0);
  const recovered = await relay(['log'], { cwd: root });
  expect(recovered.stderr).toContain('interrupted transaction');
  return { root, uuid, text };
}

describe('reading transaction records', () => {
  it('lists applied transactions newest first and derives "reverted" from the revert record', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'one\n' } });
    const first = await recordPatch(root, { file: 'a.txt', body: 'two', message: 'First' });
    const second = await recordPatch(root, { file: 'b.txt', body: 'bee', message: 'Second' });
    const revert = await revertTransaction({ root, target: first, decide: approve });
    expect(revert.status).toBe('applied');
    const scan = scanCommitted(root);
    expect(scan.records.map((r) => r.uuid)).toEqual([revert.uuid, second, first]);
    expect(scan.records.find((r) => r.uuid === first)).toMatchObject({ revertedBy: revert.uuid });
    expect(scan.rolledBack).toEqual([]);
    const runs = readProjectRuns({ projectId: 'demo', root });
    expect(runs.patches).toBe(3);
    expect(runs.runs.find((r) => r.id === `demo:patch:${first}`)).toMatchObject({ status: 'done', verdict: 'reverted', origin: 'file', file: `.relaycode/${first}.yml` });
    // The revert's own row, and the one it changed, come from one changed record.
    expect(readRecordRuns({ projectId: 'demo', root }, 'transaction', revert.uuid!).runs.map((r) => [r.id, r.verdict])).toEqual([
      [`demo:patch:${revert.uuid}`, 'approved'],
      [`demo:patch:${first}`, 'reverted'],
    ]);
  });

  it('reads a transaction waiting for approval as pending, its diff against the disk now', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'before\n' }, patch: { approvalMode: 'manual' } });
    let seen: { runs: ReturnType<typeof readProjectRuns>['runs']; detail: unknown } | null = null;
    const outcome = await applyPatch({
      root,
      text: answer({ projectId: 'demo', files: { 'a.txt': 'after\n' }, message: 'Waiting' }),
      source: 'paste',
      decide: async (review) => {
        seen = { runs: readProjectRuns({ projectId: 'demo', root }).runs, detail: readRunDetail(root, 'patch', review.uuid) };
        return { approve: false };
      },
    });
    expect(outcome.status).toBe('rolled-back');
    expect(seen!.runs).toMatchObject([{ status: 'waiting', verdict: 'pending', title: 'Waiting', endedAt: null }]);
    expect(seen!.detail).toMatchObject({ ok: true, value: { state: 'pending', files: [{ path: 'a.txt', diff: expect.stringContaining('+after') }] } });
    // Rejected: no file of truth is left, so nothing to read.
    expect(readProjectRuns({ projectId: 'demo', root }).runs).toEqual([]);
  });
});

describe('a transaction crash recovery rolled back', () => {
  it('is a rolled-back run with the diff of what the interrupted apply had written', async () => {
    const { root, uuid } = await crashedApply({ 'a.txt': 'after\n', 'b.txt': 'new\n' });
    expect(readFileSync(path.join(root, 'a.txt'), 'utf8')).toBe('before\n');
    const read = readTransaction(root, uuid);
    expect(read).toMatchObject({ ok: true, value: { pending: false, record: { approved: false, recovered: { restored: expect.arrayContaining(['a.txt', 'b.txt']) } } } });
    const [run] = readProjectRuns({ projectId: 'demo', root }).runs;
    expect(run).toMatchObject({ id: `demo:patch:${uuid}`, status: 'failed', verdict: 'rolled-back', code: 'APPLY_INTERRUPTED', title: 'Interrupted change', summary: 'Rolled back after an interrupted apply: 2 files restored.' });
    const detail = readRunDetail(root, 'patch', uuid);
    expect(detail).toMatchObject({ ok: true, value: { state: 'rolled-back', error: { code: 'APPLY_INTERRUPTED' } } });
    const files = detail.ok && detail.value.kind === 'patch' ? detail.value.files : [];
    expect(files.map((f) => [f.path, f.change, f.added, f.removed])).toEqual([
      ['a.txt', 'modify', 1, 1],
      ['b.txt', 'create', 1, 0],
    ]);
    expect(files[1]!.diff).toContain('+new');
  });

  it('is not an applied transaction: not in the log, not a commit point, not "already applied", and relay revert refuses it', async () => {
    const { root, uuid, text } = await crashedApply({ 'a.txt': 'after\n' });
    expect(listCommitted(root)).toEqual([]);
    expect(scanCommitted(root).rolledBack.map((r) => r.uuid)).toEqual([uuid]);
    expect(hasCommitted(root, uuid)).toBe(true); // the uuid is taken: a new apply gets another
    expect(reachedCommitPoint(root, uuid)).toBe(false);
    const record = loadRecord(path.join(root, '.relaycode', `${uuid}.yml`));
    expect(record.ok && record.value.contentHash).toMatch(/./);
    expect(findByContentHash(root, record.ok ? record.value.contentHash : 'none')).toBeNull();

    const log = await relay(['log'], { cwd: root });
    expect(log.stdout).toContain('No transactions yet');
    expect(log.stdout).toContain('Rolled back after an interrupted apply');
    expect(log.stdout).toContain(uuid);
    expect(JSON.parse((await relay(['log', '--json'], { cwd: root })).stdout)).toEqual([]);
    const revert = await relay(['revert', uuid, '--yes', '--json'], { cwd: root });
    expect(revert.exitCode).not.toBe(0);
    expect(JSON.parse(revert.stdout)).toMatchObject({ status: 'rejected', error: { code: 'TRANSACTION_NOT_APPLIED' } });

    // The same answer applies again, under another uuid, saying why.
    const again = await applyPatch({ root, text, source: 'paste', decide: approve });
    expect(again).toMatchObject({ status: 'applied', uuid: `${uuid}-2`, warnings: [expect.stringContaining('was rolled back after an interruption')] });
    expect(listCommitted(root).map((r) => r.uuid)).toEqual([`${uuid}-2`]);
  });

  it('a revert rolled back after a crash reverted nothing', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'one\n' } });
    const applied = await recordPatch(root, { file: 'a.txt', body: 'two', message: 'First' });
    const killed = await relay(['revert', applied, '--yes'], { cwd: root, env: { RELAY_FAULT: 'all-written' } });
    expect(killed.exitCode).not.toBe(0);
    await relay(['log'], { cwd: root });
    const scan = scanCommitted(root);
    expect(scan.rolledBack).toHaveLength(1);
    expect(scan.rolledBack[0]!.revertOf).toBe(applied);
    expect(scan.records.find((r) => r.uuid === applied)?.revertedBy).toBeUndefined();
    expect(readProjectRuns({ projectId: 'demo', root }).runs.find((r) => r.id === `demo:patch:${applied}`)?.verdict).toBe('approved');
  });
});

describe('hostile transaction records', () => {
  const cases: Array<[string, string, string]> = [
    ['a path out of the project', plantedRecord('evil-1', { snapshot: { '../outside.txt': 'x' }, result: { '../outside.txt': 'y' } }), 'RECORD_UNSAFE_PATH'],
    ['a path into .git', plantedRecord('evil-2', { snapshot: { '.git/hooks/pre-commit': null }, result: { '.git/hooks/pre-commit': '#!/bin/sh' } }), 'RECORD_UNSAFE_PATH'],
    ['a command file', plantedRecord('evil-3', { snapshot: { 'relay.config.json': '{}' }, result: { 'relay.config.json': '{}' } }), 'RECORD_UNSAFE_PATH'],
    ['not YAML of a record', 'approved: [', 'RECORD_DAMAGED'],
    ['a uuid that is not its file name', plantedRecord('someone-else', { snapshot: {}, result: {} }), 'RECORD_DAMAGED'],
  ];
  it.each(cases)('naming %s is refused with its code, and listed as skipped, never as a run', (_what, text, code) => {
    const root = relayProject({ projectId: 'demo' });
    const uuid = `evil-${cases.findIndex((c) => c[1] === text) + 1}`;
    plantRecord(root, `${uuid}.yml`, text);
    expect(loadRecord(path.join(root, '.relaycode', `${uuid}.yml`))).toMatchObject({ ok: false, error: { code } });
    expect(readRunDetail(root, 'patch', uuid)).toMatchObject({ ok: false, error: { code } });
    const runs = readProjectRuns({ projectId: 'demo', root });
    expect(runs.runs).toEqual([]);
    expect(runs.skipped).toEqual([{ file: `.relaycode/${uuid}.yml`, reason: expect.stringContaining(uuid === 'evil-5' ? 'someone-else' : '') }]);
    // A changed-file read drops the row rather than show what cannot be trusted.
    expect(readRecordRuns({ projectId: 'demo', root }, 'transaction', uuid)).toMatchObject({ runs: [], gone: [`demo:patch:${uuid}`] });
  });

  it('a record of the wrong shape is named with the field and the problem, in English, by relay log too', async () => {
    const root = relayProject({ projectId: 'demo' });
    const text = plantedRecord('evil-9', { snapshot: {}, result: {} }).replace('approved: true', 'approved: "yes"').replace('reasoning: []', 'reasoning:\n  - 3');
    plantRecord(root, 'evil-9.yml', text);
    const message = 'is not a valid transaction record: reasoning.0: Invalid input: expected string, received number.';
    expect(loadRecord(path.join(root, '.relaycode', 'evil-9.yml'))).toMatchObject({ ok: false, error: { code: 'RECORD_DAMAGED', message: expect.stringContaining(message) } });
    // The built CLI loads no other schema before it: the messages are set up by the record's own.
    const log = await relay(['log'], { cwd: root });
    expect(log.stderr).toContain(`! RECORD_DAMAGED: .relaycode/evil-9.yml ${message}`);
  });

  it('a record whose YAML reaches one value twice (an alias) is read like any other; defaults are filled in', () => {
    const root = relayProject({ projectId: 'demo' });
    const text = ['uuid: shared-1', 'projectId: demo', 'createdAt: "2030-01-01T00:00:00.000Z"', 'snapshot: &files', '  a.txt: one', 'result: *files', 'approved: true', ''].join('\n');
    plantRecord(root, 'shared-1.yml', text);
    const loaded = loadRecord(path.join(root, '.relaycode', 'shared-1.yml'));
    expect(loaded).toMatchObject({ ok: true, value: { uuid: 'shared-1', snapshot: { 'a.txt': 'one' }, result: { 'a.txt': 'one' }, schemaVersion: 1, source: 'file', contentHash: '', reasoning: [], operations: [], createdDirs: [], files: [], warnings: [] } });
    // A value that contains itself is refused, not a stack overflow.
    plantRecord(root, 'loop-1.yml', ['uuid: loop-1', 'projectId: demo', 'createdAt: c', 'snapshot: {}', 'approved: true', 'operations: &ops', '  - kind: delete', '    path: *ops', ''].join('\n'));
    expect(loadRecord(path.join(root, '.relaycode', 'loop-1.yml'))).toMatchObject({ ok: false, error: { code: 'RECORD_DAMAGED', message: expect.stringContaining('operations.0.path: Invalid input: expected string, received array') } });
  });

  it('a record file that is a symbolic link is refused (RECORD_DAMAGED), even to a valid record', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'one\n' } });
    const real = await recordPatch(root, { file: 'a.txt', body: 'two', message: 'Real' });
    const elsewhere = path.join(tempDir(), `${real}.yml`);
    writeFileSync(elsewhere, readFileSync(path.join(root, '.relaycode', `${real}.yml`)));
    symlinkSync(elsewhere, path.join(root, '.relaycode', 'linked.yml'));
    expect(loadRecord(path.join(root, '.relaycode', 'linked.yml'))).toMatchObject({ ok: false, error: { code: 'RECORD_DAMAGED', message: expect.stringContaining('symbolic link') } });
    expect(scanTransactions(root).transactions.map((t) => t.record.uuid)).toEqual([real]);
  });

  it('a .relaycode that is a symbolic link holds no records of this project', async () => {
    const source = relayProject({ projectId: 'demo', files: { 'a.txt': 'one\n' } });
    const uuid = await recordPatch(source, { file: 'a.txt', body: 'two', message: 'Elsewhere' });
    const root = relayProject({ projectId: 'demo' });
    symlinkSync(path.join(source, '.relaycode'), path.join(root, '.relaycode'));
    expect(readProjectRuns({ projectId: 'demo', root }).runs).toEqual([]);
    expect(readTransaction(root, uuid)).toEqual({ ok: true, value: null });
    expect(readRunById({ projectId: 'demo', root }, `demo:patch:${uuid}`)).toBeNull();
  });

  it('an id that is not a transaction id names no file at all', () => {
    const root = relayProject({ projectId: 'demo' });
    mkdirSync(path.join(root, '.relaycode'), { recursive: true });
    expect(readRunDetail(root, 'patch', '../../etc/passwd')).toMatchObject({ ok: false, error: { code: 'RECORD_NOT_FOUND' } });
    expect(readRunById({ projectId: 'demo', root }, 'demo:patch:../x')).toBeNull();
  });
});
