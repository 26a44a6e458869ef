import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handoffEngine } from '../../../src/engine/handoff/engine.js';
import { loadProjectHistory } from '../../../src/engine/handoff/history.js';
import { renderBrief } from '../../../src/engine/handoff/render.js';
import { lastTickReport, recentRuns } from '../../../src/engine/handoff/runs.js';
import { buildBrief } from '../../../src/engine/handoff/synthesize.js';
import { defaultRelayConfig, writeRelayConfig } from '../../../src/engine/patch/config.js';
import { revertTransaction } from '../../../src/engine/patch/revert.js';
import { recordPatch, writeTick } from '../../helpers/handoff.js';
import { gitIn, gitRepo, tempDir, writeFiles } from '../../helpers/temp.js';

/** A real project: a git repo, two real patch transactions (one reverted), two ticks, a TASK.json, a broken tick. */
async function project(): Promise<{ root: string; first: string; second: string; base: string; head: string }> {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': '.relaycode/\n' });
  writeRelayConfig(root, defaultRelayConfig('demo'));
  const base = gitIn(root, 'rev-parse', 'HEAD').trim();
  const first = await recordPatch(root, { file: 'src/b.ts', body: 'export const b = 1;', message: 'feat: add b', prose: 'B is needed by the panel.', promptSummary: 'Add module b' });
  const second = await recordPatch(root, { file: 'src/c.ts', body: 'export const c = 1;', message: 'feat: add c' });
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'tick: add d');
  const head = gitIn(root, 'rev-parse', 'HEAD').trim();
  writeTick(root, 'run-0001', {
    started_at: '2000-01-01T00:00:00Z',
    ended_at: '2000-01-01T00:05:00Z',
    base_commit: base,
    head_commit: head,
    task: { task_id: 'T-1', milestone_id: 'M1', task_kind: 'execute', intent: 'Add module d' },
    verdict: 'success',
    code: 'SUCCESS',
    blast_radius: { files_touched: 1, lines_added: 1, lines_deleted: 0, new_files: 1 },
    scope: { ok: true, violations: [], touched_paths: ['src/d.ts'] },
  });
  writeTick(root, 'run-0002', { ended_at: '2000-01-02T00:00:00Z', verdict: 'stop', code: 'STOP_VERIFY_FAILED_FAST' }, '# Tick run-0002\n\nSTOP_VERIFY_FAILED_FAST\n');
  writeFiles(root, {
    'relais/history/run-broken/report.json': '{ truncated',
    'relais/TASK.json': JSON.stringify({ task_id: 'T-2', milestone_id: 'M1', task_kind: 'execute', intent: 'Wire module d into the panel' }),
  });
  return { root, first, second, base, head };
}

describe('loadProjectHistory', () => {
  it('reads real patch records, ticks, TASK.json and git, newest first, and lists what it skipped', async () => {
    const { root, first, second, head } = await project();
    const history = await loadProjectHistory(root);
    expect(history.projectId).toBe('demo');
    expect(history.transactions.map((t) => t.uuid)).toEqual([second, first]);
    expect(history.transactions[1]).toMatchObject({ gitCommitMsg: 'feat: add b', promptSummary: 'Add module b', files: [{ path: 'src/b.ts', change: 'create', added: 1, removed: 0 }] });
    expect(history.transactions[1]!.reasoning.join(' ')).toContain('B is needed by the panel.');
    expect(history.ticks.map((t) => t.runId)).toEqual(['run-0002', 'run-0001']);
    expect(history.currentTask).toEqual({ taskId: 'T-2', milestoneId: 'M1', kind: 'execute', intent: 'Wire module d into the panel' });
    expect(history.skipped).toEqual([{ path: 'relais/history/run-broken', reason: expect.stringMatching(/^report\.json: not valid JSON/) }]);
    expect(history.git).toMatchObject({ isRepo: true, branch: 'main', head });
    expect(history.git.commits.map((c) => c.subject)).toEqual(['tick: add d', 'initial']);
    expect(history.relayAnswers).toEqual([]);
  });

  it('accepts relay answers and tick events from the store', async () => {
    const { root } = await project();
    const history = await loadProjectHistory(root, {
      relayAnswers: [
        { id: 'a1', kind: 'ask', backend: 'codex', createdAt: '2000-01-03T00:00:00Z', prompt: 'Cache?', answer: 'No.', ok: true },
        { id: 'a2', kind: 'review', backend: 'gemini', createdAt: '2000-01-04T00:00:00Z', prompt: 'Review', answer: 'LGTM', ok: true },
      ],
      tickEvents: [{ runId: 'run-live', at: '2000-01-05T00:00:00Z', stage: 'judge' }],
    });
    expect(history.relayAnswers.map((a) => a.id)).toEqual(['a2', 'a1']);
    const md = renderBrief(await buildBrief({ history, now: new Date(), briefId: 'brief-1-a', gitLogEnabled: false })).markdown;
    expect(md).toContain('Review by gemini: Review');
    expect(md).toContain('tick-event `run-live`');
  });

  it('works in a folder that is neither initialised nor a repository', async () => {
    const plain = tempDir('relay-plain-');
    const history = await loadProjectHistory(plain);
    expect(history.git).toEqual({ isRepo: false, branch: null, head: null, commits: [] });
    expect(history.transactions).toEqual([]);
    expect(history.projectId).toMatch(/^relay-plain-/);
  });
});

