// The transaction's journal: what a rollback puts back (commands' changes included, the user's
// edits made while deciding left alone), the backups that make a rollback need no free space,
// write failures told in one line, and "reverted" derived from the revert's own record.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRelayConfig, writeRelayConfig, type RelayConfig } from '../../../src/engine/patch/config.js';
import { failingIo } from '../../../src/engine/fs/write-io.js';
import { pendingPath, writeCommitted, writePending } from '../../../src/engine/patch/state.js';
import { listCommitted, readProjectRuns, readRecord, readRunDetail, type TransactionRecord } from '../../../src/engine/records/index.js';
import { applyPatch, recoverPending, type Decision } from '../../../src/engine/patch/transaction.js';
import { findTransaction, revertTransaction } from '../../../src/engine/patch/revert.js';
import { loadProjectHistory } from '../../../src/engine/handoff/history.js';
import { answer, searchReplace } from '../../helpers/patches.js';
import { gitIn, gitRepo, readTree, tempDir, writeFiles } from '../../helpers/temp.js';

function project(files: Record<string, string>, patch: Partial<RelayConfig['patch']> = {}): string {
  const root = gitRepo({ ...files, '.gitignore': '.relaycode/\n' });
  const base = defaultRelayConfig('demo');
  writeRelayConfig(root, { ...base, patch: { ...base.patch, ...patch } });
  return root;
}

