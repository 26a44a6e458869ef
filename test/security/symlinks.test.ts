// Item 2: paths resolve through symlinks. A link inside the project (a cloned repository can ship
// any) must not let an answer reach .git, Relay Desk's state or config, the project root's
// protected files, or anything outside; and nothing is ever written through a link.
import { existsSync, lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeBriefArtifact } from '../../src/engine/handoff/persist.js';
import { planOperations } from '../../src/engine/patch/plan.js';
import { loadRelayConfig } from '../../src/engine/patch/config.js';
import { runTransaction } from '../../src/engine/patch/transaction.js';
import { recordAnswer } from '../../src/engine/relay/record.js';
import { relais, relay } from '../helpers/cli.js';
import { jailedProject, treeState } from '../helpers/jail.js';
import { answer } from '../helpers/patches.js';
import { gitIn, tempDir } from '../helpers/temp.js';

async function apply(root: string, text: string): Promise<{ status: string; error: { code: string; message: string } | null; files: Array<{ path: string }> }> {
  const file = path.join(tempDir(), 'answer.md');
  writeFileSync(file, text);
  const run = await relay(['apply', file, '--yes', '--json'], { cwd: root });
  return JSON.parse(run.stdout) as { status: string; error: { code: string; message: string } | null; files: Array<{ path: string }> };
}

