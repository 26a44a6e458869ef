// engine/records' tick reader: history folders read where relais.config.json puts them (history.dir,
// workspace_dir), tolerantly (only report.json has a schema), and never through a link.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadProjectHistory } from '../../../src/engine/handoff/history.js';
import { currentTask, latestTickWithReport, readProjectRuns, readRecordRuns, readRunById, readRunDetail, readTickCommit, recordFolders, scanTicks } from '../../../src/engine/records/index.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const REPORT = (runId: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ run_id: runId, verdict: 'success', code: 'SUCCESS', started_at: '2030-02-01T10:00:00.000Z', ended_at: '2030-02-01T10:05:00.000Z', task: { task_id: 'T-1', milestone_id: 'M1', task_kind: 'execute', intent: `Do ${runId}` }, blast_radius: { files_touched: 1, lines_added: 2, lines_deleted: 1, new_files: 0 }, ...extra });

function tick(root: string, folder: string, runId: string, extra: Record<string, unknown> = {}): void {
  writeFiles(root, {
    [`${folder}/${runId}/report.json`]: REPORT(runId, extra),
    [`${folder}/${runId}/report.md`]: `# Tick ${runId}\n`,
    [`${folder}/${runId}/diff.patch`]: 'diff --git a/src/a.ts b/src/a.ts\n',
    [`${folder}/${runId}/meta.json`]: JSON.stringify({ run_id: runId }),
  });
}

/** A project whose relais.config.json moves the history and the workspace. */
function movedProject(): string {
  const root = relayProject({ projectId: 'demo' });
  writeFiles(root, { 'relais.config.json': JSON.stringify({ history: { dir: 'ops/tick-history/' }, workspace_dir: 'ops/relais' }) });
  return root;
}

describe('tick history where relais.config.json puts it', () => {
  it('reads the configured history and workspace folders, not relais/', () => {
    const root = movedProject();
    expect(recordFolders(root)).toMatchObject({ tick: 'ops/tick-history', tickWorkspace: 'ops/relais' });
    tick(root, 'ops/tick-history', '20300201-100000-aaaa0001');
    tick(root, 'relais/history', '20300201-100000-bbbb0002'); // the default folder is not this project's history
    writeFiles(root, {
      'ops/relais/STATE.json': JSON.stringify({ milestones: { M1: { ticks: 1 } } }),
      'ops/relais/TASK.json': JSON.stringify({ task_id: 'T-2', milestone_id: 'M1', task_kind: 'execute', intent: 'Next' }),
      'ops/tick-history/20300201-100000-aaaa0001/commit.json': JSON.stringify({ commit: 'c0ffee1234567890', message: 'relais: Do it', paths: ['src/a.ts'] }),
    });
    const runs = readProjectRuns({ projectId: 'demo', root });
    expect(runs.runs.map((r) => [r.id, r.file, r.status, r.verdict])).toEqual([['demo:tick:20300201-100000-aaaa0001', 'ops/tick-history/20300201-100000-aaaa0001/report.json', 'done', 'success']]);
    expect(runs.runs[0]!.summary).toBe('1 file, +2/-1 · committed c0ffee1234');
    const detail = readRunDetail(root, 'tick', '20300201-100000-aaaa0001');
    expect(detail).toMatchObject({ ok: true, value: { kind: 'tick', reportMarkdown: '# Tick 20300201-100000-aaaa0001\n', state: { milestones: { M1: { ticks: 1 } } }, commit: { commit: 'c0ffee1234567890' } } });
    expect(readRunDetail(root, 'tick', '20300201-100000-bbbb0002')).toMatchObject({ ok: false, error: { code: 'RECORD_NOT_FOUND' } });
    expect(currentTask(root)).toEqual({ task: { taskId: 'T-2', milestoneId: 'M1', kind: 'execute', intent: 'Next' }, skipped: null });
    expect(latestTickWithReport(root)).toBe('20300201-100000-aaaa0001');
    expect(readTickCommit(root, '20300201-100000-aaaa0001')).toMatchObject({ run_id: '20300201-100000-aaaa0001', commit: 'c0ffee1234567890' });
  });

  it('gives a brief the ticks and the task of the moved folders', async () => {
    const root = movedProject();
    tick(root, 'ops/tick-history', '20300201-100000-aaaa0001');
    writeFiles(root, { 'ops/relais/TASK.json': JSON.stringify({ task_id: 'T-2', milestone_id: 'M1', task_kind: 'execute', intent: 'Next' }) });
    const history = await loadProjectHistory(root);
    expect(history.ticks.map((t) => [t.runId, t.folder])).toEqual([['20300201-100000-aaaa0001', 'ops/tick-history/20300201-100000-aaaa0001']]);
    expect(history.currentTask?.taskId).toBe('T-2');
  });

  it('reads a tick that could not report from its meta.json, skips one with neither file (yet), and drops a deleted one', () => {
    const root = relayProject({ projectId: 'demo' });
    writeFiles(root, { 'relais/history/20300201-100000-cccc0003/meta.json': JSON.stringify({ run_id: 'x', intent: 'Blocked early', started_at: '2030-02-01T09:00:00Z' }) });
    mkdirSync(path.join(root, 'relais/history/20300201-100000-dddd0004'), { recursive: true });
    const scanned = scanTicks(root);
    expect(scanned.ticks.map((t) => t.runId)).toEqual(['20300201-100000-cccc0003']);
    expect(scanned.skipped).toEqual([{ file: 'relais/history/20300201-100000-dddd0004', reason: 'no report.json or meta.json (yet)' }]);
    expect(readProjectRuns({ projectId: 'demo', root }).runs).toMatchObject([{ status: 'failed', code: 'REPORT_MISSING', title: 'Blocked early' }]);
    expect(readRecordRuns({ projectId: 'demo', root }, 'tick', '20300201-100000-dddd0004')).toMatchObject({ runs: [], gone: [] });
    expect(readRecordRuns({ projectId: 'demo', root }, 'tick', '20300201-100000-eeee0005')).toEqual({ runs: [], gone: ['demo:tick:20300201-100000-eeee0005'], skipped: [] });
  });
});

