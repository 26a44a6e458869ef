// The judge's rules (Appendix A4), pure: given the touched set from git reality, decide the
// first STOP that applies, and list every finding for the report.
import { isNewFile, type TouchedFile } from './blast.js';
import type { StopCode } from './codes.js';
import { globMatcher, isLockfile } from './scope.js';
import type { Task } from './task.js';

/** Where HEAD is after the builder, relative to the base commit. */
export type HeadState = 'base' | 'descendant' | 'moved';

/** The repository's own rules, from the config; the task cannot loosen them. */
export interface JudgeRules {
  /** True for runner-owned paths (the workspace, the config, runner_owned_globs). */
  readonly isRunnerOwned: (path: string) => boolean;
  /** Forbidden in every task, whatever the orchestrator wrote (config default_forbidden_globs). */
  readonly forbiddenFloor: readonly string[];
  readonly lockfiles: readonly string[];
  /** Upper bounds for the task's diff limits (config diff_limits defaults). */
  readonly maxFilesCap: number;
  readonly maxLinesCap: number;
}

export interface JudgeInput {
  readonly task: Task;
  readonly touched: readonly TouchedFile[];
  /** Runner-owned files that changed although git cannot see them (ignored or internal). */
  readonly ownedChanged: readonly string[];
  readonly head: HeadState;
  readonly rules: JudgeRules;
}

export interface Judgement {
  /** The first rule that applies, in table order; null when the change passes. */
  readonly code: Extract<StopCode, JudgedCode> | null;
  /** Every finding, "CODE: what", in table order. */
  readonly violations: readonly string[];
  readonly maxFiles: number;
  readonly maxLines: number;
}

export type JudgedCode =
  | 'STOP_RUNNER_OWNED_MUTATION'
  | 'STOP_SCOPE_VIOLATION_FORBIDDEN'
  | 'STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED'
  | 'STOP_SCOPE_VIOLATION_NEW_FILE'
  | 'STOP_LOCKFILE_CHANGE_FORBIDDEN'
  | 'STOP_DIFF_TOO_LARGE'
  | 'STOP_QUESTION_SIDE_EFFECTS'
  | 'STOP_VERIFY_ONLY_SIDE_EFFECTS'
  | 'STOP_HEAD_MOVED';

/** The diff limits that apply: the task's, capped by the configured defaults. */
export function effectiveLimits(task: Task, rules: JudgeRules): { maxFiles: number; maxLines: number } {
  return {
    maxFiles: Math.min(task.diff_limits.max_files_touched, rules.maxFilesCap),
    maxLines: Math.min(task.diff_limits.max_lines_changed, rules.maxLinesCap),
  };
}

function list(paths: readonly string[], max = 5): string {
  const shown = paths.slice(0, max).join(', ');
  return paths.length > max ? `${shown} and ${paths.length - max} more` : shown;
}

/** Applies the A4 rows in order; the first that matches gives the code. */
export function judgeChange(input: JudgeInput): Judgement {
  const { task, touched, rules } = input;
  const { maxFiles, maxLines } = effectiveLimits(task, rules);
  const paths = touched.map((f) => f.path);
  const forbidden = globMatcher([...rules.forbiddenFloor, ...task.scope.forbidden_globs]);
  const allowed = globMatcher(task.scope.allowed_globs);
  const findings: { code: JudgedCode; message: string }[] = [];
  const add = (code: JudgedCode, what: readonly string[], message: string): void => {
    if (what.length > 0) findings.push({ code, message });
  };

  const owned = [...new Set([...input.ownedChanged, ...paths.filter(rules.isRunnerOwned)])].sort();
  add('STOP_RUNNER_OWNED_MUTATION', owned, `runner-owned files changed: ${list(owned)}`);
  const outsideOwned = paths.filter((p) => !rules.isRunnerOwned(p));
  const hitForbidden = outsideOwned.filter(forbidden);
  add('STOP_SCOPE_VIOLATION_FORBIDDEN', hitForbidden, `forbidden paths touched: ${list(hitForbidden)}`);
  const outside = outsideOwned.filter((p) => !forbidden(p) && !allowed(p));
  add('STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED', outside, `paths outside allowed_globs: ${list(outside)}`);
  if (!task.scope.allow_new_files) {
    const created = touched.filter(isNewFile).map((f) => f.path);
    add('STOP_SCOPE_VIOLATION_NEW_FILE', created, `new files while allow_new_files is false: ${list(created)}`);
  }
  if (!task.scope.allow_lockfile_changes) {
    const locks = paths.filter((p) => isLockfile(p, rules.lockfiles));
    add('STOP_LOCKFILE_CHANGE_FORBIDDEN', locks, `lockfiles changed while allow_lockfile_changes is false: ${list(locks)}`);
  }
  const lines = touched.reduce((n, f) => n + f.added + f.deleted, 0);
  if (touched.length > maxFiles || lines > maxLines) {
    findings.push({ code: 'STOP_DIFF_TOO_LARGE', message: `diff of ${touched.length} files and ${lines} lines exceeds the limits (${maxFiles} files, ${maxLines} lines)` });
  }
  // A commit on top of base is a side effect too, even when its tree is unchanged.
  const anyChange = touched.length > 0 || owned.length > 0 || input.head !== 'base';
  if (task.task_kind === 'question' && anyChange) findings.push({ code: 'STOP_QUESTION_SIDE_EFFECTS', message: `a question task changed the repository (${touched.length} files${input.head === 'base' ? '' : ', HEAD moved'})` });
  if (task.task_kind === 'verify_only' && anyChange) findings.push({ code: 'STOP_VERIFY_ONLY_SIDE_EFFECTS', message: `a verify_only task changed the repository (${touched.length} files${input.head === 'base' ? '' : ', HEAD moved'})` });
  if (input.head === 'moved') findings.push({ code: 'STOP_HEAD_MOVED', message: 'HEAD is no longer the base commit or a descendant of it' });

  return {
    code: findings[0]?.code ?? null,
    violations: findings.map((f) => `${f.code}: ${f.message}`),
    maxFiles,
    maxLines,
  };
}
