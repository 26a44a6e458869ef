// Routes, the approval decision, ask context, shell commands and the tick report view.
import { describe, expect, it } from 'vitest';
import type { RunDetail } from '../../../src/shared/contract.js';
import { formatRoute, href, parseRoute, type Route } from '../../../src/renderer/app/routes.js';
import { approvalKeep, approveLabel, shortcutLabels } from '../../../src/renderer/lib/approval.js';
import { capBytes, contextForRun, MAX_CONTEXT_BYTES, utf8Bytes } from '../../../src/renderer/lib/ask-context.js';
import { handoffDispatchCommand, shellWord } from '../../../src/renderer/lib/shell.js';
import { budgetMeters, budgetMetersAsOfTick, readTickReport, splitVerifyLog, tickCostUsd } from '../../../src/renderer/lib/tick-report.js';
import { displayCommand } from '../../../src/engine/tick/verify.js';

describe('hash routes', () => {
  it('round-trips every route', () => {
    const routes: Route[] = [
      { name: 'history', filter: {} },
      { name: 'history', filter: { projectId: 'web shop', kind: 'tick', status: 'failed' } },
      { name: 'run', runId: 'demo:patch:8c1e-uuid' },
      { name: 'projects' },
      { name: 'settings' },
      { name: 'paste', projectId: null },
      { name: 'paste', projectId: 'demo' },
      { name: 'ask', projectId: 'demo', runId: 'demo:tick:1', mode: 'ask' },
      { name: 'ask', projectId: 'demo', runId: null, mode: 'review' },
      { name: 'handoff', projectId: 'my.project' },
    ];
    for (const route of routes) expect(parseRoute(formatRoute(route)), formatRoute(route)).toEqual(route);
  });

  it('treats an empty hash as History and ignores filters it does not know', () => {
    expect(parseRoute('')).toEqual({ name: 'history', filter: {} });
    expect(parseRoute('#/')).toEqual({ name: 'history', filter: {} });
    expect(parseRoute('#/history?kind=nonsense&status=done')).toEqual({ name: 'history', filter: { status: 'done' } });
    expect(parseRoute('#/nowhere/else')).toEqual({ name: 'not-found', path: '/nowhere/else' });
    expect(parseRoute('#/runs/%E0%A4%A')).toMatchObject({ name: 'not-found' });
    expect(href.run('a:b/c')).toBe('#/runs/a%3Ab%2Fc');
  });
});

describe('the approval decision', () => {
  const all = ['a.ts', 'b.ts'];
  it('approves plainly when every file is kept, names the kept files otherwise, and refuses nothing', () => {
    expect(approvalKeep(all, new Set(all))).toEqual({});
    expect(approvalKeep(all, new Set(['b.ts']))).toEqual({ keep: ['b.ts'] });
    expect(approvalKeep(all, new Set())).toBeNull();
  });

  it('labels the button with what will happen, and shows the platform’s shortcut', () => {
    expect(approveLabel(1, 1)).toBe('Approve');
    expect(approveLabel(3, 3)).toBe('Approve all 3 files');
    expect(approveLabel(3, 1)).toBe('Approve 1 of 3 files');
    expect(shortcutLabels('MacIntel')).toEqual({ approve: '⌘↵', reject: 'Esc' });
    expect(shortcutLabels('Linux x86_64')).toEqual({ approve: 'Ctrl+Enter', reject: 'Esc' });
  });
});

describe('ask context', () => {
  const run = (detail: RunDetail['detail']): RunDetail => ({
    run: { id: 'd:patch:u', projectId: 'd', kind: 'patch', status: 'done', verdict: 'approved', code: null, title: 'Bump v', summary: '1 file, +1/-1', startedAt: '2030-01-01T00:00:00Z', endedAt: null, file: null, origin: 'file', taskId: null },
    detail,
    detailError: null,
    events: [],
  });

  it('describes a patch run: header, commit message, reasoning and diff', () => {
    const { text, cut } = contextForRun(
      run({ kind: 'patch', state: 'approved', uuid: 'u', source: 'paste', reasoning: ['Because.'], files: [{ path: 'a.ts', change: 'modify', added: 1, removed: 1, diff: '-a\n+b\n' }], gitCommitMsg: 'Bump v', promptSummary: null, linter: null, revertOf: null, revertedBy: null, warnings: [], error: null, answer: null }),
    );
    expect(cut).toBe(false);
    expect(text).toContain('# Relay Desk run: Bump v');
    expect(text).toContain('verdict: approved');
    expect(text).toContain('## Reasoning\n\nBecause.');
    expect(text).toContain('## Diff\n\n-a\n+b');
  });

  it('cuts to the relay’s context limit on a character boundary', () => {
    const huge = '😀'.repeat(MAX_CONTEXT_BYTES);
    const { text, cut } = capBytes(huge, 1000);
    expect(cut).toBe(true);
    expect(utf8Bytes(text)).toBeLessThanOrEqual(1000);
    expect(text).not.toMatch(/\uD83D$/);
    expect(text.endsWith('(cut to fit the context limit)\n')).toBe(true);
  });
});

describe('shell commands to copy', () => {
  it('quotes only what needs quoting', () => {
    expect(shellWord('claude')).toBe('claude');
    expect(shellWord("/home/me/my project's")).toBe(`'/home/me/my project'\\''s'`);
    expect(handoffDispatchCommand('/work/demo', 'brief-1-abc', 'codex')).toBe('relay -C /work/demo handoff --resume brief-1-abc --to codex');
  });
});

