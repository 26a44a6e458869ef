// The spec's fixtures F001-F012, each through the built `relais` CLI on a real git repository
// with the fake Claude CLI on disk.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builderDoes, BUILDER_RESULT, EDIT_A, makeTask, TickRepo } from './harness.js';

function valueAfter(argv: readonly string[], flag: string): string | undefined {
  const i = argv.indexOf(flag);
  return i === -1 ? undefined : argv[i + 1];
}

describe('relais fixtures', () => {
  it('F001 one_tick_limits: one orchestrator call, one builder call, SUCCESS with the exact argv', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['pass'], slow: ['slow_pass'] }), cost: 0.12 }], builder: [{ ...builderDoes(EDIT_A), cost: 0.5 }] });
    const base = repo.head();
    const run = await repo.run();

    expect(run.result.code, JSON.stringify(run.result)).toBe('SUCCESS');
    expect(run.exitCode).toBe(0);
    const orchestrator = repo.calls('orchestrator');
    const builder = repo.calls('builder');
    expect(orchestrator).toHaveLength(1);
    expect(builder).toHaveLength(1);

    const o = orchestrator[0]!;
    expect(o.cwd).toBe(repo.root);
    expect(o.argv.slice(0, 8)).toEqual(['-p', '--output-format', 'json', '--max-turns', '1', '--no-session-persistence', '--permission-mode', 'plan']);
    expect(valueAfter(o.argv, '--model')).toBe('opus');
    expect(o.stdin).toContain('== Milestone (use it as milestone_id) ==\nM1');
    expect(o.stdin).toContain('"$id": "https://relais.local/schemas/task.schema.json"');
    expect(o.stdin).not.toMatch(/\{\{[A-Z_]+\}\}/);

    const b = builder[0]!;
    expect(b.cwd).toBe(repo.root);
    expect(b.argv.slice(0, 10)).toEqual(['-p', '--output-format', 'json', '--max-turns', '4', '--no-session-persistence', '--allowedTools', 'Read,Edit,Glob,Grep,Bash', '--permission-mode', 'bypassPermissions']);
    expect(valueAfter(b.argv, '--model')).toBe('sonnet');
    expect(b.stdin).toContain('"task_id": "T-1"');
    expect(b.stdin).not.toMatch(/\{\{[A-Z_]+\}\}/);

    // The change stays for the user to review; nothing is committed by the runner.
    expect(repo.file('src/a.ts')).toBe('export const a = 2;\n');
    expect(repo.head()).toBe(base);
    expect(repo.gitStatus()).toBe(' M src/a.ts\n');
    expect(repo.markerLines()).toEqual(['pass', 'slow_pass']);

    const report = repo.report();
    expect(report.verdict).toBe('success');
    expect(report.blast_radius).toEqual({ files_touched: 1, lines_added: 1, lines_deleted: 1, new_files: 0 });
    expect(report.verification.runs.map((r) => [r.phase, r.template_id, r.exit_code])).toEqual([
      ['fast', 'pass', 0],
      ['slow', 'slow_pass', 0],
    ]);
    expect(report.budgets).toMatchObject({ ticks: 1, orchestrator_calls: 1, builder_calls: 1, verify_runs: 2, estimated_cost_usd: 0.62 });
    expect(repo.file('relais/REPORT.md')).toContain('Blast radius: 1 files, +1/-1, 0 new');

    const history = path.join(repo.root, 'relais/history', report.run_id);
    expect(readdirSync(history).sort()).toEqual(['diff.patch', 'meta.json', 'report.json', 'report.md', 'verify.log']);
    expect(readFileSync(path.join(history, 'diff.patch'), 'utf8')).toContain('+export const a = 2;');
    expect(readFileSync(path.join(history, 'report.md'), 'utf8')).toBe(repo.file('relais/REPORT.md'));
    expect(readFileSync(path.join(history, 'verify.log'), 'utf8')).toContain('slow_pass');
    expect(JSON.parse(repo.file('relais/TASK.json'))).toEqual(makeTask({ fast: ['pass'], slow: ['slow_pass'] }));
    expect(run.events.map((e) => e.type)).toEqual(['started', 'orchestrated', 'built', 'judged', 'verified', 'reported']);
  });

  it('F001 with one invalid answer: the single retry carries the reason, then the tick runs', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: 'Sure! Here is the task: {' }, { result: makeTask() }], builder: [builderDoes(EDIT_A)] });
    const run = await repo.run();
    expect(run.result.code).toBe('SUCCESS');
    const [first, second] = repo.calls('orchestrator');
    expect(repo.calls('orchestrator')).toHaveLength(2);
    expect(repo.calls('builder')).toHaveLength(1);
    expect(second!.stdin).not.toBe(first!.stdin);
    expect(second!.stdin.startsWith(first!.stdin)).toBe(true);
    expect(second!.stdin).toContain('Your previous answer was refused');
    expect(second!.stdin).toContain('not JSON');
    expect(repo.counters()).toMatchObject({ orchestrator_calls: 2, builder_calls: 1 });
  });

  it('F002 orchestrator_invalid_json_blocks: invalid twice is BLOCKED, the builder never runs', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: 'not json' }, { result: '```\nstill not json\n```' }], builder: [builderDoes(EDIT_A)] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result).toMatchObject({ verdict: 'blocked', code: 'BLOCKED_ORCHESTRATOR_OUTPUT_INVALID' });
    expect(run.exitCode).toBe(1);
    expect(repo.calls('orchestrator')).toHaveLength(2);
    expect(repo.calls('builder')).toHaveLength(0);
    const blocked = repo.blocked();
    expect(blocked).toMatchObject({ verdict: 'blocked', code: 'BLOCKED_ORCHESTRATOR_OUTPUT_INVALID' });
    expect(String(blocked.remediation).length).toBeGreaterThan(20);
    expect(repo.exists('relais/REPORT.json')).toBe(false);
    repo.expectRolledBack(before);
  });

  it('F003 question_no_side_effects: a question task that edits is stopped and rolled back', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ kind: 'question' }) }], builder: [builderDoes(EDIT_A)] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result).toMatchObject({ verdict: 'stop', code: 'STOP_QUESTION_SIDE_EFFECTS', rolledBack: true });
    expect(repo.report().code).toBe('STOP_QUESTION_SIDE_EFFECTS');
    repo.expectRolledBack(before);
  });

  it('F004 verify_only_no_side_effects: a verify_only task that edits is stopped and rolled back', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ kind: 'verify_only', fast: ['pass'] }) }], builder: [builderDoes(EDIT_A, { op: 'delete', path: 'src/b.ts' })] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_VERIFY_ONLY_SIDE_EFFECTS');
    expect(repo.markerLines()).toEqual([]); // the judge stops before any verification
    repo.expectRolledBack(before);
  });

  it('F005 scope_violation_outside_allowed: editing package.json with allowed src/**', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ allowed: ['src/**'] }) }], builder: [builderDoes({ op: 'write', path: 'package.json', content: '{ "name": "hacked" }\n' })] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED');
    const report = repo.report();
    expect(report.scope.ok).toBe(false);
    expect(report.scope.touched_paths).toEqual(['package.json']);
    expect(report.scope.violations[0]).toMatch(/^STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED: .*package\.json/);
    repo.expectRolledBack(before);
  });

  it('F006 forbidden_path_violation: the builder writes relais/STATE.json (ignored, caught by content)', async () => {
    const repo = new TickRepo().scenario({
      orchestrator: [{ result: makeTask() }],
      builder: [builderDoes(EDIT_A, { op: 'write', path: 'relais/STATE.json', content: '{"version":1,"milestones":{},"budget_warning":false,"last_run":null,"updated_at":"x"}\n' })],
    });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_RUNNER_OWNED_MUTATION');
    expect(repo.report().scope.violations.join('\n')).toContain('relais/STATE.json');
    repo.expectRolledBack(before);
    // The runner's counters survive the builder's attempt to reset them.
    expect(repo.counters()).toMatchObject({ ticks: 1, orchestrator_calls: 1, builder_calls: 1 });
  });

  it('F006 forbidden_path_violation: the builder edits .git/config', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask() }], builder: [builderDoes(EDIT_A, { op: 'append', path: '.git/config', content: '[alias]\n\tevil = !rm -rf /\n' })] });
    const configBefore = readFileSync(path.join(repo.root, '.git/config'), 'utf8');
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_SCOPE_VIOLATION_FORBIDDEN');
    expect(repo.report().scope.touched_paths).toContain('.git/config');
    expect(readFileSync(path.join(repo.root, '.git/config'), 'utf8')).toBe(configBefore);
    repo.expectRolledBack(before);
  });

  it('F007 new_file_rejected: src/new.ts with allow_new_files=false', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ newFiles: false }) }], builder: [builderDoes({ op: 'write', path: 'src/deep/new.ts', content: 'export const n = 1;\n' })] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_SCOPE_VIOLATION_NEW_FILE');
    expect(repo.report().blast_radius).toEqual({ files_touched: 1, lines_added: 1, lines_deleted: 0, new_files: 1 });
    repo.expectRolledBack(before);
    expect(repo.exists('src/deep')).toBe(false);
  });

  it('F008 lockfile_change_rejected: pnpm-lock.yaml with allow_lockfile_changes=false', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ allowed: ['**'], lockfileChanges: false }) }], builder: [builderDoes({ op: 'append', path: 'pnpm-lock.yaml', content: 'packages: {}\n' })] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_LOCKFILE_CHANGE_FORBIDDEN');
    repo.expectRolledBack(before);
  });

  it('F009 diff_too_large: 200 lines against max_lines_changed=20', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ maxLines: 20 }) }], builder: [builderDoes({ op: 'lines', path: 'src/a.ts', count: 200 })] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_DIFF_TOO_LARGE');
    expect(repo.report().blast_radius).toEqual({ files_touched: 1, lines_added: 200, lines_deleted: 1, new_files: 0 });
    repo.expectRolledBack(before);
  });

  it('F010 verify_taint_rejected: "a;rm -rf" is refused and nothing runs', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['pass', 'echo'], params: { echo: { value: 'a;rm -rf' } } }) }], builder: [builderDoes(EDIT_A)] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_VERIFY_TAINTED');
    expect(repo.markerLines()).toEqual([]); // not even the clean "pass" ran
    const report = repo.report();
    expect(report.verification.runs).toEqual([]);
    expect(report.budgets.verify_runs).toBe(0);
    expect(repo.counters().verify_runs).toBe(0);
    expect(readFileSync(path.join(repo.root, report.verification.verify_log_path), 'utf8')).toContain('shell metacharacter');
    repo.expectRolledBack(before);
  });

  it('F011 verify_fast_fail_stops: a failing fast check stops before the slow ones', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ fast: ['pass', 'fail', 'pass2'], slow: ['slow_pass'] }) }], builder: [builderDoes(EDIT_A)] });
    const before = repo.snapshot();
    const run = await repo.run();
    expect(run.result.code).toBe('STOP_VERIFY_FAILED_FAST');
    expect(repo.markerLines()).toEqual(['pass', 'fail']);
    const report = repo.report();
    expect(report.verification.runs.map((r) => [r.template_id, r.exit_code])).toEqual([
      ['pass', 0],
      ['fail', 3],
    ]);
    expect(report.budgets.verify_runs).toBe(2);
    repo.expectRolledBack(before);
  });

  it('F012 crash_tmp_cleanup_blocks_if_invalid: a stale STATE.json.tmp and a corrupt STATE.json', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask() }], builder: [builderDoes(EDIT_A)] });
    writeFileSync(path.join(repo.root, 'relais/STATE.json.tmp'), '{"version":1,"milest');
    writeFileSync(path.join(repo.root, 'relais/STATE.json'), '{"version":1,"milest');
    expect(repo.gitStatus()).toBe(''); // runner state is ignored
    const run = await repo.run();
    expect(run.result).toMatchObject({ verdict: 'blocked', code: 'BLOCKED_CRASH_RECOVERY_REQUIRED' });
    expect(repo.calls()).toHaveLength(0);
    expect(existsSync(path.join(repo.root, 'relais/STATE.json.tmp'))).toBe(false);
    const blocked = repo.blocked();
    expect(blocked.code).toBe('BLOCKED_CRASH_RECOVERY_REQUIRED');
    expect(JSON.stringify(blocked.details)).toContain('relais/STATE.json');
    expect(String(blocked.remediation)).toMatch(/STATE\.json/);
  });

  it('F001 builder --max-turns is the smaller of the task and the config', async () => {
    const repo = new TickRepo().scenario({ orchestrator: [{ result: makeTask({ maxTurns: 30 }) }], builder: [{ result: BUILDER_RESULT }] });
    await repo.run();
    expect(valueAfter(repo.calls('builder')[0]!.argv, '--max-turns')).toBe('8');
  });
});
