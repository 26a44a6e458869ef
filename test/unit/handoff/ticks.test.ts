import { describe, expect, it } from 'vitest';
import { describeBlastRadius, parseTickRun, parseTickTask } from '../../../src/engine/records/index.js';

const REPORT = {
  run_id: 'run-20260510-0001',
  started_at: '2026-05-10T07:00:00Z',
  ended_at: '2026-05-10T07:04:00Z',
  duration_ms: 240000,
  base_commit: 'a'.repeat(40),
  head_commit: 'b'.repeat(40),
  task: { task_id: 'T-1', milestone_id: 'M1', task_kind: 'execute', intent: 'Add the panel' },
  verdict: 'stop',
  code: 'STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED',
  blast_radius: { files_touched: 2, lines_added: 30, lines_deleted: 4, new_files: 1 },
  scope: { ok: false, violations: ['package.json outside allowed_globs'], touched_paths: ['src/panel.ts', 'package.json'] },
  diff: { files_changed: 2, lines_changed: 34, diff_patch_path: 'relais/history/run-20260510-0001/diff.patch' },
  verification: { exec_mode: 'argv_no_shell', runs: [{ template_id: 'lint', phase: 'fast', cmd: 'pnpm', args: [], exit_code: 1, duration_ms: 10, timed_out: false }], verify_log_path: 'x' },
  budgets: { milestone_id: 'M1', ticks: 1, orchestrator_calls: 1, builder_calls: 1, verify_runs: 1, estimated_cost_usd: 0.2, warnings: [] },
};

describe('tick readers', () => {
  it('reads a report in the shape of report.schema.json', () => {
    expect(parseTickRun(REPORT, null, 'relais/history/run-20260510-0001')).toEqual({
      runId: 'run-20260510-0001',
      startedAt: '2026-05-10T07:00:00Z',
      endedAt: '2026-05-10T07:04:00Z',
      task: { taskId: 'T-1', milestoneId: 'M1', kind: 'execute', intent: 'Add the panel' },
      verdict: 'stop',
      code: 'STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED',
      blastRadius: { filesTouched: 2, linesAdded: 30, linesDeleted: 4, newFiles: 1 },
      touchedPaths: ['src/panel.ts', 'package.json'],
      violations: ['package.json outside allowed_globs'],
      verification: [{ templateId: 'lint', phase: 'fast', exitCode: 1, timedOut: false }],
      baseCommit: 'a'.repeat(40),
      headCommit: 'b'.repeat(40),
      folder: 'relais/history/run-20260510-0001',
    });
    expect(describeBlastRadius(parseTickRun(REPORT)!.blastRadius)).toBe('2 files, +30/-4, 1 new');
  });

  it('takes what it recognises from partial files and meta.json, and skips what has no run id, verdict and code', () => {
    const partial = parseTickRun({ verdict: 'blocked', code: 'BLOCKED_DIRTY_WORKTREE', blast_radius: 'big', scope: { touched_paths: ['a', 3, null] } }, { run_id: 'run-x', started_at: '2026-05-10T07:00:00Z' });
    expect(partial).toMatchObject({ runId: 'run-x', verdict: 'blocked', startedAt: '2026-05-10T07:00:00Z', endedAt: null, task: null, blastRadius: null, touchedPaths: ['a'], verification: [] });
    expect(parseTickRun({ run_id: 'r', verdict: 'success' })).toBeNull();
    expect(parseTickRun(null, null)).toBeNull();
    expect(parseTickRun([1, 2])).toBeNull();
  });

  it('reads TASK.json and refuses one without its required fields', () => {
    expect(parseTickTask({ task_id: 'T', milestone_id: 'M', task_kind: 'question', intent: 'Ask', scope: {} })).toEqual({ taskId: 'T', milestoneId: 'M', kind: 'question', intent: 'Ask' });
    expect(parseTickTask({ task_id: 'T', milestone_id: 'M', task_kind: 'question' })).toBeNull();
  });
});