describe('tick report view', () => {
  const log = [
    `## fast pass\n$ ${displayCommand('node', ['-e', 'ok'])}\nall good\n→ exit 0 in 12 ms\n`,
    `## slow e2e\n$ ${displayCommand('npm', ['test'])}\nFAIL\n→ exit 1 in 30 ms\n`,
  ].join('\n');

  it('cuts verify.log into one section per command', () => {
    const sections = splitVerifyLog(log);
    expect([...sections.keys()]).toEqual(['fast pass', 'slow e2e']);
    expect(sections.get('fast pass')).toBe("$ node -e ok\nall good\n→ exit 0 in 12 ms");
  });

  it('reads REPORT.json tolerantly and pairs each verification run with its log', () => {
    const view = readTickReport({
      report: {
        verdict: 'stop',
        code: 'STOP_VERIFY_FAILED_SLOW',
        task: { task_id: 'T-1', milestone_id: 'M1', task_kind: 'execute', intent: 'Do it' },
        blast_radius: { files_touched: 2, lines_added: 5, lines_deleted: 1, new_files: 0 },
        scope: { ok: false, violations: ['touched secret.txt'], touched_paths: ['a', 'secret.txt'] },
        verification: {
          runs: [
            { template_id: 'pass', phase: 'fast', cmd: 'node', args: ['-e', 'ok'], exit_code: 0, duration_ms: 12, timed_out: false },
            { template_id: 'e2e', phase: 'slow', cmd: 'npm', args: ['test'], exit_code: 1, duration_ms: 30, timed_out: false },
          ],
        },
        budgets: { warnings: ['budget critical: ticks at 90%'] },
      },
      meta: null,
      verifyLog: log,
    });
    expect(view).toMatchObject({ verdict: 'stop', code: 'STOP_VERIFY_FAILED_SLOW', intent: 'Do it', milestoneId: 'M1', blast: { files: 2, added: 5, removed: 1 }, scope: { ok: false, violations: ['touched secret.txt'] } });
    expect(view.verification.map((r) => [r.templateId, r.passed, r.log?.split('\n').at(-1)])).toEqual([
      ['pass', true, '→ exit 0 in 12 ms'],
      ['e2e', false, '→ exit 1 in 30 ms'],
    ]);
    expect(view.budgetWarnings).toEqual(['budget critical: ticks at 90%']);
    expect(readTickReport({ report: 'garbage', meta: null, verifyLog: null })).toMatchObject({ verdict: null, code: null, verification: [], scope: null });
  });

  it('draws one meter per budget counter: amber from the warn fraction, red at the cap', () => {
    const limits = { limits: { ticks: 10, orchestrator_calls: 10, builder_calls: 10, verify_runs: 10, estimated_cost_usd: 1 }, warnAtFraction: 0.8 };
    const state = { milestones: { M1: { ticks: 8, orchestrator_calls: 1, builder_calls: 10, verify_runs: 0, estimated_cost_usd: 0.25 } } };
    const { milestoneId, meters } = budgetMeters(state, 'M1', limits);
    expect(milestoneId).toBe('M1');
    expect(meters.map((m) => [m.counter, m.level, m.text])).toEqual([
      ['ticks', 'warn', '8 of 10'],
      ['orchestrator_calls', 'ok', '1 of 10'],
      ['builder_calls', 'over', '10 of 10'],
      ['verify_runs', 'ok', '0 of 10'],
      ['estimated_cost_usd', 'ok', '$0.25 of $1.00'],
    ]);
    expect(budgetMeters(state, 'unknown', limits).milestoneId).toBe('M1');
    expect(budgetMeters(state, 'M1', null).meters).toEqual([]);
    expect(budgetMeters(null, 'M1', limits).meters).toEqual([]);
  });
});

describe('a tick page’s figures as of that tick', () => {
  const limits = { limits: { ticks: 10, orchestrator_calls: 10, builder_calls: 10, verify_runs: 10, estimated_cost_usd: 1 }, warnAtFraction: 0.8 };

  it('reads the budget meters from REPORT.json (the counters when the tick ended), never from today’s STATE.json', () => {
    const report = { budgets: { milestone_id: 'M1', ticks: 3, orchestrator_calls: 6, builder_calls: 3, verify_runs: 2, estimated_cost_usd: 0.9, warnings: [] } };
    const { milestoneId, meters } = budgetMetersAsOfTick(report, limits);
    expect(milestoneId).toBe('M1');
    expect(meters.map((m) => [m.counter, m.text])).toEqual([
      ['ticks', '3 of 10'],
      ['orchestrator_calls', '6 of 10'],
      ['builder_calls', '3 of 10'],
      ['verify_runs', '2 of 10'],
      ['estimated_cost_usd', '$0.90 of $1.00'],
    ]);
    expect(budgetMetersAsOfTick({ budgets: { warnings: [] } }, limits).meters).toEqual([]);
    expect(budgetMetersAsOfTick(null, limits).meters).toEqual([]);
  });

  it('adds up what the tick’s Claude calls cost', () => {
    expect(tickCostUsd({ orchestrator: { calls: [{ cost_usd: 0.1 }, { cost_usd: 0.05 }] }, builder: { call: { cost_usd: 0.2 } } })).toBe(0.35);
    expect(tickCostUsd({ orchestrator: { calls: [] }, builder: null })).toBeNull();
  });
});
