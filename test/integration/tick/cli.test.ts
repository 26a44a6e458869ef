import { existsSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { relais, REPO_ROOT } from '../../helpers/cli.js';
import { gitIn, gitRepo, tempDir } from '../../helpers/temp.js';
import { defaultTickConfig } from '../../../src/engine/tick/config.js';
import { SCHEMA_FILES } from '../../../src/engine/tick/schemas.js';
import { builderDoes, EDIT_A, FAKE_CLAUDE, makeTask, TickRepo, type Json } from './harness.js';
import { until } from '../../helpers/wait.js';

describe('relais init', () => {
  it('writes the config with the spec defaults, the schemas and prompts, and a committed init leaves a clean tree', async () => {
    const root = gitRepo({ 'src/a.ts': 'x\n' });
    const run = await relais(['init'], { cwd: root });
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('created relais.config.json');
    const config = JSON.parse(readFileSync(path.join(root, 'relais.config.json'), 'utf8')) as Json;
    // Every default, except verification commands the project does not have (no package.json: none).
    const defaults = JSON.parse(JSON.stringify(defaultTickConfig())) as Json;
    expect(config).toEqual({ ...defaults, verification: { ...(defaults.verification as Json), templates: [] } });
    expect(run.stdout).toContain('No verification commands were found (no package.json)');
    expect(config).toMatchObject({ version: '1.0', workspace_dir: 'relais', runner: { max_tick_seconds: 900, render_report_md: { max_chars: 6000 } }, orchestrator: { max_turns: 1, permission_mode: 'plan', max_budget_usd: 0.4 } });
    expect((config.verification as Json).reject_metachars_regex).toBe('[;&|$\\\\><(){}\\[\\]`\\n\\r\\t\\0]');
    for (const [name, schema] of Object.entries(SCHEMA_FILES)) {
      expect(JSON.parse(readFileSync(path.join(root, 'relais/schemas', name), 'utf8'))).toEqual(schema);
    }
    for (const name of ['orchestrator.system.txt', 'orchestrator.user.txt', 'builder.system.txt', 'builder.user.txt']) {
      expect(readFileSync(path.join(root, 'relais/prompts', name), 'utf8').length).toBeGreaterThan(100);
    }
    // The spec's pack layout: relais/fixtures/README.md lists the twelve contract fixtures.
    const fixtures = readFileSync(path.join(root, 'relais/fixtures/README.md'), 'utf8');
    for (let n = 1; n <= 12; n += 1) expect(fixtures).toContain(`## F${String(n).padStart(3, '0')} `);
    expect(fixtures).toContain('BLOCKED_CRASH_RECOVERY_REQUIRED');
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '-m', 'relais');
    // Runner state written later stays out of git status.
    for (const file of ['STATE.json', 'TASK.json', 'REPORT.json', 'REPORT.md', 'BLOCKED.json', 'FACTS.md', 'lock.json', 'history/x/meta.json', '.STATE.json.1.ab.tmp']) {
      expect(gitIn(root, 'check-ignore', `relais/${file}`).trim()).toBe(`relais/${file}`);
    }
    expect(gitIn(root, 'status', '--porcelain')).toBe('');
    const again = await relais(['init'], { cwd: root });
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain('kept relais.config.json');
    expect(gitIn(root, 'status', '--porcelain')).toBe('');
  });
});

