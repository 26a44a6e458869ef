// Item 5: no command runs code the answer wrote before a person approved the diff. The linter
// and the pre/post commands of relay.config.json run on the patched tree; an answer that edits
// what they execute goes to manual approval whatever approvalMode says, and nothing runs first.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesCommandsExecute } from '../../src/engine/patch/code-files.js';
import { applyPatch, type Decision, type PendingReview } from '../../src/engine/patch/transaction.js';
import { revertTransaction } from '../../src/engine/patch/revert.js';
import { createRuntime } from '../../src/engine/runtime/index.js';
import { relay } from '../helpers/cli.js';
import { counterIds, nextEvent } from '../helpers/runtime.js';
import { jailedProject } from '../helpers/jail.js';
import { answer } from '../helpers/patches.js';
import { tempDir } from '../helpers/temp.js';

const LINT_OK = "process.exit(0);\n";
/** What a hostile answer puts in lint.js: code that leaves a marker when it runs. */
const lintThatMarks = (marker: string): string => `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran');\nprocess.exit(0);`;

function lintProject(extra: { patch?: Record<string, unknown>; files?: Record<string, string> } = {}) {
  const jail = jailedProject({ files: { 'lint.js': LINT_OK, 'src/a.ts': 'export const a = 1;\n', 'scripts/fmt.sh': '#!/bin/sh\nexit 0\n', ...extra.files }, patch: { linter: 'node lint.js', approvalMode: 'auto', ...extra.patch } });
  return { ...jail, marker: path.join(tempDir(), 'marker') };
}

async function cliApply(root: string, text: string, args: string[] = ['--yes']): Promise<{ run: { exitCode: number; stdout: string; stderr: string }; result: { status: string; error: { code: string; message: string } | null; warnings?: string[] } }> {
  const file = path.join(tempDir(), 'answer.md');
  writeFileSync(file, text);
  const run = await relay(['apply', file, '--json', ...args], { cwd: root });
  return { run, result: JSON.parse(run.stdout) as { status: string; error: { code: string; message: string } | null; warnings?: string[] } };
}

