import { describe, expect, it } from 'vitest';
import { buildReport, type ReportInput, type TickReport } from '../../../src/engine/tick/report.js';
import { capText, renderReportMd } from '../../../src/engine/tick/render.js';
import { checkReport } from '../../../src/engine/tick/validate.js';

function input(patch: Partial<ReportInput> = {}): ReportInput {
  return {
    runId: '20250102T030405Z-a1b2c3',
    startedAt: new Date('2025-01-02T03:04:05.000Z'),
    endedAt: new Date('2025-01-02T03:04:07.500Z'),
    baseCommit: 'a'.repeat(40),
    headCommit: 'a'.repeat(40),
    task: { task_id: 'T-1', milestone_id: 'M1', task_kind: 'execute', intent: 'Change a.' },
    milestoneId: 'M1',
    code: 'STOP_VERIFY_FAILED_FAST',
    blast: { files_touched: 2, lines_added: 5, lines_deleted: 1, new_files: 1 },
    violations: [],
    touchedPaths: ['src/a.ts', 'src/n.ts'],
    runs: [{ template_id: 'lint', phase: 'fast', cmd: 'pnpm', args: ['-w', 'lint'], exit_code: 1, duration_ms: 1200, timed_out: false }],
    counters: { ticks: 3, orchestrator_calls: 4, builder_calls: 3, verify_runs: 5, estimated_cost_usd: 1.234, patch_attempts: 0 },
    warnings: [],
    diffPatchPath: 'relais/history/x/diff.patch',
    verifyLogPath: 'relais/history/x/verify.log',
    reportMdPath: 'relais/REPORT.md',
    historyDir: 'relais/history/x',
    ...patch,
  };
}

/** The same object with its keys in reverse order, at every level. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversedKeys(v)]));
  return value;
}

describe('buildReport()', () => {
  it('builds a REPORT.json that validates against report.schema.json', () => {
    const report = buildReport(input());
    expect(checkReport(report)).toEqual({ ok: true, value: report });
    expect(report).toMatchObject({ verdict: 'stop', duration_ms: 2500, diff: { files_changed: 2, lines_changed: 6 }, scope: { ok: true } });
  });

  it('cuts long lists and strings to the schema limits', () => {
    const report = buildReport(input({ violations: Array.from({ length: 300 }, (_, i) => `STOP_X: ${'v'.repeat(300)} ${i}`), touchedPaths: Array.from({ length: 900 }, (_, i) => `src/${i}.ts`), warnings: Array.from({ length: 30 }, () => 'w') }));
    expect(checkReport(report).ok).toBe(true);
    expect(report.scope.violations).toHaveLength(200);
    expect(report.scope.touched_paths).toHaveLength(500);
    expect(report.scope.touched_paths[499]).toBe('… and 401 more');
  });

  it('stands in a placeholder task when the orchestrator produced none', () => {
    const report = buildReport(input({ task: null, code: 'STOP_INTERRUPTED' }));
    expect(report.task).toMatchObject({ task_id: 'none', milestone_id: 'M1' });
    expect(checkReport(report).ok).toBe(true);
  });
});

describe('renderReportMd()', () => {
  const report = buildReport(input({ violations: ['STOP_SCOPE_VIOLATION_OUTSIDE_ALLOWED: paths outside allowed_globs: a|b'], warnings: ['budget critical: ticks at 90% (180 of 200)'] }));

  it('is a pure function of the JSON: same JSON (even re-parsed, keys reordered) gives the same bytes', () => {
    const md = renderReportMd(report, 6000);
    expect(renderReportMd(JSON.parse(JSON.stringify(report)) as TickReport, 6000)).toBe(md);
    expect(renderReportMd(reversedKeys(report) as TickReport, 6000)).toBe(md);
  });

  it('carries the verdict, the blast radius line, violations, runs and budgets', () => {
    const md = renderReportMd(report, 6000);
    expect(md).toContain('**STOP** `STOP_VERIFY_FAILED_FAST`');
    expect(md).toContain('Blast radius: 2 files, +5/-1, 1 new');
    expect(md).toContain('paths outside allowed_globs: a\\|b');
    expect(md).toContain('| fast | lint | exit 1 | 1200 | `pnpm -w lint` |');
    expect(md).toContain('- estimated cost: $1.23');
    expect(md).toContain('⚠ budget critical');
  });

  it('differs when the JSON differs', () => {
    expect(renderReportMd(buildReport(input({ code: 'SUCCESS' })), 6000)).not.toBe(renderReportMd(report, 6000));
  });

  it('is capped at max_chars with a note, cut at a line end', () => {
    const big = buildReport(input({ touchedPaths: Array.from({ length: 400 }, (_, i) => `src/some/long/folder/name/file-${i}.ts`) }));
    const md = renderReportMd(big, 1000);
    expect(md.length).toBeLessThanOrEqual(1000);
    expect(md).toContain('cut at 1000 characters; REPORT.json has everything.');
    expect(renderReportMd(big, 1000)).toBe(md);
    expect(renderReportMd(big, 100_000).length).toBeGreaterThan(10_000);
  });
});

describe('capText()', () => {
  it('leaves short text alone and never exceeds the cap', () => {
    expect(capText('short', 10)).toBe('short');
    for (const max of [50, 80, 120]) expect(capText('line\n'.repeat(100), max).length).toBeLessThanOrEqual(max);
  });
});
