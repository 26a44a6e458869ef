// The first tick in a project that is not the spec's pnpm monorepo: `relais init` writes the
// verification commands the project has, `relais doctor` checks they resolve and that a goal is
// set, and a verification command that is not installed is named in the verdict line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relais } from '../../helpers/cli.js';
import { gitRepo } from '../../helpers/temp.js';
import { builderDoes, EDIT_A, makeTask, TickRepo, type Json } from './harness.js';

function templatesAfterInit(files: Readonly<Record<string, string>>): Promise<{ templates: Json[]; stdout: string }> {
  const root = gitRepo(files);
  return relais(['init'], { cwd: root }).then((run) => {
    expect(run.exitCode).toBe(0);
    const config = JSON.parse(readFileSync(path.join(root, 'relais.config.json'), 'utf8')) as { verification: { templates: Json[] } };
    return { templates: config.verification.templates, stdout: run.stdout };
  });
}

const scripts = (names: Record<string, string>): string => JSON.stringify({ name: 'demo', scripts: names });

describe('relais init: verification commands for the project it finds', () => {
  it('runs the scripts that exist with the package manager of the lockfile', async () => {
    const pnpm = await templatesAfterInit({ 'package.json': scripts({ lint: 'eslint .', test: 'vitest run' }), 'pnpm-lock.yaml': 'lockfileVersion: 9\n' });
    expect(pnpm.templates).toEqual([
      { id: 'lint', cmd: 'pnpm', args: ['run', 'lint'] },
      { id: 'test', cmd: 'pnpm', args: ['run', 'test'] },
    ]);
    expect(pnpm.stdout).toContain('Verification commands (pnpm, from pnpm-lock.yaml): lint = pnpm run lint; test = pnpm run test.');
    const npm = await templatesAfterInit({ 'package.json': scripts({ typecheck: 'tsc --noEmit', test: 'node --test' }), 'package-lock.json': '{}' });
    expect(npm.templates).toEqual([
      { id: 'typecheck', cmd: 'npm', args: ['run', 'typecheck'] },
      { id: 'test', cmd: 'npm', args: ['run', 'test'] },
    ]);
    const yarn = await templatesAfterInit({ 'package.json': scripts({ 'type-check': 'tsc' }), 'yarn.lock': '' });
    expect(yarn.templates).toEqual([{ id: 'typecheck', cmd: 'yarn', args: ['run', 'type-check'] }]);
    const bun = await templatesAfterInit({ 'package.json': scripts({ test: 'bun test' }), 'bun.lock': '{}' });
    expect(bun.templates).toEqual([{ id: 'test', cmd: 'bun', args: ['run', 'test'] }]);
  });

  it('trusts package.json\'s packageManager field over a lockfile, and npm without either', async () => {
    const declared = await templatesAfterInit({ 'package.json': JSON.stringify({ packageManager: 'yarn@4.1.0', scripts: { lint: 'x' } }), 'package-lock.json': '{}' });
    expect(declared.templates).toEqual([{ id: 'lint', cmd: 'yarn', args: ['run', 'lint'] }]);
    expect(declared.stdout).toContain('from "packageManager": "yarn@4.1.0" in package.json');
    const bare = await templatesAfterInit({ 'package.json': scripts({ lint: 'x' }) });
    expect(bare.templates).toEqual([{ id: 'lint', cmd: 'npm', args: ['run', 'lint'] }]);
  });

  it('writes none when package.json has no such script, and says so', async () => {
    const none = await templatesAfterInit({ 'package.json': scripts({ build: 'tsc' }), 'pnpm-lock.yaml': '' });
    expect(none.templates).toEqual([]);
    expect(none.stdout).toContain('No verification commands were found (package.json has no lint, typecheck or test script)');
  });
});

describe('relais doctor: the goal and the verification commands', () => {
  it('warns about an empty goal and fails naming a verification command that is not installed', async () => {
    const repo = new TickRepo({ config: (c) => ((c.verification as Json).templates = [{ id: 'lint', cmd: 'pnpm-not-installed-xyz', args: ['run', 'lint'] }, { id: 'test', cmd: 'node', args: ['-e', '0'] }]) });
    const run = await repo.relais(['doctor']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('⚠ goal: project.goal is empty in relais.config.json');
    expect(run.stdout).toContain('✘ verification: not found on PATH: "pnpm-not-installed-xyz" (lint); install it or change verification.templates in relais.config.json');
  });

  it('passes both checks when the goal is set and every command resolves', async () => {
    const repo = new TickRepo({ config: (c) => ((c.project as Json).goal = 'Ship the forecast cache') });
    const report = JSON.parse((await repo.relais(['doctor', '--json'])).stdout) as { checks: { name: string; status: string; detail: string }[] };
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    expect(byName.get('goal')).toMatchObject({ status: 'ok', detail: 'Ship the forecast cache' });
    expect(byName.get('verification')).toMatchObject({ status: 'ok', detail: expect.stringContaining('command(s) found: node') });
  });

  it('outside a Relais repository says to run relais init', async () => {
    const run = await relais(['doctor'], { cwd: gitRepo() });
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('Run `relais init` in the repository root first.');
  });
});

describe('relais run: a verification command that is not installed', () => {
  it('is named in the verdict line, with the fix', async () => {
    const repo = new TickRepo({ config: (c) => ((c.verification as Json).templates = [{ id: 'lint', cmd: 'pnpm-not-installed-xyz', args: ['-w', 'lint'] }]) });
    repo.scenario({ orchestrator: [{ result: makeTask({ fast: ['lint'] }) }], builder: [builderDoes(EDIT_A)] });
    const run = await repo.run();
    expect(run.result).toMatchObject({ verdict: 'stop', code: 'STOP_VERIFY_FAILED_FAST' });
    expect(run.result.detail).toBe('fast verification "lint" could not start: "pnpm-not-installed-xyz" was not found on PATH; install it or change verification.templates in relais.config.json');
    repo.scenario({ orchestrator: [{ result: makeTask({ fast: ['lint'] }) }], builder: [builderDoes(EDIT_A)] });
    const human = await repo.relais(['run']);
    expect(human.stdout).toContain('■ STOP STOP_VERIFY_FAILED_FAST: fast verification "lint" could not start: "pnpm-not-installed-xyz" was not found on PATH');
  });
});