describe('an answer that edits lint.js (linter `node lint.js`)', () => {
  it('waits for a person although approvalMode is auto; rejected, its code never ran', async () => {
    const p = lintProject();
    const reviews: Array<{ review: PendingReview; markerAtDecision: boolean }> = [];
    const outcome = await applyPatch({
      root: p.root,
      text: answer([{ path: 'lint.js', body: lintThatMarks(p.marker) }]),
      source: 'paste',
      decide: async (review): Promise<Decision> => {
        reviews.push({ review, markerAtDecision: existsSync(p.marker) });
        return { approve: false, reason: 'no thanks' };
      },
    });
    expect(outcome).toMatchObject({ status: 'rolled-back', error: { code: 'REJECTED' } });
    expect(reviews).toHaveLength(1);
    expect(reviews[0]!.review).toMatchObject({ reason: 'executes-patched-code', executes: [{ path: 'lint.js' }] });
    expect(reviews[0]!.review.executes![0]!.why).toContain('node lint.js');
    expect(reviews[0]!.review.linter).toBeUndefined(); // the linter did not run on the patched tree
    expect(reviews[0]!.markerAtDecision).toBe(false);
    expect(existsSync(p.marker)).toBe(false);
    expect(readFileSync(path.join(p.root, 'lint.js'), 'utf8')).toBe(LINT_OK);
    p.expectOutsideUntouched();
  });

  it('approved by a person, the linter runs after the approval', async () => {
    const p = lintProject();
    let markerAtDecision: boolean | null = null;
    const outcome = await applyPatch({
      root: p.root,
      text: answer([{ path: 'lint.js', body: lintThatMarks(p.marker) }]),
      source: 'paste',
      decide: async () => {
        markerAtDecision = existsSync(p.marker);
        return { approve: true };
      },
    });
    expect(outcome).toMatchObject({ status: 'applied', approvedBy: 'user' });
    expect(markerAtDecision).toBe(false);
    expect(existsSync(p.marker)).toBe(true);
  });

  it('`relay apply` without a terminal to ask: rolled back, nothing ran', async () => {
    const p = lintProject();
    const file = path.join(tempDir(), 'answer.md');
    writeFileSync(file, answer([{ path: 'lint.js', body: lintThatMarks(p.marker) }]));
    const run = await relay(['apply', file], { cwd: p.root });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('runs as code: lint.js');
    expect(run.stderr).toContain('Rolled back (REJECTED)');
    expect(existsSync(p.marker)).toBe(false);
    expect(readFileSync(path.join(p.root, 'lint.js'), 'utf8')).toBe(LINT_OK);
  });

  it('`relay apply --yes` does not count as approving that code: rolled back (REVIEW_REQUIRED), nothing ran, now or at the next patch', async () => {
    const p = lintProject();
    const { run, result } = await cliApply(p.root, answer([{ path: 'lint.js', body: lintThatMarks(p.marker) }]));
    expect(run.exitCode).toBe(1);
    expect(result).toMatchObject({ status: 'rolled-back', error: { code: 'REVIEW_REQUIRED' } });
    expect(result.error?.message).toContain('lint.js');
    expect(readFileSync(path.join(p.root, 'lint.js'), 'utf8')).toBe(LINT_OK);
    // The next patch's baseline linter runs the project's own lint.js, not the answer's.
    const next = await cliApply(p.root, answer([{ path: 'docs/b.md', body: '# b' }]));
    expect(next.result.status).toBe('applied');
    expect(existsSync(p.marker)).toBe(false);
  });

  it('an answer that changes no code file is applied automatically as before', async () => {
    const p = lintProject();
    const { result } = await cliApply(p.root, answer([{ path: 'docs/notes.md', body: '# notes' }]), []);
    expect(result.status).toBe('applied');
  });

  it('any code file waits for a person: `node lint.js` may load it by a path no list can predict', async () => {
    const p = lintProject();
    const { result } = await cliApply(p.root, answer([{ path: 'src/b.ts', body: 'export const b = 2;' }]));
    expect(result).toMatchObject({ status: 'rolled-back', error: { code: 'REVIEW_REQUIRED' } });
  });
});

describe('in the app (the runtime) under the "auto" approval policy', () => {
  it('such a patch still waits for a person; nothing runs before Approve, the linter runs after', async () => {
    const p = lintProject();
    const runtime = createRuntime({ newId: counterIds('t') });
    runtime.send({ type: 'RegisterProject', projectId: 'demo', root: p.root, name: 'Demo', policy: { mode: 'auto' } });
    runtime.send({ type: 'ApplyPatch', text: answer([{ path: 'lint.js', body: lintThatMarks(p.marker) }]), source: 'clipboard' });
    const waiting = await nextEvent(runtime, 'task.waiting-approval');
    expect(waiting.review).toMatchObject({ reason: 'executes-patched-code', executes: [{ path: 'lint.js' }] });
    expect(existsSync(p.marker)).toBe(false);
    runtime.send({ type: 'Approve', approvalId: waiting.approvalId });
    expect(await runtime.waitForTask('t-1')).toMatchObject({ status: 'completed', result: { patch: { status: 'applied', approvedBy: 'user' } } });
    expect(existsSync(p.marker)).toBe(true);
    await runtime.shutdown();
  });
});

