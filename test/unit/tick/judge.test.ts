import { describe, expect, it } from 'vitest';
import type { TouchedFile } from '../../../src/engine/tick/blast.js';
import { judgeChange, type JudgeRules } from '../../../src/engine/tick/judge.js';
import { globMatcher, isLockfile, unsafeGlob } from '../../../src/engine/tick/scope.js';
import type { Task } from '../../../src/engine/tick/task.js';

const rules: JudgeRules = {
  isRunnerOwned: (p) => p === 'relais.config.json' || p.startsWith('relais/'),
  forbiddenFloor: ['.git/**', 'relais/**', '**/.env*', '**/*secret*', '**/*token*', '**/node_modules/**'],
  lockfiles: ['pnpm-lock.yaml', 'package-lock.json', 'yarn.lock', 'bun.lockb'],
  maxFilesCap: 12,
  maxLinesCap: 400,
};

function task(patch: Partial<Task['scope']> & { kind?: Task['task_kind']; maxFiles?: number; maxLines?: number } = {}): Task {
  return {
    task_id: 't',
    milestone_id: 'M1',
    task_kind: patch.kind ?? 'execute',
    intent: 'x',
    scope: { allowed_globs: patch.allowed_globs ?? ['src/**'], forbidden_globs: patch.forbidden_globs ?? [], allow_new_files: patch.allow_new_files ?? false, allow_lockfile_changes: patch.allow_lockfile_changes ?? false },
    diff_limits: { max_files_touched: patch.maxFiles ?? 5, max_lines_changed: patch.maxLines ?? 100 },
    verification: { fast: [], slow: [] },
    builder: { mode: 'claude_code', max_turns: 1, instructions: 'x' },
  };
}

const mod = (path: string, added = 1, deleted = 1): TouchedFile => ({ path, change: 'modified', added, deleted, binary: false });
const created = (path: string, added = 1): TouchedFile => ({ path, change: 'untracked', added, deleted: 0, binary: false });

const judge = (t: Task, touched: TouchedFile[], extra: { owned?: string[]; head?: 'base' | 'descendant' | 'moved' } = {}) =>
  judgeChange({ task: t, touched, ownedChanged: extra.owned ?? [], head: extra.head ?? 'base', rules });

describe('globMatcher()', () => {
  it('matches dotfiles and nested paths', () => {
    const m = globMatcher(['**/.env*', 'src/**', 'README.md', '**/*secret*']);
    expect(['.env', 'a/b/.env.local', 'src/x/y.ts', 'README.md', 'config/my-secrets.json'].every(m)).toBe(true);
    expect(['docs/README.md', 'srcx/a.ts', 'env'].some(m)).toBe(false);
  });
  it('matches nothing when there are no globs', () => {
    expect(globMatcher([])('a')).toBe(false);
  });
});

describe('unsafeGlob() and isLockfile()', () => {
  it('refuses globs that reach out of the root', () => {
    expect(unsafeGlob('src/**')).toBeNull();
    expect(unsafeGlob('/etc/**')).toBe('is absolute');
    expect(unsafeGlob('../x/**')).toBe('contains a ".." segment');
    expect(unsafeGlob('~/x')).toBe('is absolute');
    expect(unsafeGlob('a\\b')).toContain('backslash');
  });
  it('knows lockfiles by name at any depth', () => {
    expect(isLockfile('packages/web/pnpm-lock.yaml', rules.lockfiles)).toBe(true);
    expect(isLockfile('pnpm-lock.yaml.bak', rules.lockfiles)).toBe(false);
  });
});

describe('judgeChange()', () => {
  it('passes a change inside scope and limits', () => {
    expect(judge(task(), [mod('src/a.ts')])).toMatchObject({ code: null, violations: [] });
  });

  it('applies the rows in table order, listing every finding', () => {
    const result = judge(task(), [mod('relais/STATE.json'), mod('.env'), mod('docs/x.md'), created('src/n.ts'), mod('pnpm-lock.yaml')], { head: 'moved' });
    expect(result.code).toBe('STOP_RUNNER_OWNED_MUTATION');
    expect(result.violations.map((v) => v.split(':')[0])).toEqual([
      'STOP_RUNNER_OWNED_MUTATION',
      'STOP_SCOPE_VIOLATION_FORBIDDEN',
      'STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED',
      'STOP_SCOPE_VIOLATION_NEW_FILE',
      'STOP_LOCKFILE_CHANGE_FORBIDDEN',
      'STOP_HEAD_MOVED',
    ]);
  });

  it('counts runner-owned files git cannot see', () => {
    expect(judge(task(), [], { owned: ['relais/FACTS.md'] }).code).toBe('STOP_RUNNER_OWNED_MUTATION');
  });

  it('keeps the config floor of forbidden globs when the task lists none', () => {
    expect(judge(task({ allowed_globs: ['**'] }), [mod('a/node_modules/x.js')]).code).toBe('STOP_SCOPE_VIOLATION_FORBIDDEN');
    expect(judge(task({ allowed_globs: ['**'], forbidden_globs: ['docs/**'] }), [mod('docs/a.md')]).code).toBe('STOP_SCOPE_VIOLATION_FORBIDDEN');
  });

  it('allows new files and lockfiles only when the task says so', () => {
    expect(judge(task({ allow_new_files: true }), [created('src/n.ts')]).code).toBeNull();
    expect(judge(task({ allowed_globs: ['**'], allow_lockfile_changes: true }), [mod('pnpm-lock.yaml')]).code).toBeNull();
    expect(judge(task({ allowed_globs: ['**'] }), [mod('pnpm-lock.yaml')]).code).toBe('STOP_LOCKFILE_CHANGE_FORBIDDEN');
  });

  it('caps diff limits at the configured defaults and counts deleted lines', () => {
    expect(judge(task({ maxLines: 10 }), [mod('src/a.ts', 5, 6)]).code).toBe('STOP_DIFF_TOO_LARGE');
    expect(judge(task({ maxLines: 10 }), [mod('src/a.ts', 5, 5)]).code).toBeNull();
    const capped = judge(task({ maxLines: 20000, maxFiles: 500 }), [mod('src/a.ts', 401, 0)]);
    expect(capped).toMatchObject({ code: 'STOP_DIFF_TOO_LARGE', maxLines: 400, maxFiles: 12 });
    expect(judge(task({ maxFiles: 1 }), [mod('src/a.ts'), mod('src/b.ts')]).code).toBe('STOP_DIFF_TOO_LARGE');
  });

  it('stops question and verify_only tasks on any change, including a commit', () => {
    expect(judge(task({ kind: 'question' }), [mod('src/a.ts')]).code).toBe('STOP_QUESTION_SIDE_EFFECTS');
    expect(judge(task({ kind: 'verify_only' }), [mod('src/a.ts')]).code).toBe('STOP_VERIFY_ONLY_SIDE_EFFECTS');
    expect(judge(task({ kind: 'question' }), [], { head: 'descendant' }).code).toBe('STOP_QUESTION_SIDE_EFFECTS');
    expect(judge(task({ kind: 'question' }), []).code).toBeNull();
  });

  it('lets an execute task commit on top of base, but not move HEAD elsewhere', () => {
    expect(judge(task(), [mod('src/a.ts')], { head: 'descendant' }).code).toBeNull();
    expect(judge(task(), [mod('src/a.ts')], { head: 'moved' }).code).toBe('STOP_HEAD_MOVED');
  });
});
