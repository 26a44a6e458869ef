// Reindexing from real files of truth: `.relaycode/` written by the real patch engine, and
// `relais/history/` folders shaped as the Relais spec lays them out (report.json per its schema).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { initWorkspace } from '../../../src/engine/tick/workspace.js';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRelayConfig } from '../../../src/engine/patch/config.js';
import { revertTransaction } from '../../../src/engine/patch/revert.js';
import { applyPatch, type Decision } from '../../../src/engine/patch/transaction.js';
import { openStore, runId, type Store } from '../../../src/engine/store/index.js';
import { MAX_TICK_TEXT_CHARS, readRunDetail } from '../../../src/engine/records/index.js';
import { DEFAULT_SETTINGS } from '../../../src/engine/store/projects.js';
import type { Run } from '../../../src/shared/contract.js';
import { answer, relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';

const approve = async (): Promise<Decision> => ({ approve: true });

function report(runIdValue: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    run_id: runIdValue,
    started_at: '2030-02-01T10:00:00Z',
    ended_at: '2030-02-01T10:04:00Z',
    duration_ms: 240000,
    base_commit: 'aaaaaaa',
    head_commit: 'bbbbbbb',
    task: { task_id: 'T-1', milestone_id: 'M1', task_kind: 'execute', intent: 'Add the forecast cache' },
    verdict: 'success',
    code: 'SUCCESS',
    blast_radius: { files_touched: 3, lines_added: 40, lines_deleted: 2, new_files: 1 },
    scope: { ok: true, violations: [], touched_paths: ['src/cache.ts'] },
    diff: { files_changed: 3, lines_changed: 42, diff_patch_path: `relais/history/${runIdValue}/diff.patch` },
    verification: { exec_mode: 'argv_no_shell', runs: [], verify_log_path: `relais/history/${runIdValue}/verify.log` },
    budgets: { milestone_id: 'M1', ticks: 1, orchestrator_calls: 1, builder_calls: 1, verify_runs: 1, estimated_cost_usd: 0.4, warnings: [] },
    ...overrides,
  };
}