describe('other files the commands execute', () => {
  it.each([
    ['the postCommand script (./scripts/fmt.sh)', { postCommand: './scripts/fmt.sh' }, 'scripts/fmt.sh', (m: string) => `#!/bin/sh\necho ran > ${m}\n`],
    ['package.json (scripts)', { postCommand: ['node', '-e', '0'] }, 'package.json', (m: string) => `{"scripts":{"lint":"touch ${m}"}}`],
    ['eslint.config.js', {}, 'eslint.config.js', (m: string) => `require('fs').writeFileSync(${JSON.stringify(m)}, 'ran');`],
    ['a Makefile', {}, 'Makefile', (m: string) => `all:\n\ttouch ${m}\n`],
    ['a husky hook', {}, '.husky/pre-commit', (m: string) => `touch ${m}`],
    ['node_modules/.bin (what npx runs)', {}, 'node_modules/.bin/eslint', (m: string) => `#!/bin/sh\ntouch ${m}`],
    ['the preCommand script (runs at the next patch)', { preCommand: 'node pre.js' }, 'pre.js', (m: string) => `require('fs').writeFileSync(${JSON.stringify(m)}, 'ran');`],
  ] as const)('%s: --yes is refused with REVIEW_REQUIRED and nothing runs', async (_, patch, file, body) => {
    const p = lintProject({ patch, files: { 'pre.js': 'process.exit(0);\n' } });
    const target = path.join(p.root, file);
    const before = existsSync(target) ? readFileSync(target, 'utf8') : null;
    const { result } = await cliApply(p.root, answer([{ path: file, body: body(p.marker) }]));
    expect(result).toMatchObject({ status: 'rolled-back', error: { code: 'REVIEW_REQUIRED' } });
    expect(existsSync(p.marker)).toBe(false);
    expect(existsSync(target) ? readFileSync(target, 'utf8') : null).toBe(before);
    p.expectOutsideUntouched();
  });

  it('a revert that brings such a file back is kept, but the commands are not run on it unseen', async () => {
    const p = lintProject();
    const applied = await applyPatch({ root: p.root, text: answer([{ path: 'lint.js', body: lintThatMarks(p.marker) }]), source: 'paste', decide: async () => ({ approve: true }) });
    expect(applied.status).toBe('applied');
    const events: string[] = [];
    const reverted = await revertTransaction({ root: p.root, decide: async () => ({ approve: true, unseen: true }) }, { onEvent: (e) => events.push(e.type === 'command' ? `command:${e.which}` : e.type) });
    expect(reverted.status).toBe('applied');
    expect(readFileSync(path.join(p.root, 'lint.js'), 'utf8')).toBe(LINT_OK);
    expect(reverted.status === 'applied' && reverted.warnings.join('\n')).toContain('were not run');
    // Only the baseline run before anything was written; none on the reverted tree.
    expect(events.slice(events.indexOf('applied'))).not.toContain('command:linter');
  });
});

describe('filesCommandsExecute (the one list of files that are code)', () => {
  const root = '/project';
  it.each([
    [[['node', 'lint.js']], 'lint.js', true],
    [[['node', './tools/../lint.js']], 'lint.js', true],
    [[['./scripts/fmt.sh']], 'scripts/fmt.sh', true],
    [[['bash', 'x.sh']], 'x.sh', true],
    [[['eslint', '--config=eslint.local.cjs', '.']], 'eslint.local.cjs', true],
    [[['pytest', 'tests']], 'tests/test_a.py', true],
    [[['npx', 'tsc', '--noEmit']], 'tsconfig.json', true],
    [[['npx', 'eslint', '.']], 'package.json', true],
    [[['npx', 'eslint', '.']], 'vite.config.ts', true],
    [[['npx', 'eslint', '.']], '.eslintrc.cjs', true],
    [[['npx', 'eslint', '.']], 'prettier.config.mjs', true],
    [[['make', 'lint']], 'build/rules.mk', true],
    [[['just', 'lint']], 'justfile', true],
    [[['npm', 'test']], '.npmrc', true],
    [[['yarn', 'lint']], '.yarnrc.yml', true],
    [[['pnpm', 'lint']], '.pnpmfile.cjs', true],
    [[['pytest']], 'tests/conftest.py', true],
    [[['tox']], 'tox.ini', true],
    [[['ruff', 'check', '.']], 'pyproject.toml', true],
    [[['cargo', 'check']], 'build.rs', true],
    [[['git', 'diff']], 'lefthook.yml', true],
    [[['git', 'diff']], '.pre-commit-config.yaml', true],
    [[['node', '-r', './hook.js', 'lint.js']], 'hook.js', true],
    [[['python', '-m', 'pytest', 'tests']], 'tests/test_x.py', true],
    [[['node', 'lint.js', 'data.txt']], 'data.txt', false],
    [[['npx', 'eslint', 'src']], 'src/a.ts', false],
    [[['npx', 'prettier', '--check', 'src/a.js']], 'src/a.js', false],
    [[['npx', 'tsc', '--noEmit']], 'src/a.ts', false],
    [[['node', 'lint.js']], 'README.md', false],
    [[], 'package.json', false],
  ] as const)('%j with %s changed → %s', (commands, changed, expected) => {
    expect(filesCommandsExecute(root, commands, [changed]).length > 0).toBe(expected);
  });
});