describe('hostile tick history', () => {
  it('a history folder that is a symbolic link is not read', () => {
    const root = relayProject({ projectId: 'demo' });
    const outside = tempDir('relay-outside-history-');
    tick(outside, '.', '20300201-100000-aaaa0001');
    mkdirSync(path.join(root, 'relais'), { recursive: true });
    symlinkSync(outside, path.join(root, 'relais/history'));
    expect(readProjectRuns({ projectId: 'demo', root }).runs).toEqual([]);
    expect(readRunById({ projectId: 'demo', root }, 'demo:tick:20300201-100000-aaaa0001')).toBeNull();
  });

  it('a run folder or a report that is a symbolic link is not read', () => {
    const root = relayProject({ projectId: 'demo' });
    const outside = tempDir('relay-outside-tick-');
    tick(outside, '.', '20300201-100000-aaaa0001');
    mkdirSync(path.join(root, 'relais/history/20300201-100000-ffff0006'), { recursive: true });
    symlinkSync(path.join(outside, '20300201-100000-aaaa0001'), path.join(root, 'relais/history/20300201-100000-aaaa0001'));
    symlinkSync(path.join(outside, '20300201-100000-aaaa0001/report.json'), path.join(root, 'relais/history/20300201-100000-ffff0006/report.json'));
    writeFileSync(path.join(root, 'relais/history/20300201-100000-ffff0006/meta.json'), '{ broken');
    const read = readProjectRuns({ projectId: 'demo', root });
    expect(read.runs).toEqual([]);
    expect(read.skipped).toEqual([{ file: 'relais/history/20300201-100000-ffff0006', reason: expect.stringContaining('symbolic link') }]);
    expect(readRunDetail(root, 'tick', '20300201-100000-aaaa0001')).toMatchObject({ ok: false, error: { code: 'RECORD_NOT_FOUND' } });
  });

  it('a configured history folder that leaves the project is refused by the config itself', () => {
    const root = relayProject({ projectId: 'demo' });
    writeFiles(root, { 'relais.config.json': JSON.stringify({ history: { dir: '../elsewhere' } }) });
    expect(recordFolders(root).tick).toBe('relais/history');
  });
});
