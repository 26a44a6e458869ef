import { describe, expect, it } from 'vitest';
import { GAP_FILL_PLACEHOLDER, renderBrief } from '../../../src/engine/handoff/render.js';
import { buildBrief } from '../../../src/engine/handoff/synthesize.js';
import { estimateTokens } from '../../../src/engine/handoff/token-estimate.js';
import { BRIEF_SECTIONS, DEFAULT_SECTION_BUDGETS, type HandoffBrief } from '../../../src/engine/handoff/types.js';
import { gapRecord, sampleHistory, tick, transaction } from '../../helpers/handoff.js';

const NOW = new Date('2026-05-10T10:30:00.000Z');

/** A history far larger than any section budget. */
function bigHistory(n = 120): ReturnType<typeof sampleHistory> {
  const transactions = Array.from({ length: n }, (_, i) =>
    transaction({
      uuid: `${String(i).padStart(8, '0')}-tx`,
      createdAt: new Date(Date.UTC(2026, 4, 1) + i * 60_000).toISOString(),
      gitCommitMsg: `feat: change number ${i} with a fairly long message to take some room`,
      reasoning: [`Because reason ${i} matters a lot for the outcome of this work and needs to be explained at length.`],
      files: [{ path: `src/module-${i}/file-${i}.ts`, change: 'modify', added: i, removed: 1 }],
    }),
  );
  const ticks = Array.from({ length: 40 }, (_, i) => tick({ runId: `run-${String(i).padStart(4, '0')}`, endedAt: new Date(Date.UTC(2026, 4, 2) + i * 60_000).toISOString(), touchedPaths: [`src/tick-${i}.ts`] }));
  return sampleHistory({ transactions, ticks });
}

async function big(gap = gapRecord({ capturedAt: '2026-05-10T10:00:00.000Z' })): Promise<HandoffBrief> {
  return buildBrief({ history: bigHistory(), now: NOW, briefId: 'brief-1-a', gapFill: gap, gitLogEnabled: false });
}

describe('renderBrief', () => {
  it('keeps every section within its D-04 budget and says what it left out', async () => {
    const long = 'x '.repeat(5_000);
    const rendered = renderBrief(await big(gapRecord({ slots: { inFlight: long, nextSteps: long, openQuestions: 'short question', deadEnds: long } })));
    for (const section of rendered.sections) {
      expect(section.tokens, section.id).toBeLessThanOrEqual(DEFAULT_SECTION_BUDGETS[section.id]);
      expect(section.budget).toBe(DEFAULT_SECTION_BUDGETS[section.id]);
    }
    const byId = Object.fromEntries(rendered.sections.map((s) => [s.id, s]));
    expect(byId.trail!.truncated).toBe(true);
    expect(byId.trail!.omitted).toBeGreaterThan(0);
    expect(rendered.markdown).toMatch(/_… \d+ more left out to keep this section within 600 tokens\._/);
    expect(byId.status!.truncated).toBe(false);
    expect(rendered.sections.map((s) => s.id)).toEqual([...BRIEF_SECTIONS]);
    expect(rendered.tokens).toBe(estimateTokens(rendered.markdown));
  });

  it('shares the working-memory budget so a long slot cannot push out the others', async () => {
    const long = 'y'.repeat(20_000);
    const md = renderBrief(await big(gapRecord({ slots: { inFlight: long, nextSteps: 'step one', openQuestions: 'q?', deadEnds: long } }))).markdown;
    const memory = md.slice(md.indexOf('## Working memory'));
    expect(estimateTokens(memory)).toBeLessThanOrEqual(DEFAULT_SECTION_BUDGETS.workingMemory);
    for (const heading of ['### In flight', '### Next steps', '### Open questions', '### Dead ends']) expect(memory).toContain(heading);
    expect(memory).toContain('step one');
    expect(memory).toContain('q?');
    expect(memory).toContain('…');
    expect(memory).toMatch(/_Written by the previous agent/);
  });

  it('always keeps the v1-lossy footnote in Files touched, even when the list is cut', async () => {
    const rendered = renderBrief(await big(), { budgets: { files: 120 } });
    const files = rendered.sections.find((s) => s.id === 'files')!;
    expect(files.truncated).toBe(true);
    expect(files.tokens).toBeLessThanOrEqual(120);
    expect(rendered.markdown).toContain('_v1, lossy: joined from patch transactions, tick reports (git log was not read for this brief).');
  });

  it('cuts a single item that alone exceeds the budget instead of showing nothing', async () => {
    const history = sampleHistory({ transactions: [transaction({ uuid: 'long', createdAt: '2026-05-10T10:00:00Z', reasoning: ['z'.repeat(3_000), 'w'.repeat(3_000)] })], ticks: [], relayAnswers: [] });
    const rendered = renderBrief(await buildBrief({ history, now: NOW, briefId: 'brief-1-a', gitLogEnabled: false }), { budgets: { decisions: 100 } });
    const decisions = rendered.markdown.slice(rendered.markdown.indexOf('## Recent decisions'), rendered.markdown.indexOf('## Files touched'));
    expect(decisions).toContain('### 2026-05-10 10:00Z · patch `long`');
    expect(decisions).toContain('…');
    expect(rendered.sections.find((s) => s.id === 'decisions')!.tokens).toBeLessThanOrEqual(100);
  });

  it('stays under the soft cap for an ordinary project and renders the placeholder without a gap-fill', async () => {
    const rendered = renderBrief(await buildBrief({ history: sampleHistory(), now: NOW, briefId: 'brief-1-a', gitLogEnabled: false }));
    expect(rendered.tokens).toBeLessThan(4_000);
    expect(rendered.markdown).toContain(GAP_FILL_PLACEHOLDER);
  });

  it('takes budget overrides and leaves the others at their defaults', async () => {
    const rendered = renderBrief(await big(), { budgets: { decisions: 6_000, trail: 3_000 } });
    const byId = Object.fromEntries(rendered.sections.map((s) => [s.id, s]));
    expect(byId.decisions!.budget).toBe(6_000);
    expect(byId.decisions!.tokens).toBeGreaterThan(DEFAULT_SECTION_BUDGETS.decisions);
    expect(byId.files!.budget).toBe(DEFAULT_SECTION_BUDGETS.files);
  });
});

describe('estimateTokens', () => {
  it('counts about four characters per token, by code point', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('😀😀😀😀')).toBe(1);
  });
});