// Found by an independent probe: the named script is not the only code a command runs.
describe('code a configured command reaches indirectly', () => {
  it('a module lint.js requires is code the linter runs: `relay apply --yes` refuses it (REVIEW_REQUIRED) and nothing runs', async () => {
    const p = lintProject({ files: { 'lint.js': "require('./lib/rules.js');\nprocess.exit(0);\n", 'lib/rules.js': 'module.exports = 1;\n' } });
    const { run, result } = await cliApply(p.root, answer([{ path: 'lib/rules.js', body: lintThatMarks(p.marker) }]));
    expect(run.exitCode).not.toBe(0);
    expect(result).toMatchObject({ status: 'rolled-back', error: { code: 'REVIEW_REQUIRED' } });
    expect(existsSync(p.marker)).toBe(false);
    expect(readFileSync(path.join(p.root, 'lib/rules.js'), 'utf8')).toBe('module.exports = 1;\n');
    p.expectOutsideUntouched();
  });

  it('the script behind `npm run lint` (package.json, with its pre script and the scripts it runs) is code, and so is every code file', () => {
    const p = lintProject({ patch: { linter: 'npm run lint' }, files: { 'package.json': '{"scripts":{"prelint":"node tools/pre.js","lint":"NODE_ENV=ci npm run lint:js && tsc","lint:js":"node tools/lint.js"}}\n', 'tools/lint.js': "import './helpers/load.mjs';\n", 'tools/helpers/load.mjs': '' } });
    const hits = filesCommandsExecute(p.root, [['npm', 'run', 'lint']], ['tools/lint.js', 'tools/pre.js', 'tools/helpers/load.mjs', 'src/a.ts', 'docs/a.md']);
    expect(hits.map((f) => f.path)).toEqual(['src/a.ts', 'tools/helpers/load.mjs', 'tools/lint.js', 'tools/pre.js']);
    expect(hits.find((f) => f.path === 'tools/pre.js')?.why).toContain('node tools/pre.js');
  });

  it.each([
    [['npx', '--no-install', 'tsx', 'lint.ts']],
    [['pnpm', 'exec', 'node', 'x.js']],
    [['uv', 'run', 'python', 'lint.py']],
    [['python3', '-m', 'mylint']],
    [['sh', 'scripts/fmt.sh']],
    [['node', '--test']],
    [['make', 'lint']],
  ])('%j may run the project\'s code: every changed code file counts (a module, a sourced script, a new test)', (command) => {
    const p = lintProject();
    const hits = filesCommandsExecute(p.root, [command], ['helper.py', 'scripts/lib.sh', 'test/b.test.js', 'rules/a.js', 'docs/a.md']).map((f) => f.path);
    expect(hits).toEqual(['helper.py', 'rules/a.js', 'scripts/lib.sh', 'test/b.test.js']);
  });

  it('a tool that only reads (tsc, eslint, ruff…) runs no source file, but runs what its configuration imports', () => {
    const p = lintProject({ files: { 'eslint.config.js': "const local = require('./eslint-rules/plugin.js');\nmodule.exports = [{ plugins: { local } }];\n", 'eslint-rules/plugin.js': '' } });
    // …and a script of the user's own, outside the project, is the user's tool, not the project's code.
    for (const command of [['npx', 'tsc', '--noEmit'], ['eslint', '.'], ['pnpm', 'eslint', '.'], ['ruff', 'check', '.'], ['cargo', 'clippy'], [process.execPath, path.join(tempDir(), 'fmt.cjs')]]) {
      expect(filesCommandsExecute(p.root, [command], ['src/a.ts', 'app/x.py']), command.join(' ')).toEqual([]);
    }
    expect(filesCommandsExecute(p.root, [['eslint', '.']], ['eslint-rules/plugin.js']).map((f) => f.path)).toEqual(['eslint-rules/plugin.js']);
  });
});
