import { describe, expect, it } from 'vitest';
import { defaultTickConfig, type VerificationTemplate } from '../../../src/engine/tick/config.js';
import { paramRulesOf, planVerification, taintOf } from '../../../src/engine/tick/params.js';
import type { Task } from '../../../src/engine/tick/task.js';

const rules = paramRulesOf(defaultTickConfig());
const inside = (p: string): boolean => !p.startsWith('/') && !p.includes('..');
const templates: VerificationTemplate[] = [
  { id: 'lint', cmd: 'pnpm', args: ['-w', 'lint'] },
  { id: 'test_filter', cmd: 'pnpm', args: ['-w', 'test', '--filter', '{{pkg}}'], params: { pkg: { kind: 'string_token' } } },
  { id: 'check', cmd: 'tool', args: ['--file={{file}}', '--glob=a|b;c'], params: { file: { kind: 'path' } } },
];

function task(verification: Task['verification']): Task {
  return {
    task_id: 't',
    milestone_id: 'M1',
    task_kind: 'execute',
    intent: 'x',
    scope: { allowed_globs: ['src/**'], forbidden_globs: [], allow_new_files: false, allow_lockfile_changes: false },
    diff_limits: { max_files_touched: 1, max_lines_changed: 1 },
    verification,
    builder: { mode: 'claude_code', max_turns: 1, instructions: 'x' },
  };
}

const timeouts = { fastMs: 90_000, slowMs: 600_000 };

describe('taintOf()', () => {
  it.each([
    ['a;rm -rf', 'contains whitespace, contains a shell metacharacter'],
    ['a;b', 'contains a shell metacharacter'],
    ['$(id)', 'contains a shell metacharacter'],
    ['a`b`', 'contains a shell metacharacter'],
    ['a|b', 'contains a shell metacharacter'],
    ['a>b', 'contains a shell metacharacter'],
    ['a\\b', 'contains a shell metacharacter'],
    ['a\nb', 'contains whitespace, contains a shell metacharacter'],
    ['a\0b', 'contains a shell metacharacter'],
    ['a b', 'contains whitespace'],
    ['../x', 'contains ".."'],
    ['a..b', 'contains ".."'],
    ['--exec=evil', 'starts with "-" (it would be read as an option)'],
    ['x'.repeat(129), 'is longer than 128 characters'],
    ['', 'is empty'],
  ])('refuses %j: %s', (value, reason) => {
    expect(taintOf(value, 'string_token', rules, inside)).toBe(reason);
  });

  it('accepts ordinary tokens, numbers and booleans', () => {
    for (const value of ['pkg-a', '@scope/pkg', 'a.b_c', 'x'.repeat(128), 42, true]) expect(taintOf(value, 'string_token', rules, inside)).toBeNull();
  });

  it('refuses null and missing values', () => {
    expect(taintOf(null, 'string_token', rules, inside)).toBe('is null');
    expect(taintOf(undefined, 'string_token', rules, inside)).toBe('has no value');
  });

  it('checks path values against the root', () => {
    expect(taintOf('src/a.ts', 'path', rules, inside)).toBeNull();
    expect(taintOf('/etc/passwd', 'path', rules, inside)).toBe('does not resolve inside the repository root');
  });

  it('follows the config switches', () => {
    const lax = { ...rules, rejectWhitespace: false, rejectDotdot: false };
    expect(taintOf('a b', 'string_token', lax, inside)).toBeNull();
    expect(taintOf('a..b', 'string_token', lax, inside)).toBeNull();
  });
});

describe('planVerification()', () => {
  it('expands params into argv in order, fast first, and leaves fixed args alone', () => {
    const plan = planVerification(task({ fast: ['test_filter'], slow: ['lint', 'check'], params: { test_filter: { pkg: 'web' }, check: { file: 'src/a.ts' } } }), templates, rules, timeouts, inside);
    expect(plan).toEqual({
      ok: true,
      runs: [
        { templateId: 'test_filter', phase: 'fast', cmd: 'pnpm', args: ['-w', 'test', '--filter', 'web'], timeoutMs: 90_000 },
        { templateId: 'lint', phase: 'slow', cmd: 'pnpm', args: ['-w', 'lint'], timeoutMs: 600_000 },
        // "a|b;c" is the template's own text, from the user's config: never checked.
        { templateId: 'check', phase: 'slow', cmd: 'tool', args: ['--file=src/a.ts', '--glob=a|b;c'], timeoutMs: 600_000 },
      ],
    });
  });

  it('an unknown template taints the whole plan', () => {
    const plan = planVerification(task({ fast: ['lint', 'deploy'], slow: [] }), templates, rules, timeouts, inside);
    expect(plan).toEqual({ ok: false, taints: ['verification template "deploy" is not defined in relais.config.json'] });
  });

  it('a tainted, missing or undeclared param taints the whole plan', () => {
    expect(planVerification(task({ fast: ['lint', 'test_filter'], slow: [], params: { test_filter: { pkg: 'a;b' } } }), templates, rules, timeouts, inside)).toEqual({
      ok: false,
      taints: ['param "pkg" of template "test_filter" contains a shell metacharacter'],
    });
    expect(planVerification(task({ fast: ['test_filter'], slow: [] }), templates, rules, timeouts, inside)).toEqual({ ok: false, taints: ['param "pkg" of template "test_filter" has no value'] });
    expect(planVerification(task({ fast: ['lint'], slow: [], params: { lint: { extra: 'x' } } }), templates, rules, timeouts, inside)).toEqual({ ok: false, taints: ['param "extra" is not declared by template "lint"'] });
  });

  it('an empty verification list is an empty plan', () => {
    expect(planVerification(task({ fast: [], slow: [] }), templates, rules, timeouts, inside)).toEqual({ ok: true, runs: [] });
  });
});