describe('answers that reach through a symlink', () => {
  const cases: ReadonlyArray<readonly [string, (root: string, parent: string) => void, ReturnType<typeof answer>, string]> = [
    ['g -> .git, writing g/config (core.fsmonitor = code execution)', (r) => symlinkSync('.git', path.join(r, 'g')), answer([{ path: 'g/config', body: '[core]\n\tfsmonitor = "touch pwned"' }]), 'PATH_GIT_INTERNAL'],
    ['up -> ., writing up/relay.config.json', (r) => symlinkSync('.', path.join(r, 'up')), answer([{ path: 'up/relay.config.json', body: '{"projectId":"demo","patch":{"postCommand":"sh evil.sh"}}' }]), 'PATH_COMMAND_FILE'],
    ['r -> .relaycode, planting a record', (r) => (mkdirSync(path.join(r, '.relaycode'), { recursive: true }), symlinkSync('.relaycode', path.join(r, 'r'))), answer([{ path: 'r/evil.pending.yml', body: 'uuid: evil' }]), 'PATH_RESERVED'],
    ['out -> the parent folder, overwriting a file there', (r, p) => symlinkSync(p, path.join(r, 'out')), answer([{ path: 'out/victim.txt', body: 'overwritten' }]), 'PATH_SYMLINK_ESCAPE'],
    ['out -> the parent folder, deleting a file there', (r, p) => symlinkSync(p, path.join(r, 'out')), answer([{ path: 'out/victim.txt', body: '//TODO: delete this file' }]), 'PATH_SYMLINK_ESCAPE'],
    ['v -> ../victim.txt (a file link), editing v', (r) => symlinkSync('../victim.txt', path.join(r, 'v')), answer([{ path: 'v', body: 'overwritten' }]), 'PATH_SYMLINK'],
    ['link.ts -> src/a.ts (inside), writing link.ts', (r) => symlinkSync('src/a.ts', path.join(r, 'link.ts')), answer([{ path: 'link.ts', body: 'export const a = 2;' }]), 'PATH_SYMLINK'],
    ['a dangling link d -> ../new.txt', (r) => symlinkSync('../new.txt', path.join(r, 'd')), answer([{ path: 'd', body: 'created outside?' }]), 'PATH_SYMLINK'],
    ['a dangling folder link d -> ../newdir', (r) => symlinkSync('../newdir', path.join(r, 'd')), answer([{ path: 'd/x.txt', body: 'created outside?' }]), 'PATH_SYMLINK'],
    ['a link inside a link: a -> b -> .git', (r) => (symlinkSync('b', path.join(r, 'a')), symlinkSync('.git', path.join(r, 'b'))), answer([{ path: 'a/hooks/pre-commit', body: '#!/bin/sh\ntouch pwned' }]), 'PATH_GIT_INTERNAL'],
    ['a nested link src/up -> .. reaching a config', (r) => symlinkSync('..', path.join(r, 'src/up')), answer([{ path: 'src/up/relay.handoff.json', body: '{"profiles":{}}' }]), 'PATH_COMMAND_FILE'],
    ['a case alias through a link: G -> .GIT', (r) => symlinkSync('.GIT', path.join(r, 'G')), answer([{ path: 'G/config', body: 'x' }]), 'PATH_'],
  ];

  it.each(cases)('%s is refused with its code and nothing changes', async (_, setup, text, code) => {
    const jail = jailedProject();
    setup(jail.root, jail.parent);
    const gitConfig = readFileSync(path.join(jail.root, '.git/config'), 'utf8');
    const config = readFileSync(path.join(jail.root, 'relay.config.json'), 'utf8');
    const result = await apply(jail.root, text);
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'UNSAFE_PATH' } });
    expect(result.error?.message).toContain(code);
    jail.expectOutsideUntouched();
    expect(readFileSync(path.join(jail.root, '.git/config'), 'utf8')).toBe(gitConfig);
    expect(readFileSync(path.join(jail.root, 'relay.config.json'), 'utf8')).toBe(config);
    expect(existsSync(path.join(jail.root, '.relaycode/evil.pending.yml'))).toBe(false);
    expect(existsSync(path.join(jail.root, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('renaming a file out through a link is refused', async () => {
    const jail = jailedProject();
    symlinkSync(jail.parent, path.join(jail.root, 'out'));
    const text = answer([{ path: 'rename-file', lang: 'json', body: '{ "from": "src/a.ts", "to": "out/a.ts" }' }]);
    const result = await apply(jail.root, text);
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'UNSAFE_PATH' } });
    expect(result.error?.message).toContain('PATH_SYMLINK_ESCAPE');
    jail.expectOutsideUntouched();
    expect(existsSync(path.join(jail.root, 'src/a.ts'))).toBe(true);
  });

  it('a link that stays inside and reaches an ordinary file is followed, and the record names the real path', async () => {
    const jail = jailedProject();
    symlinkSync('src', path.join(jail.root, 'lib'));
    const result = await apply(jail.root, answer([{ path: 'lib/c.ts', body: 'export const c = 3;' }]));
    expect(result).toMatchObject({ status: 'applied', files: [{ path: 'src/c.ts' }] });
    expect(readFileSync(path.join(jail.root, 'src/c.ts'), 'utf8')).toBe('export const c = 3;\n');
    expect(lstatSync(path.join(jail.root, 'lib')).isSymbolicLink()).toBe(true);
    jail.expectOutsideUntouched();
  });

  it('a folder swapped for a link between plan and write is checked again at write time', async () => {
    const jail = jailedProject();
    const config = loadRelayConfig(jail.root);
    if (!config.ok) throw new Error(config.error.message);
    const plan = planOperations(jail.root, [{ kind: 'write', path: 'src/a.ts', strategy: 'replace', body: 'export const a = 2;\n' }, { kind: 'write', path: 'src/new.ts', strategy: 'replace', body: 'x\n' }]);
    if (!plan.ok) throw new Error(plan.error.message);
    // The attacker's moment: src/ becomes a link to the parent folder.
    renameSync(path.join(jail.root, 'src'), path.join(jail.root, 'src-real'));
    mkdirSync(path.join(jail.parent, 'src'));
    symlinkSync(path.join(jail.parent, 'src'), path.join(jail.root, 'src'));
    const parentBefore = treeState(jail.parent, 'project');
    const outcome = await runTransaction({
      root: jail.root,
      config: config.value,
      uuid: 'toctou',
      changes: plan.value.changes,
      decide: async () => ({ approve: true }),
      meta: { projectId: 'demo', source: 'paste', contentHash: 'x', reasoning: [], operations: [], warnings: [] },
    });
    expect(outcome).toMatchObject({ status: 'rolled-back', error: { code: 'TRANSACTION_FAILED' } });
    expect(outcome.status === 'rolled-back' && outcome.error.message).toContain('PATH_SYMLINK_ESCAPE');
    expect(treeState(jail.parent, 'project')).toEqual(parentBefore);
  });
});

