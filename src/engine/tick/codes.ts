/** Every outcome code of a tick, exactly as report.schema.json spells them. */
export const STOP_CODES = [
  'STOP_SCOPE_VIOLATION_FORBIDDEN',
  'STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED',
  'STOP_SCOPE_VIOLATION_NEW_FILE',
  'STOP_LOCKFILE_CHANGE_FORBIDDEN',
  'STOP_DIFF_TOO_LARGE',
  'STOP_VERIFY_FAILED_FAST',
  'STOP_VERIFY_FAILED_SLOW',
  'STOP_VERIFY_TAINTED',
  'STOP_VERIFY_ONLY_SIDE_EFFECTS',
  'STOP_QUESTION_SIDE_EFFECTS',
  'STOP_RUNNER_OWNED_MUTATION',
  'STOP_BUILDER_OUTPUT_INVALID',
  'STOP_HEAD_MOVED',
  'STOP_INTERRUPTED',
] as const;

export const BLOCKED_CODES = [
  'BLOCKED_BUDGET_EXHAUSTED',
  'BLOCKED_DIRTY_WORKTREE',
  'BLOCKED_LOCK_HELD',
  'BLOCKED_CRASH_RECOVERY_REQUIRED',
  'BLOCKED_ORCHESTRATOR_OUTPUT_INVALID',
  'BLOCKED_HISTORY_CAP_CLEANUP_REQUIRED',
  'BLOCKED_MISSING_CONFIG',
] as const;

export type StopCode = (typeof STOP_CODES)[number];
export type BlockedCode = (typeof BLOCKED_CODES)[number];
export type TickCode = 'SUCCESS' | StopCode | BlockedCode;
export type Verdict = 'success' | 'stop' | 'blocked';

export const TICK_CODES: readonly TickCode[] = ['SUCCESS', ...STOP_CODES, ...BLOCKED_CODES];

/** The verdict a code belongs to. */
export function verdictOf(code: TickCode): Verdict {
  if (code === 'SUCCESS') return 'success';
  return code.startsWith('STOP_') ? 'stop' : 'blocked';
}

/** What each code means, in one line (REPORT.md and the CLI print it). */
export const CODE_MEANING: Readonly<Record<TickCode, string>> = {
  SUCCESS: 'The task was built inside its scope and limits and every verification passed. Review the diff and commit it.',
  STOP_SCOPE_VIOLATION_FORBIDDEN: 'The builder touched a path matched by a forbidden glob; the tick was rolled back.',
  STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED: 'The builder touched a path outside the allowed globs; the tick was rolled back.',
  STOP_SCOPE_VIOLATION_NEW_FILE: 'The builder created a file although the task did not allow new files; the tick was rolled back.',
  STOP_LOCKFILE_CHANGE_FORBIDDEN: 'The builder changed a lockfile although the task did not allow it; the tick was rolled back.',
  STOP_DIFF_TOO_LARGE: 'The change exceeded the diff limits (files or lines); the tick was rolled back.',
  STOP_VERIFY_FAILED_FAST: 'A fast verification failed or timed out; slow verifications were not run and the tick was rolled back.',
  STOP_VERIFY_FAILED_SLOW: 'A slow verification failed or timed out; the tick was rolled back.',
  STOP_VERIFY_TAINTED: 'A verification named an unknown template or carried an unsafe parameter; nothing was executed and the tick was rolled back.',
  STOP_VERIFY_ONLY_SIDE_EFFECTS: 'A verify_only task changed the repository; the tick was rolled back.',
  STOP_QUESTION_SIDE_EFFECTS: 'A question task changed the repository; the tick was rolled back.',
  STOP_RUNNER_OWNED_MUTATION: "The builder changed a runner-owned file (relais/ state, prompts, schemas or the config) or a file that defines Relay Desk's commands or state (relay.config.json, relay.handoff.json, relais.config.json, .relaycode/, at any depth); the tick was rolled back. Edit such files by hand.",
  STOP_BUILDER_OUTPUT_INVALID: "The builder's final answer was not a valid builder_result JSON object; the tick was rolled back.",
  STOP_HEAD_MOVED: 'HEAD is no longer the base commit or a descendant of it; the tick was rolled back to the base commit.',
  STOP_INTERRUPTED: 'A Claude call failed or timed out, or the runner could not finish safely; see the details.',
  BLOCKED_BUDGET_EXHAUSTED: "The milestone's budget cannot cover a worst-case tick.",
  BLOCKED_DIRTY_WORKTREE: 'The work tree has uncommitted or untracked changes.',
  BLOCKED_LOCK_HELD: 'Another tick holds the lock.',
  BLOCKED_CRASH_RECOVERY_REQUIRED: 'A runner-owned JSON file is corrupt (an earlier run may have crashed).',
  BLOCKED_ORCHESTRATOR_OUTPUT_INVALID: 'The orchestrator did not return a valid TASK, even after its one retry.',
  BLOCKED_HISTORY_CAP_CLEANUP_REQUIRED: 'The history folder is larger than its cap.',
  BLOCKED_MISSING_CONFIG: 'The configuration, the workspace or the git repository is missing or unusable.',
};
