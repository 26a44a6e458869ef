import { describe, expect, it } from 'vitest';
import { defaultTickConfig, parseTickConfig } from '../../../src/engine/tick/config.js';

describe('relais.config.json', () => {
  it('has the spec defaults', () => {
    const c = defaultTickConfig();
    expect(c.runner).toMatchObject({ require_git: true, max_tick_seconds: 900, lockfile: 'relais/lock.json', crash_cleanup: { delete_tmp_glob: 'relais/*.tmp', validate_runner_json_files: true }, render_report_md: { enabled: true, max_chars: 6000 } });
    expect(c.runner.runner_owned_globs).toContain('relais/history/**');
    expect(c.models).toEqual({ orchestrator_model: 'opus', orchestrator_fallback_model: 'sonnet', builder_model: 'sonnet', builder_fallback_model: 'haiku' });
    expect(c.builder.claude_code).toMatchObject({ max_turns: 8, permission_mode: 'bypassPermissions', allowed_tools: 'Read,Edit,Glob,Grep,Bash', max_budget_usd: 1.5, strict_builder_json: false });
    expect(c.scope.lockfiles).toEqual(['pnpm-lock.yaml', 'package-lock.json', 'yarn.lock', 'bun.lockb']);
    expect(c.diff_limits).toEqual({ default_max_files_touched: 12, default_max_lines_changed: 400 });
    expect(c.verification.templates.map((t) => t.id)).toEqual(['lint', 'typecheck', 'test', 'test_filter']);
    expect(c.budgets).toEqual({ per_milestone: { max_ticks: 200, max_orchestrator_calls: 260, max_builder_calls: 200, max_verify_runs: 600, max_estimated_cost_usd: 80 }, warn_at_fraction: 0.8 });
    expect(c.history).toEqual({ enabled: true, dir: 'relais/history', max_mb: 500, include_diff_patch: true, include_verify_log: true });
  });

  it('the default metacharacter regex matches the spec list', () => {
    const re = new RegExp(defaultTickConfig().verification.reject_metachars_regex);
    for (const ch of [';', '&', '|', '$', '\\', '>', '<', '(', ')', '{', '}', '[', ']', '`', '\n', '\r', '\t', '\0']) expect(re.test(`a${ch}b`), JSON.stringify(ch)).toBe(true);
    for (const ok of ['pkg-a', '@scope/name', 'a.b_c:d', 'a=b']) expect(re.test(ok)).toBe(false);
  });

  it('fills missing sections and refuses unknown keys, bad regexes and undeclared placeholders', () => {
    expect(parseTickConfig({ project: { goal: 'ship' } }).ok).toBe(true);
    const typo = parseTickConfig({ runer: {} });
    expect(typo.ok).toBe(false);
    expect(!typo.ok && typo.error.message).toContain('runer');
    expect(parseTickConfig({ verification: { reject_metachars_regex: '[' } }).ok).toBe(false);
    const undeclared = parseTickConfig({ verification: { templates: [{ id: 't', cmd: 'x', args: ['{{who}}'] }] } });
    expect(!undeclared.ok && undeclared.error.message).toContain('{{who}} is not declared');
    expect(parseTickConfig({ verification: { templates: [{ id: 't', cmd: 'x' }, { id: 't', cmd: 'y' }] } }).ok).toBe(false);
    expect(parseTickConfig({ history: { dir: '../elsewhere' } }).ok).toBe(false);
    expect(parseTickConfig({ runner: { require_git: false } }).ok).toBe(false);
  });
});