const approveAll = async (): Promise<Decision> => ({ approve: true });
const edit = answer([{ path: 'src/a.ts', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 2;') }]);

describe('rolling back a transaction', () => {
  it('undoes what the formatter changed outside the answer, but not what the person edits while deciding', async () => {
    const outside = tempDir('relay-fmt-');
    const formatter = path.join(outside, 'fmt.cjs');
    writeFileSync(formatter, "require('fs').appendFileSync('src/other.ts', '// formatted\\n'); require('fs').writeFileSync('made-by-fmt.txt', 'x');\n");
    // A node script may load any code file, so the answer edits a document (a code file would wait for a person before the formatter ran).
    const root = project({ 'src/a.md': 'export const a = 1;\n', 'src/other.ts': 'other\n', 'notes.md': 'mine\n' }, { postCommand: [process.execPath, formatter], approvalMode: 'manual' });
    const outcome = await applyPatch({
      root,
      text: answer([{ path: 'src/a.md', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 2;') }]),
      source: 'paste',
      decide: async (review) => {
        expect(review.files.map((f) => f.path).sort()).toEqual(['made-by-fmt.txt', 'src/a.md', 'src/other.ts']);
        writeFileSync(path.join(root, 'notes.md'), 'edited while the dialog was open\n');
        return { approve: false, reason: 'no' };
      },
    });
    expect(outcome.status).toBe('rolled-back');
    expect(readFileSync(path.join(root, 'src/a.md'), 'utf8')).toBe('export const a = 1;\n');
    expect(readFileSync(path.join(root, 'src/other.ts'), 'utf8')).toBe('other\n');
    expect(existsSync(path.join(root, 'made-by-fmt.txt'))).toBe(false);
    expect(readFileSync(path.join(root, 'notes.md'), 'utf8')).toBe('edited while the dialog was open\n');
    expect(readdirSync(path.join(root, '.relaycode'))).toEqual([]);
  });

  it('puts a replaced file back as it was (its mode too), from its hard-linked backup', async () => {
    const root = project({ 'src/a.ts': 'export const a = 1;\n' }, { approvalMode: 'manual' });
    chmodSync(path.join(root, 'src/a.ts'), 0o755);
    const inode = statSync(path.join(root, 'src/a.ts')).ino;
    let backups: string[] = [];
    await applyPatch({
      root,
      text: edit,
      source: 'paste',
      decide: async (review) => {
        backups = readdirSync(path.join(root, '.relaycode', `${review.uuid}.backup`));
        return { approve: false };
      },
    });
    expect(backups).toHaveLength(1);
    expect(statSync(path.join(root, 'src/a.ts')).ino).toBe(inode); // the very file, renamed back
    expect(statSync(path.join(root, 'src/a.ts')).mode & 0o777).toBe(0o755);
    expect(readdirSync(path.join(root, '.relaycode'))).toEqual([]);
  });

  it('a write failure at any step rolls back and says which file and why in one line', async () => {
    const files = { 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': 'b\n' };
    const text = answer([
      { path: 'src/a.ts', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 2;') },
      { path: 'src/b.ts', body: 'bee' },
      { path: 'src/c/new.ts', body: 'new' },
    ]);
    for (let step = 1; step < 40; step += 1) {
      const root = project(files);
      const before = readTree(root);
      const io = failingIo({ failAt: step, code: 'ENOSPC' });
      const outcome = await applyPatch({ root, text, source: 'paste', decide: approveAll }, { io });
      if (io.steps() < step) {
        expect(outcome.status).toBe('applied'); // past the last write step
        break;
      }
      if (outcome.status === 'applied') continue; // a failed clean-up after the commit point: the after state, noted
      expect(outcome.status === 'rolled-back' || outcome.status === 'rejected').toBe(true);
      const error = 'error' in outcome ? outcome.error : null;
      expect(error?.message).toMatch(/^Could not write [^\n]+: no space left on device \(ENOSPC\)\. (Every file was restored|Nothing was changed)\.$/);
      expect(readTree(root)).toEqual(before);
      expect(readdirSync(path.join(root, '.relaycode'))).toEqual([]);
    }
  });

  it('a failure the rollback cannot undo (the disk stays full) leaves the pending record, which the next command recovers', async () => {
    const root = project({ 'src/a.ts': 'export const a = 1;\n' });
    const before = readTree(root);
    // (the first mutating calls write the voucher in .git, then the pending record; the 11th is a file write)
    const outcome = await applyPatch({ root, text: edit, source: 'paste', decide: approveAll }, { io: failingIo({ failAt: 11, code: 'ENOSPC', sticky: true }) });
    expect(outcome).toMatchObject({ status: 'rolled-back', error: { code: 'WRITE_FAILED', message: expect.stringContaining('the next relay command finishes it') } });
    const pending = readdirSync(path.join(root, '.relaycode')).filter((n) => n.endsWith('.pending.yml'));
    expect(pending).toHaveLength(1);
    // As if this process had died: the record's owner is a process that has ended.
    const file = path.join(root, '.relaycode', pending[0]!);
    const record = readRecord(file);
    writePending(root, { ...record, owner: { ...record.owner!, pid: spawnSync(process.execPath, ['-e', '']).pid! } });
    const stillFull = await recoverPending(root, { io: failingIo({ failAt: 1, code: 'ENOSPC', sticky: true }) });
    expect(stillFull).toMatchObject({ recovered: [], problems: [{ code: 'RECOVERY_FAILED', message: expect.stringContaining('no space left on device') }] });
    const recovered = await recoverPending(root);
    expect(recovered).toMatchObject({ recovered: [{ restored: expect.any(Array) }], problems: [] });
    expect(readTree(root)).toEqual(before);
    // Nothing is left but the record of the rolled-back apply (a run, never a transaction of the log).
    expect(readdirSync(path.join(root, '.relaycode'))).toEqual([`${record.uuid}.yml`]);
    expect(readRecord(path.join(root, '.relaycode', `${record.uuid}.yml`))).toMatchObject({ approved: false, recovered: { restored: expect.any(Array) } });
    expect(listCommitted(root)).toEqual([]);
  });
});

describe('recovery refuses records that came with the repository', () => {
  it('a pending record tracked by git is never run: the work tree stays as it is and the refusal says why', async () => {
    const root = project({ 'src/a.ts': 'mine, uncommitted work\n' });
    const record: TransactionRecord = {
      schemaVersion: 1,
      uuid: 'planted',
      projectId: 'demo',
      createdAt: '2025-01-01T00:00:00.000Z',
      source: 'paste',
      contentHash: 'h',
      reasoning: [],
      operations: [],
      snapshot: { 'src/a.ts': 'what a stranger wants here\n' },
      result: {},
      createdDirs: [],
      files: [],
      approved: false,
      warnings: [],
      owner: { pid: spawnSync(process.execPath, ['-e', '']).pid!, bootId: 'their-machine', startedAt: 'x' },
    };
    writePending(root, record);
    gitIn(root, 'add', '-f', '.relaycode/planted.pending.yml');
    gitIn(root, 'commit', '-qm', 'a record that should never have been committed');
    const report = await recoverPending(root);
    expect(report).toMatchObject({ recovered: [{ uuid: 'planted', restored: [], refused: { code: 'RECORD_FOREIGN', message: expect.stringContaining('tracked by git') } }], problems: [] });
    expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('mine, uncommitted work\n');
    // Not ours, so it blocks nothing: the tree is as it was, and every command says so again.
    const next = await applyPatch({ root, text: edit, source: 'paste', decide: approveAll });
    expect(next.recovered).toMatchObject([{ uuid: 'planted', refused: { code: 'RECORD_FOREIGN' } }]);
    expect(existsSync(path.join(root, '.relaycode/planted.pending.yml'))).toBe(true);
  });
});

describe('"reverted" is derived from the revert records', () => {
  it('every reader agrees: log, revert, the store index, run detail and handoff history', async () => {
    const root = project({ 'src/a.ts': 'export const a = 1;\n' });
    const applied = await applyPatch({ root, text: edit, source: 'paste', decide: approveAll });
    const reverted = await revertTransaction({ root, decide: approveAll });
    expect(reverted.status).toBe('applied');
    const original = readFileSync(path.join(root, `.relaycode/${applied.uuid}.yml`), 'utf8');
    expect(original).not.toContain('revertedBy'); // the original is never rewritten

    expect(listCommitted(root).find((r) => r.uuid === applied.uuid)?.revertedBy).toBe(reverted.uuid);
    const found = findTransaction(root, applied.uuid!);
    expect(found.ok && found.value.revertedBy).toBe(reverted.uuid);
    expect((await revertTransaction({ root, target: applied.uuid!, decide: approveAll })).status).toBe('rejected');
    expect(readProjectRuns({ projectId: 'demo', root }).runs.find((r) => r.id.endsWith(applied.uuid!))?.verdict).toBe('reverted');
    expect(readRunDetail(root, 'patch', applied.uuid!)).toMatchObject({ ok: true, value: { state: 'reverted', revertedBy: reverted.uuid } });
    const history = await loadProjectHistory(root);
    expect(history.transactions.find((t) => t.uuid === applied.uuid)?.revertedBy).toBe(reverted.uuid);
  });

  it('an old record that carries revertedBy itself still reads as reverted', () => {
    const root = tempDir('relay-legacy-');
    writeFiles(root, { 'a.txt': 'x\n' });
    const record: TransactionRecord = {
      schemaVersion: 1,
      uuid: 'old-one',
      projectId: 'demo',
      createdAt: '2025-01-01T00:00:00.000Z',
      source: 'paste',
      contentHash: 'h',
      reasoning: [],
      operations: [],
      snapshot: { 'a.txt': 'w\n' },
      result: { 'a.txt': 'x\n' },
      createdDirs: [],
      files: [],
      approved: true,
      warnings: [],
      revertedBy: 'gone-revert',
      revertedAt: '2025-01-02T00:00:00.000Z',
    };
    writeCommitted(root, record);
    expect(listCommitted(root)[0]?.revertedBy).toBe('gone-revert');
    expect(readRunDetail(root, 'patch', 'old-one')).toMatchObject({ ok: true, value: { state: 'reverted', revertedBy: 'gone-revert' } });
    expect(existsSync(pendingPath(root, 'old-one'))).toBe(false);
    expect(readRecord(path.join(root, '.relaycode/old-one.yml')).revertedBy).toBe('gone-revert');
  });
});