describe('a brief from real records', () => {
  it('gives identical bytes twice with gitLogEnabled false', async () => {
    const { root } = await project();
    const now = new Date('2030-01-01T00:00:00Z');
    const one = renderBrief(await buildBrief({ history: await loadProjectHistory(root), now, briefId: 'brief-1-a', gitLogEnabled: false })).markdown;
    const two = renderBrief(await buildBrief({ history: await loadProjectHistory(root), now, briefId: 'brief-1-a', gitLogEnabled: false })).markdown;
    expect(two).toBe(one);
    expect(one).toContain('(git log was not read for this brief)');
  });

  it("adds the files of recent commits and the ticks' commit ranges from git log --name-only", async () => {
    const { root } = await project();
    const history = await loadProjectHistory(root);
    const brief = await buildBrief({ history, now: new Date(), briefId: 'brief-1-a', gitLogEnabled: true });
    const byPath = Object.fromEntries(brief.files.items.map((f) => [f.path, f]));
    expect(byPath['src/b.ts']!.sources).toEqual(['patch', 'commit']);
    expect(byPath['src/d.ts']!.sources).toEqual(['tick']);
    expect(byPath['src/a.ts']!.sources).toEqual(['commit']);
    expect(brief.files.gitLogUsed).toBe(true);
    expect(brief.files.commitsScanned).toBe(2);
  });

  it('shows a revert in the trail and the decisions', async () => {
    const { root, second } = await project();
    const reverted = await revertTransaction({ root, target: second, decide: async () => ({ approve: true }) });
    expect(reverted.status).toBe('applied');
    const md = renderBrief(await buildBrief({ history: await loadProjectHistory(root), now: new Date(), briefId: 'brief-1-a', gitLogEnabled: false })).markdown;
    expect(md).toContain(`reverted by `);
    expect(md).toContain(`revert of ${second.slice(0, 8)}`);
  });
});

describe('run views', () => {
  it('lists recent runs newest first and reads the last tick report', async () => {
    const { root, first, second } = await project();
    const runs = recentRuns(await loadProjectHistory(root), 10);
    expect(runs.map((r) => r.id)).toEqual([second, first, 'run-0002', 'run-0001']);
    expect(runs[0]).toMatchObject({ kind: 'patch', title: 'feat: add c', files: ['src/c.ts'] });
    const report = lastTickReport(root);
    expect(report).toMatchObject({ run: { runId: 'run-0002', code: 'STOP_VERIFY_FAILED_FAST' }, markdownPath: 'relais/history/run-0002/report.md' });
    expect(report!.markdown).toContain('STOP_VERIFY_FAILED_FAST');
  });
});

describe('handoffEngine (the runtime binding)', () => {
  it('builds and saves a brief with relay answers from the store, in the runtime result shape', async () => {
    const { root } = await project();
    const built = await handoffEngine.build(root, { target: 'codex', history: { relayAnswers: [{ id: 'a1', kind: 'ask', backend: 'gemini', createdAt: '2000-01-03T00:00:00Z', prompt: 'Cache?', answer: 'No.', ok: true }] } }, { now: () => new Date() });
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.value.path).toBe(`.relaycode/handoffs/${built.value.briefId}.md`);
    expect(built.value.tokens).toBeGreaterThan(0);
    const md = readFileSync(path.join(root, built.value.path), 'utf8');
    expect(md).toContain('**To:** codex');
    expect(md).toContain('Asked gemini: Cache?');
  });

  it('returns a failure value naming the secret pattern, and writes nothing', async () => {
    const { root } = await project();
    await recordPatch(root, { file: 'src/k.ts', body: 'export const k = 1;', message: 'chore: key', prose: `-----BEGIN ${'EC PRIVATE'} KEY----- pasted by mistake` });
    const built = await handoffEngine.build(root, {}, { now: () => new Date() });
    expect(built).toMatchObject({ ok: false, error: { code: 'BRIEF_REFUSED' } });
    if (!built.ok) expect(built.error.message).toContain('private-key');
    expect(existsSync(path.join(root, '.relaycode/handoffs'))).toBe(false);
  });
});