describe("Relay Desk's own folders as links", () => {
  it('.relaycode/answers as a link: an answer is not recorded through it', () => {
    const jail = jailedProject();
    mkdirSync(path.join(jail.root, '.relaycode'));
    mkdirSync(path.join(jail.parent, 'answers'));
    symlinkSync(path.join(jail.parent, 'answers'), path.join(jail.root, '.relaycode/answers'));
    const before = treeState(jail.parent, 'project');
    expect(recordAnswer(jail.root, { id: 'relay-1', kind: 'ask', backend: 'codex', createdAt: new Date().toISOString(), prompt: 'p', answer: 'a', ok: true })).toBeNull();
    expect(treeState(jail.parent, 'project')).toEqual(before);
  });

  it('.relaycode/handoffs as a link: a brief is refused (BRIEF_PATH_UNSAFE)', () => {
    const jail = jailedProject();
    mkdirSync(path.join(jail.root, '.relaycode'));
    mkdirSync(path.join(jail.parent, 'handoffs'));
    symlinkSync(path.join(jail.parent, 'handoffs'), path.join(jail.root, '.relaycode/handoffs'));
    const before = treeState(jail.parent, 'project');
    const written = writeBriefArtifact(jail.root, { briefId: 'brief-1700000000000-abc123', markdown: '# brief\n', gap: null });
    expect(written).toMatchObject({ ok: false, error: { code: 'BRIEF_PATH_UNSAFE' } });
    expect(treeState(jail.parent, 'project')).toEqual(before);
  });

  it('relais/ as a link: the tick runner is blocked and writes nothing through it', async () => {
    const jail = jailedProject();
    expect((await relais(['init'], { cwd: jail.root })).exitCode).toBe(0);
    gitIn(jail.root, 'add', '-A');
    gitIn(jail.root, 'commit', '-q', '-m', 'relais');
    renameSync(path.join(jail.root, 'relais'), path.join(jail.parent, 'planted-relais'));
    symlinkSync(path.join(jail.parent, 'planted-relais'), path.join(jail.root, 'relais'));
    const before = treeState(jail.parent, 'project');
    const run = await relais(['run', '--json'], { cwd: jail.root });
    expect(`${run.stdout}\n${run.stderr}`).toContain('BLOCKED_MISSING_CONFIG');
    expect(`${run.stdout}\n${run.stderr}`).toContain('symbolic link');
    expect(treeState(jail.parent, 'project')).toEqual(before);
  });

  it('a .gitignore that is a link is neither read nor written by `relay init` or `relais init`', async () => {
    const parent = tempDir('relay-jail-');
    writeFileSync(path.join(parent, 'victim.txt'), 'secret\n');
    const root = path.join(parent, 'project');
    mkdirSync(root);
    gitIn(root, 'init', '-q', '-b', 'main');
    symlinkSync('../victim.txt', path.join(root, '.gitignore'));
    const before = treeState(parent, 'project');
    expect((await relay(['init', '--project-id', 'demo'], { cwd: root })).exitCode).toBe(0);
    expect((await relais(['init'], { cwd: root })).exitCode).toBe(0);
    expect(treeState(parent, 'project')).toEqual(before);
    expect(lstatSync(path.join(root, '.gitignore')).isSymbolicLink()).toBe(true);
  });

  it('`relais init` refuses a relais/ that is a link (WORKSPACE_UNSAFE) and writes nothing through it', async () => {
    const jail = jailedProject();
    mkdirSync(path.join(jail.parent, 'planted-relais'));
    symlinkSync(path.join(jail.parent, 'planted-relais'), path.join(jail.root, 'relais'));
    const before = treeState(jail.parent, 'project');
    const run = await relais(['init'], { cwd: jail.root });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('symbolic link');
    expect(treeState(jail.parent, 'project')).toEqual(before);
  });
});