describe('relais command line', () => {
  it('--help lists the four commands and the exit codes', async () => {
    const run = await relais(['--help'], { cwd: process.cwd() });
    expect(run.exitCode).toBe(0);
    for (const word of ['init', 'run', 'status', 'doctor', 'Exit codes']) expect(run.stdout).toContain(word);
    const runHelp = await relais(['run', '--help'], { cwd: process.cwd() });
    expect(runHelp.stdout).toContain('--json');
  });

  it('a wrong command line exits with 2', async () => {
    expect((await relais(['launch'], { cwd: process.cwd() })).exitCode).toBe(2);
    expect((await relais(['run', '--bogus'], { cwd: process.cwd() })).exitCode).toBe(2);
  });

  it('run --json prints the stage events in order, then the result; human output says the verdict', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['pass'] }) }], builder: [builderDoes({ op: 'write', path: 'package.json', content: '{}\n' })] });
    const run = await repo.run();
    expect(run.events.map((e) => e.type)).toEqual(['started', 'orchestrated', 'built', 'judged', 'reported']);
    expect(run.events[3]).toMatchObject({ type: 'judged', code: 'STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED', blastRadius: '1 files, +1/-1, 0 new' });
    expect(run.result).toMatchObject({ type: 'result', verdict: 'stop', code: 'STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED', path: 'relais/REPORT.md' });
    const human = await repo.relais(['run']);
    expect(human.exitCode).toBe(1);
    expect(human.stdout).toContain('■ STOP STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED');
  });

  it('status shows the last tick and budgets; --preflight says whether a tick can start', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask() }], builder: [builderDoes(EDIT_A)] });
    const ready = await repo.relais(['status', '--preflight', '--json']);
    expect(ready.exitCode).toBe(0);
    expect(JSON.parse(ready.stdout)).toMatchObject({ preflight: { ready: true }, lastRun: null, lock: { state: 'free' } });
    await repo.run();
    const after = await repo.relais(['status', '--preflight']);
    expect(after.exitCode).toBe(1);
    expect(after.stdout).toContain('last tick:');
    expect(after.stdout).toContain('SUCCESS');
    expect(after.stdout).toContain('ticks 1/200');
    expect(after.stdout).toContain('preflight: BLOCKED_DIRTY_WORKTREE');
    expect(repo.exists('relais/BLOCKED.json')).toBe(false); // status never writes
  });

  it('doctor reports git, the Claude CLI, its permission modes, root, config, schemas and budgets', async () => {
    const repo = new TickRepo();
    const run = await repo.relais(['doctor', '--json']);
    const report = JSON.parse(run.stdout) as { ok: boolean; checks: { name: string; status: string; detail: string }[] };
    const byName = new Map(report.checks.map((c) => [c.name, c]));
    expect(byName.get('git')?.status).toBe('ok');
    expect(byName.get('claude')).toMatchObject({ status: 'ok', detail: `${FAKE_CLAUDE} (version 2.1.197)` });
    expect(byName.get('permission modes')?.detail).toContain('bypassPermissions');
    expect(byName.get('permission modes')?.status).toBe('ok');
    expect(byName.get('config')?.status).toBe('ok');
    expect(byName.get('schemas and prompts')?.status).toBe('ok');
    expect(byName.get('budgets')?.detail).toContain('ticks 200');
    expect(byName.has('root')).toBe(true);
    expect(run.exitCode).toBe(report.ok ? 0 : 1);
  });

  it('doctor fails when relais/history is a link out of the project (relais run refuses it too)', async () => {
    const repo = new TickRepo();
    const outside = tempDir();
    rmSync(path.join(repo.root, 'relais', 'history'), { recursive: true, force: true });
    symlinkSync(outside, path.join(repo.root, 'relais', 'history'));
    const run = await repo.relais(['doctor', '--json']);
    const report = JSON.parse(run.stdout) as { ok: boolean; checks: { name: string; status: string; detail: string }[] };
    expect(report.checks.find((c) => c.name === 'state folders')).toMatchObject({ status: 'fail', detail: expect.stringContaining('STATE_FOLDER_UNSAFE') });
    expect(run.exitCode).toBe(1);
  });

  it('doctor fails when the Claude CLI cannot be found', async () => {
    const repo = new TickRepo({ config: (c) => ((c.claude_code_cli as Json).command = 'definitely-not-claude-xyz') });
    const run = await repo.relais(['doctor']);
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toContain('✘ claude: "definitely-not-claude-xyz" was not found on PATH');
  });

  it('a Claude CLI that cannot be started is STOP_INTERRUPTED with nothing charged but the call', async () => {
    const repo = new TickRepo({ config: (c) => ((c.claude_code_cli as Json).command = '/nonexistent/claude') });
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_INTERRUPTED');
    expect(String(run.result.detail)).toContain('could not start Claude');
    expect(repo.counters()).toMatchObject({ orchestrator_calls: 1, estimated_cost_usd: 0 });
  });
});

describe('relais run interrupted', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)('%s kills the builder and the tools it started, reports STOP_INTERRUPTED, rolls back and frees the lock', async (signal) => {
    const hold = path.join(tempDir('relais-hold-'), 'never-created');
    const repo = new TickRepo();
    repo.scenario({ orchestrator: [{ result: makeTask() }], builder: [{ ...builderDoes(EDIT_A), wait_for: hold, spawn_child: repo.pidFile }] });
    const before = repo.snapshot();
    const child = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relais.js'), 'run', '--json'], {
      cwd: repo.root,
      reject: false,
      env: { IS_SANDBOX: '1', FAKE_CLAUDE_LOG: repo.logFile, FAKE_CLAUDE_SCENARIO: repo.scenarioFile },
    });
    await until('the builder to start (and its tool)', () => repo.calls('builder').length > 0 && existsSync(repo.pidFile));
    child.kill(signal);
    const run = await child;
    expect(run.exitCode).toBe(1);
    const result = JSON.parse(run.stdout.trim().split('\n').pop()!) as { code: string };
    expect(result.code).toBe('STOP_INTERRUPTED');
    repo.expectRolledBack(before);
    expect(existsSync(path.join(repo.root, 'relais/lock.json'))).toBe(false);
    expect(repo.grandchildRunning()).toBe(false);
  });
});