function writeTick(root: string, dir: string, files: Record<string, string>): void {
  const folder = path.join(root, 'relais', 'history', dir);
  mkdirSync(folder, { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(folder, name), content);
}

function listAll(store: Store, projectId: string): Run[] {
  const result = store.runs.list({ limit: 500, projectId });
  if ('error' in result) throw new Error(result.error);
  return result.runs;
}

async function projectWithHistory(): Promise<{ root: string; applied: string; reverted: string; revert: string; pending: string; release: () => void; settled: Promise<unknown> }> {
  const root = relayProject({ projectId: 'demo', files: { 'src/app.ts': 'export const v = 1;\n' } });
  const first = await applyPatch({ root, text: answer({ projectId: 'demo', files: { 'src/new.ts': 'export const n = 1;\n' }, message: 'Add new module' }), source: 'clipboard', decide: approve });
  const second = await applyPatch({ root, text: answer({ projectId: 'demo', files: { 'src/app.ts': 'export const v = 2;\n' }, message: 'Bump v' }), source: 'paste', decide: approve });
  if (first.status !== 'applied' || second.status !== 'applied') throw new Error('setup patches did not apply');
  const revert = await revertTransaction({ root, target: second.uuid, decide: approve });
  if (revert.status !== 'applied') throw new Error('setup revert did not apply');

  writeTick(root, '20300201-100000-ab12cd34', {
    'meta.json': JSON.stringify({ run_id: '20300201-100000-ab12cd34', started_at: '2030-02-01T10:00:00Z' }),
    'report.json': JSON.stringify(report('20300201-100000-ab12cd34')),
    'report.md': '# Tick 20300201-100000-ab12cd34\n\nSUCCESS\n',
  });
  writeTick(root, '20300202-090000-ee55ff66', {
    'report.json': JSON.stringify(report('20300202-090000-ee55ff66', { verdict: 'stop', code: 'STOP_VERIFY_FAILED_FAST', task: { task_id: 'T-2', milestone_id: 'M1', task_kind: 'execute', intent: 'Refactor units' }, started_at: '2030-02-02T09:00:00Z' })),
  });
  // A tick interrupted before its report: meta only.
  writeTick(root, '20300203-080000-00aa11bb', { 'meta.json': JSON.stringify({ run_id: '20300203-080000-00aa11bb', started_at: '2030-02-03T08:00:00Z', intent: 'Interrupted tick' }) });
  // Damaged files are reported, not fatal.
  writeTick(root, '20300204-080000-deadbeef', { 'report.json': '{ not json' });
  writeFileSync(path.join(root, '.relaycode', 'broken.yml'), 'uuid: [unclosed\n');
  mkdirSync(path.join(root, 'relais'), { recursive: true });
  writeFileSync(path.join(root, 'relais', 'STATE.json'), JSON.stringify({ milestone_id: 'M1', budgets: { ticks: { used: 2, max: 10 } }, budget_warning: false }));

  // A transaction left waiting for approval: its pending record is a file of truth too.
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let asked!: (uuid: string) => void;
  const waiting = new Promise<string>((r) => (asked = r));
  const defaults = defaultRelayConfig('demo');
  const settled = applyPatch({
    root,
    text: answer({ projectId: 'demo', files: { 'src/wip.ts': 'wip\n' }, message: 'Work in progress' }),
    source: 'clipboard',
    config: { ...defaults, patch: { ...defaults.patch, approvalMode: 'manual' } },
    decide: async (review) => {
      asked(review.uuid);
      await gate;
      return { approve: false };
    },
  });
  // The pending record is on disk once the transaction asks for a decision (a transaction that
  // ends without asking fails here, saying how it ended).
  const decision = await Promise.race([waiting.then((uuid) => ({ uuid })), settled.then((outcome) => ({ outcome }))]);
  if (!('uuid' in decision)) throw new Error(`the transaction ended without asking: ${JSON.stringify(decision.outcome).slice(0, 300)}`);
  const pendingUuid = decision.uuid;
  return { root, applied: first.uuid, reverted: second.uuid, revert: revert.uuid, pending: pendingUuid, release, settled };
}

describe('reindex', () => {
  it('rebuilds a project\'s runs from .relaycode/ and relais/history/, reporting what it skipped', async () => {
    const history = await projectWithHistory();
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    store.projects.upsert({ projectId: 'demo', root: history.root, name: 'Demo', settings: DEFAULT_SETTINGS, registeredAt: new Date().toISOString() });

    const summary = store.reindex({ projectId: 'demo', root: history.root });
    history.release();
    await history.settled;

    expect(summary).toMatchObject({ projectId: 'demo', patches: 4, ticks: 3, removed: 0 });
    expect(summary.skipped.map((s) => s.file).sort()).toEqual(['.relaycode/broken.yml', 'relais/history/20300204-080000-deadbeef']);

    const runs = listAll(store, 'demo');
    const byId = new Map(runs.map((r) => [r.id, r]));
    expect(byId.get(runId('demo', 'patch', history.applied))).toMatchObject({ status: 'done', verdict: 'approved', title: 'Add new module', summary: '1 file, +1/-0', file: `.relaycode/${history.applied}.yml`, origin: 'file' });
    expect(byId.get(runId('demo', 'patch', history.reverted))).toMatchObject({ verdict: 'reverted', title: 'Bump v' });
    expect(byId.get(runId('demo', 'patch', history.revert))).toMatchObject({ verdict: 'approved', title: 'Revert "Bump v"' });
    expect(byId.get(runId('demo', 'patch', history.pending))).toMatchObject({ status: 'waiting', verdict: 'pending', file: `.relaycode/${history.pending}.pending.yml` });
    expect(byId.get(runId('demo', 'tick', '20300201-100000-ab12cd34'))).toMatchObject({
      status: 'done',
      verdict: 'success',
      code: 'SUCCESS',
      title: 'Add the forecast cache',
      summary: '3 files, +40/-2, 1 new',
      startedAt: '2030-02-01T10:00:00.000Z',
      endedAt: '2030-02-01T10:04:00.000Z',
      file: 'relais/history/20300201-100000-ab12cd34/report.json',
    });
    expect(byId.get(runId('demo', 'tick', '20300202-090000-ee55ff66'))).toMatchObject({ verdict: 'stop', code: 'STOP_VERIFY_FAILED_FAST', title: 'Refactor units' });
    expect(byId.get(runId('demo', 'tick', '20300203-080000-00aa11bb'))).toMatchObject({ status: 'failed', code: 'REPORT_MISSING', title: 'Interrupted tick' });
    // Newest first across kinds.
    expect(runs.map((r) => r.startedAt)).toEqual([...runs.map((r) => r.startedAt)].sort().reverse());
  });

  it('gives the same history in a new database after the old one is lost, and follows later changes', async () => {
    const history = await projectWithHistory();
    history.release();
    await history.settled;
    const project = { projectId: 'demo', root: history.root };
    const register = (store: Store) => store.projects.upsert({ ...project, name: 'Demo', settings: DEFAULT_SETTINGS, registeredAt: new Date().toISOString() });

    const firstFile = path.join(tempDir(), 'relay-desk.db');
    const first = openStore({ file: firstFile });
    register(first);
    first.reindex(project);
    first.runs.upsert({ id: runId('demo', 'relay', 'ask-1'), projectId: 'demo', kind: 'relay', status: 'done', verdict: null, code: null, title: 'Ask', summary: '', startedAt: '2030-03-01T00:00:00Z', endedAt: null, file: null, origin: 'app', taskId: 't1', detail: { text: 'answer' } });
    const before = listAll(first, 'demo').filter((r) => r.origin === 'file');
    first.close();
    rmSync(firstFile);

    const second = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    register(second);
    second.reindex(project);
    expect(listAll(second, 'demo')).toEqual(before);

    // A tick folder removed by hand disappears at the next reindex; app-only rows stay.
    rmSync(path.join(history.root, 'relais', 'history', '20300201-100000-ab12cd34'), { recursive: true });
    second.runs.upsert({ id: runId('demo', 'relay', 'ask-1'), projectId: 'demo', kind: 'relay', status: 'done', verdict: null, code: null, title: 'Ask', summary: '', startedAt: '2030-03-01T00:00:00Z', endedAt: null, file: null, origin: 'app', taskId: 't1', detail: null });
    const again = second.reindex(project);
    expect(again.removed).toBe(1);
    expect(second.runs.get(runId('demo', 'tick', '20300201-100000-ab12cd34'))).toBeNull();
    expect(second.runs.get(runId('demo', 'relay', 'ask-1'))).not.toBeNull();
  });

  it('reads run details from the files of truth', async () => {
    const history = await projectWithHistory();
    const pending = readRunDetail(history.root, 'patch', history.pending);
    history.release();
    await history.settled;

    expect(pending).toMatchObject({ ok: true, value: { state: 'pending', files: [expect.objectContaining({ path: 'src/wip.ts', change: 'create', diff: expect.stringContaining('+wip') })] } });
    const reverted = readRunDetail(history.root, 'patch', history.reverted);
    expect(reverted).toMatchObject({
      ok: true,
      value: {
        kind: 'patch',
        state: 'reverted',
        gitCommitMsg: 'Bump v',
        revertedBy: history.revert,
        reasoning: ['Here is the change.'],
        files: [expect.objectContaining({ path: 'src/app.ts', diff: expect.stringMatching(/-export const v = 1;\n\+export const v = 2;/) })],
      },
    });
    expect(readRunDetail(history.root, 'patch', '../../etc/passwd')).toMatchObject({ ok: false, error: { code: 'RECORD_NOT_FOUND' } });

    const tick = readRunDetail(history.root, 'tick', '20300201-100000-ab12cd34');
    expect(tick).toMatchObject({
      ok: true,
      value: { kind: 'tick', runId: '20300201-100000-ab12cd34', report: { verdict: 'success', budgets: { ticks: 1 } }, reportMarkdown: expect.stringContaining('SUCCESS'), state: { budgets: { ticks: { used: 2 } } } },
    });
    expect(readRunDetail(history.root, 'tick', '..')).toMatchObject({ ok: false });
  });

  it('gives a tick detail its verify log, its diff and the budget caps of relais.config.json', () => {
    const root = relayProject({ projectId: 'ticks' });
    if (!initWorkspace(root).ok) throw new Error('relais init failed');
    const longLog = `${'x'.repeat(MAX_TICK_TEXT_CHARS)}LAST LINE\n`;
    writeTick(root, '20300205-080000-0badc0de', {
      'report.json': JSON.stringify(report('20300205-080000-0badc0de')),
      'verify.log': longLog,
      'diff.patch': 'diff --git a/src/a.ts b/src/a.ts\n',
    });
    const tick = readRunDetail(root, 'tick', '20300205-080000-0badc0de');
    if (!tick.ok || tick.value.kind !== 'tick') throw new Error('no tick detail');
    // A long log keeps its end, where the failure is, and says what was cut.
    expect(tick.value.verifyLog).toMatch(/^… \(10 characters cut\)\n/);
    expect(tick.value.verifyLog?.endsWith('LAST LINE\n')).toBe(true);
    expect(tick.value.diffPatch).toBe('diff --git a/src/a.ts b/src/a.ts\n');
    expect(tick.value.budgetLimits).toEqual({
      limits: { ticks: 200, orchestrator_calls: 260, builder_calls: 200, verify_runs: 600, estimated_cost_usd: 80 },
      warnAtFraction: 0.8,
    });

    // Without relais.config.json there are no caps to draw meters against; the rest still reads.
    rmSync(path.join(root, 'relais.config.json'));
    expect(readRunDetail(root, 'tick', '20300205-080000-0badc0de')).toMatchObject({ ok: true, value: { budgetLimits: null, diffPatch: expect.any(String) } });
  });
});

describe('reindex of ask and review answers (.relaycode/answers/)', () => {
  it('lists answers asked from the CLI as relay and review runs, with their detail read from the file', async () => {
    const { newAnswerId, recordAnswer } = await import('../../../src/engine/relay/record.js');
    const root = relayProject({ projectId: 'demo' });
    const ask = newAnswerId();
    const review = newAnswerId();
    recordAnswer(root, { id: ask, kind: 'ask', backend: 'codex', createdAt: '2030-03-01T10:00:00.000Z', prompt: 'Is the cache safe?\nMore words.', answer: 'Yes, mostly.\nDetails.', ok: true });
    recordAnswer(root, { id: review, kind: 'review', backend: 'gemini', createdAt: '2030-03-02T10:00:00.000Z', prompt: 'Review the following changes.', answer: 'Looks fine.', ok: true });
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    store.projects.upsert({ projectId: 'demo', root, name: 'demo', settings: DEFAULT_SETTINGS, registeredAt: new Date().toISOString() });
    store.reindex({ projectId: 'demo', root });
    expect(listAll(store, 'demo').map((r) => [r.kind, r.title, r.summary, r.file])).toEqual([
      ['review', 'Review by gemini', 'Looks fine.', `.relaycode/answers/${review}.json`],
      ['relay', 'Ask codex: Is the cache safe?', 'Yes, mostly.', `.relaycode/answers/${ask}.json`],
    ]);
    const detail = readRunDetail(root, 'relay', ask);
    expect(detail).toEqual({ ok: true, value: { kind: 'relay', backend: 'codex', prompt: 'Is the cache safe?\nMore words.', text: 'Yes, mostly.\nDetails.', usage: null, error: null } });

    // The app's own row for an answer keeps the detail it stored (usage included); a deleted file drops the row.
    const kept = { kind: 'relay', backend: 'codex', prompt: 'Is the cache safe?', text: 'Yes, mostly.', usage: { inputTokens: 5, outputTokens: 7, costUsd: null }, error: null };
    store.runs.upsert({ ...store.runs.get(runId('demo', 'relay', ask))!, origin: 'app', file: null, detail: kept });
    store.reindex({ projectId: 'demo', root });
    expect(store.runs.get(runId('demo', 'relay', ask))?.detail).toEqual(kept);
    rmSync(path.join(root, '.relaycode', 'answers', `${review}.json`));
    const summary = store.reindex({ projectId: 'demo', root });
    expect(summary.removed).toBe(1);
    expect(listAll(store, 'demo').map((r) => r.kind)).toEqual(['relay']);
    store.close();
  });
});
