import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CommitFilesReader } from '../../../src/engine/handoff/files-touched.js';
import { GAP_FILL_PLACEHOLDER, renderBrief } from '../../../src/engine/handoff/render.js';
import { buildBrief, type BuildBriefInput } from '../../../src/engine/handoff/synthesize.js';
import { BRIEF_SECTIONS, SECTION_TITLES } from '../../../src/engine/handoff/types.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { gapRecord, sampleHistory, tick } from '../../helpers/handoff.js';

const NOW = new Date('2026-05-10T10:30:00.000Z');

function input(overrides: Partial<BuildBriefInput> = {}): BuildBriefInput {
  return { history: sampleHistory(), now: NOW, briefId: 'brief-1778409000000-aaaaaa', gitLogEnabled: false, fromProvider: 'claude', toProvider: 'codex', ...overrides };
}

async function markdown(overrides: Partial<BuildBriefInput> = {}): Promise<string> {
  return renderBrief(await buildBrief(input(overrides))).markdown;
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('buildBrief', () => {
  describe('determinism', () => {
    it('gives identical bytes for the same inputs, whatever the clock says between calls', async () => {
      vi.useFakeTimers();
      vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
      const first = await markdown({ gapFill: gapRecord() });
      vi.setSystemTime(new Date('2031-06-01T12:34:56Z'));
      const second = await markdown({ gapFill: gapRecord() });
      expect(Buffer.from(second)).toEqual(Buffer.from(first));
    });

    it('never draws random numbers', async () => {
      const random = vi.spyOn(Math, 'random').mockImplementation(() => {
        throw new Error('Math.random used in the synthesis path');
      });
      await markdown();
      expect(random).not.toHaveBeenCalled();
    });

    it('reads no clock, randomness or environment in the synthesis modules (source check)', () => {
      const handoff = ['synthesize.ts', 'render.ts', 'files-touched.ts', 'text.ts', 'token-estimate.ts', 'history.ts'].map((f) => `handoff/${f}`);
      for (const file of [...handoff, 'records/tick-report.ts']) {
        const source = readFileSync(path.join(REPO_ROOT, 'src/engine', file), 'utf8');
        expect(source, file).not.toMatch(/Date\.now\(|new Date\(\)|Math\.random|process\.env|randomBytes|randomUUID/);
      }
    });

    it('orders the input lists it is given the same way whatever their order', async () => {
      const history = sampleHistory();
      const shuffled = sampleHistory({ relayAnswers: [...history.relayAnswers].reverse() });
      expect(await markdown({ history: shuffled })).toBe(await markdown({ history }));
    });
  });

  describe('git log side effect', () => {
    it('does not read git when gitLogEnabled is false', async () => {
      const reader = vi.fn<CommitFilesReader>(async () => []);
      const brief = await buildBrief(input({ gitLogEnabled: false }), { readCommitFiles: reader });
      expect(reader).not.toHaveBeenCalled();
      expect(brief.files.gitLogUsed).toBe(false);
    });

    it("reads recent commits and the ticks' commit ranges when enabled, and lists their files", async () => {
      const base = '1'.repeat(40);
      const head = '2'.repeat(40);
      const history = sampleHistory({ ticks: [tick({ runId: 'run-2', endedAt: '2026-05-10T07:00:00Z', baseCommit: base, headCommit: head }), tick({ runId: 'run-1', endedAt: '2026-05-09T07:00:00Z', baseCommit: 'not a sha', headCommit: head })] });
      const reader = vi.fn<CommitFilesReader>(async () => [{ sha: head, date: '2026-05-10T07:00:00Z', subject: 'tick', files: ['src/from-git.ts', 'src/a.ts'] }]);
      const brief = await buildBrief(input({ history, gitLogEnabled: true }), { readCommitFiles: reader });
      expect(reader).toHaveBeenCalledWith('/nowhere/demo', { maxCount: 20, ranges: [`${base}..${head}`] });
      expect(brief.files.gitLogUsed).toBe(true);
      const a = brief.files.items.find((f) => f.path === 'src/a.ts')!;
      expect(a.sources).toEqual(['patch', 'commit']);
      expect(a.times).toBe(3);
      expect(brief.files.items[0]!.path).toBe('src/a.ts');
      expect(brief.files.items.map((f) => f.path)).toContain('src/from-git.ts');
    });

    it('does not read git outside a repository', async () => {
      const reader = vi.fn<CommitFilesReader>(async () => []);
      const history = sampleHistory({ git: { isRepo: false, branch: null, head: null, commits: [] } });
      await buildBrief(input({ history, gitLogEnabled: true }), { readCommitFiles: reader });
      expect(reader).not.toHaveBeenCalled();
    });
  });

  describe('sections', () => {
    it('renders the schema header and the six sections in a fixed order', async () => {
      const md = await markdown();
      expect(md).toMatch(/^# Handoff brief: demo\n\n\*\*Schema version:\*\* 1\n\*\*Brief id:\*\* brief-1778409000000-aaaaaa\n/);
      const headings = md.split('\n').filter((l) => l.startsWith('## '));
      expect(headings).toEqual(BRIEF_SECTIONS.map((id) => `## ${SECTION_TITLES[id]}`));
      expect(md).toContain('**From:** claude → **To:** codex');
    });

    it('joins the records: mission from TASK.json, trail and decisions newest first, files with the lossy footnote', async () => {
      const md = await markdown();
      expect(md).toContain('Current task (relais/TASK.json): `T-2` (execute): Wire the panel to the API');
      expect(md).toContain('Milestone: `M1`');
      const trail = md.slice(md.indexOf('## Work trail'), md.indexOf('## Recent decisions'));
      // The commit at 09:00+02:00 is 07:00Z: after the 08:30Z patch, level with the tick (which comes first).
      const order = ['fix: units', 'run-20260510-0001', 'feat: forecast panel', 'Is caching needed?', 'feat: change', 'initial'];
      const positions = order.map((s) => trail.indexOf(s));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((x, y) => x - y)).toEqual(positions);
      expect(md).toContain('- Why: Kelvin was shown raw.');
      expect(md).toContain('Later reverted by 11111111');
      expect(md).toContain('Verification: test passed');
      expect(md).toContain('Answer: Not yet.');
      expect(md).toMatch(/## Files touched\n\n- `src\/a\.ts` \+4\/-2 · patch · ×2\n- `src\/panel\.ts` · tick\n\n_v1, lossy:/);
    });

    it('says so when there is nothing recorded', async () => {
      const md = await markdown({ history: sampleHistory({ transactions: [], ticks: [], currentTask: null, relayAnswers: [], git: { isRepo: false, branch: null, head: null, commits: [] } }) });
      expect(md).toContain('_No mission recorded');
      expect(md).toContain('_Nothing recorded yet');
      expect(md).toContain('not a git repository');
    });

    it('mentions ticks the store reports without a report yet', async () => {
      const md = await markdown({ history: sampleHistory({ tickEvents: [{ runId: 'run-live', at: '2026-05-10T10:20:00Z', stage: 'builder' }] }) });
      expect(md).toContain('tick-event `run-live` · tick without a report yet — last stage: builder');
    });
  });

  describe('working memory', () => {
    it('renders the four slots of a fresh gap-fill, and its provider as From when none is given', async () => {
      const brief = await buildBrief(input({ gapFill: gapRecord({ fromProvider: 'claude-code' }), fromProvider: null }));
      const md = renderBrief(brief).markdown;
      expect(brief.workingMemory.status).toBe('provided');
      for (const title of ['### In flight', '### Next steps', '### Open questions', '### Dead ends']) expect(md).toContain(title);
      expect(md).toContain('Half-way through the cache layer.');
      expect(md).toContain('**From:** claude-code');
      expect(md).not.toContain(GAP_FILL_PLACEHOLDER);
    });

    it('renders the placeholder with a note when no gap-fill is given', async () => {
      const md = await markdown();
      expect(md).toContain(`## Working memory\n\n${GAP_FILL_PLACEHOLDER}\n\n_Note: the previous agent did not call \`handoff_finalize\``);
    });

    it('ignores a gap-fill captured more than an hour before now (stale → placeholder)', async () => {
      const brief = await buildBrief(input({ gapFill: gapRecord({ capturedAt: '2026-05-10T09:29:59.000Z' }) }));
      expect(brief.workingMemory).toEqual({ status: 'missing', reason: 'stale' });
      expect(renderBrief(brief).markdown).toContain('more than an hour before this brief');
      const fresh = await buildBrief(input({ gapFill: gapRecord({ capturedAt: '2026-05-10T09:30:00.000Z' }) }));
      expect(fresh.workingMemory.status).toBe('provided');
    });

    it('accepts an old gap-fill when the age limit is lifted (an explicit resume)', async () => {
      const brief = await buildBrief(input({ gapFill: gapRecord({ capturedAt: '2026-05-01T00:00:00.000Z' }), gapFillMaxAgeMs: null, resumedFrom: 'brief-1777593600000-zzzzzz' }));
      expect(brief.workingMemory.status).toBe('provided');
      expect(renderBrief(brief).markdown).toContain('**Resumed from:** brief-1777593600000-zzzzzz');
    });

    it('fails closed on another schema version, another project or empty slots', async () => {
      const wrong = await buildBrief(input({ gapFill: { ...gapRecord(), schemaVersion: 2 } as unknown as ReturnType<typeof gapRecord> }));
      expect(wrong.workingMemory).toEqual({ status: 'missing', reason: 'wrong-version' });
      const other = await buildBrief(input({ gapFill: gapRecord({ projectId: 'other' }) }));
      expect(other.workingMemory).toEqual({ status: 'missing', reason: 'project-mismatch' });
      const empty = await buildBrief(input({ gapFill: gapRecord({ slots: { inFlight: ' ', nextSteps: '', openQuestions: '\n', deadEnds: '' } }) }));
      expect(empty.workingMemory).toEqual({ status: 'missing', reason: 'empty' });
      const told = await buildBrief(input({ gapFill: 'wrong-version' }));
      expect(renderBrief(told).markdown).toContain('schema version this Relay Desk does not read');
    });

    it('shows headings an agent wrote as text, so they cannot fake a section', async () => {
      const md = await markdown({ gapFill: gapRecord({ slots: { inFlight: '## Status\nall good\n### sub', nextSteps: 'x', openQuestions: '', deadEnds: '' } }) });
      expect(md.split('\n').filter((l) => l === '## Status')).toHaveLength(1);
      expect(md).toContain('\\## Status\nall good\n\\### sub');
      expect(md).toContain('### Open questions\n_(left empty)_');
    });
  });
});
