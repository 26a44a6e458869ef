// Renders a brief as markdown: a fixed header, then the six sections in a fixed order, each cut
// to its token budget (D-04). Hand-rolled markdown on purpose: same brief in, same bytes out.
import { assertNever } from '../result.js';
import { ago, brief as briefText, clip, minuteUtc } from './text.js';
import { charsForTokens, estimateTokens } from './token-estimate.js';
import {
  BRIEF_SECTIONS,
  DEFAULT_SECTION_BUDGETS,
  GAP_SLOT_NAMES,
  GAP_SLOT_TITLES,
  SECTION_TITLES,
  type BriefSectionId,
  type GapFillAbsence,
  type HandoffBrief,
  type WorkingMemory,
} from './types.js';

/** What the Working memory section shows when the departing agent left nothing usable. */
export const GAP_FILL_PLACEHOLDER = '[gap-fill not provided]';

export type SectionBudgets = Readonly<Record<BriefSectionId, number>>;

export interface RenderOptions {
  /** Per-section token budgets; missing ones take the D-04 defaults. */
  readonly budgets?: Partial<SectionBudgets>;
}

/** How one section came out against its budget. */
export interface RenderedSection {
  readonly id: BriefSectionId;
  readonly title: string;
  readonly budget: number;
  readonly tokens: number;
  /** True when items were left out or text was cut to fit. */
  readonly truncated: boolean;
  readonly omitted: number;
}

export interface RenderedBrief {
  readonly markdown: string;
  readonly tokens: number;
  readonly sections: readonly RenderedSection[];
}

/** Renders the brief; `renderBrief(b)` twice gives identical strings. */
export function renderBrief(brief: HandoffBrief, options: RenderOptions = {}): RenderedBrief {
  const budgets: SectionBudgets = { ...DEFAULT_SECTION_BUDGETS, ...options.budgets };
  const sections: RenderedSection[] = [];
  const parts: string[] = [header(brief)];
  for (const id of BRIEF_SECTIONS) {
    const fitted = fitSection(id, budgets[id], content(brief, id));
    parts.push(fitted.text);
    sections.push({ id, title: SECTION_TITLES[id], budget: budgets[id], tokens: estimateTokens(fitted.text), truncated: fitted.truncated, omitted: fitted.omitted });
  }
  const markdown = `${parts.join('\n\n')}\n`;
  return { markdown, tokens: estimateTokens(markdown), sections };
}

function header(brief: HandoffBrief): string {
  const lines = [
    `# Handoff brief: ${briefText(brief.projectId, 200)}`,
    '',
    `**Schema version:** ${brief.schemaVersion}`,
    `**Brief id:** ${brief.briefId}`,
    `**Created:** ${brief.createdAt}`,
    `**From:** ${brief.fromProvider ? briefText(brief.fromProvider, 60) : 'unknown'} → **To:** ${brief.toProvider ? briefText(brief.toProvider, 60) : 'not chosen yet'}`,
  ];
  if (brief.resumedFrom) lines.push(`**Resumed from:** ${brief.resumedFrom}`);
  lines.push(
    '',
    '> You are taking over work on this project from another session. Every section but "Working memory" is rebuilt from the',
    "> project's records (patch transactions in .relaycode/, ticks in relais/, git log); Working memory is what the previous",
    '> agent wrote down before it stopped. Check the repository itself before acting on any of it.',
  );
  return lines.join('\n');
}

/** The parts of a section before fitting: items in order, and a footer that is never cut. */
interface SectionContent {
  readonly items: readonly string[];
  readonly joiner: string;
  readonly empty: string;
  readonly footer?: string;
  /** Working memory shares its budget between slots instead of dropping whole items. */
  readonly shareBudget?: boolean;
  /** With shareBudget: a heading above each item that is never cut. */
  readonly labels?: readonly string[];
}

function code(text: string): string {
  return `\`${text.replace(/`/g, "'")}\``;
}

function content(brief: HandoffBrief, id: BriefSectionId): SectionContent {
  switch (id) {
    case 'status':
      return statusContent(brief);
    case 'mission':
      return missionContent(brief);
    case 'trail':
      return {
        items: brief.trail.map((t) => `- ${minuteUtc(t.at)} · ${t.kind} ${code(t.id)} · ${t.title}${t.outcome ? ` — ${t.outcome}` : ''}`),
        joiner: '\n',
        empty: '_Nothing recorded yet: no patch transaction, tick, relay answer or commit._',
      };
    case 'decisions':
      return {
        items: brief.decisions.map((d) => [`### ${minuteUtc(d.at)} · ${d.kind} ${code(d.id)} · ${d.title}`, ...d.details.map((line) => `- ${line}`)].join('\n')),
        joiner: '\n\n',
        empty: '_No decision recorded yet._',
      };
    case 'files':
      return {
        items: brief.files.items.map((f) => `- ${code(f.path)}${f.sources.includes('patch') ? ` +${f.added}/-${f.removed}` : ''} · ${f.sources.join(', ')}${f.times > 1 ? ` · ×${f.times}` : ''}`),
        joiner: '\n',
        empty: '_No file recorded._',
        footer: lossyFootnote(brief),
      };
    case 'workingMemory':
      return workingMemoryContent(brief.workingMemory);
    default:
      return assertNever(id);
  }
}

function statusContent(brief: HandoffBrief): SectionContent {
  const s = brief.status;
  const now = new Date(brief.createdAt);
  const repo = s.gitRepo ? `branch ${s.branch ? code(s.branch) : '(detached or unborn)'}${s.head ? ` at ${code(s.head.slice(0, 10))}` : ', no commit yet'}` : 'not a git repository';
  const items = [
    `- Project ${code(brief.projectId)}: ${repo}`,
    `- Last activity: ${s.lastActivityAt ? `${minuteUtc(s.lastActivityAt)} (${ago(s.lastActivityAt, now)})` : 'none recorded'}`,
    `- Last tick: ${s.lastTick ? `${code(s.lastTick.runId)} ${s.lastTick.verdict} ${s.lastTick.code}` : 'none'}`,
    `- Recent records: ${s.counts.patches} patch transaction(s), ${s.counts.ticks} tick(s), ${s.counts.relayAnswers} relay answer(s), ${s.counts.commits} commit(s)`,
  ];
  if (s.skippedRecords > 0) items.push(`- ${s.skippedRecords} record(s) could not be read and are left out.`);
  return { items, joiner: '\n', empty: '' };
}

function missionContent(brief: HandoffBrief): SectionContent {
  const m = brief.mission;
  const items: string[] = [];
  if (m.milestone) items.push(`- Milestone: ${code(m.milestone)}`);
  if (m.task) items.push(`- ${m.task.source === 'TASK.json' ? 'Current task (relais/TASK.json)' : 'Task of the last tick'}: ${code(m.task.taskId)} (${m.task.kind}): ${m.task.intent}`);
  if (m.recentGoals.length > 0) items.push(`- Recent goals, newest first:\n${m.recentGoals.map((g) => `  - ${g}`).join('\n')}`);
  return { items, joiner: '\n', empty: '_No mission recorded: no relais/TASK.json, tick or patch summary yet._' };
}

function lossyFootnote(brief: HandoffBrief): string {
  const git = brief.files.gitLogUsed
    ? `and \`git log --name-only\` (${brief.files.commitsScanned} recent commit(s), including the newest ticks' commit ranges)`
    : '(git log was not read for this brief)';
  return `_v1, lossy: joined from patch transactions, tick reports ${git}. Uncommitted edits made outside Relay Desk, and work with neither a record nor a commit, do not appear._`;
}

const ABSENCE_NOTES: Readonly<Record<GapFillAbsence, string>> = {
  'not-provided': 'the previous agent did not call `handoff_finalize`',
  stale: 'the only gap-fill found was captured more than an hour before this brief',
  'wrong-version': 'the gap-fill on disk has a schema version this Relay Desk does not read',
  invalid: 'the gap-fill on disk could not be read',
  empty: 'the gap-fill on disk has only empty slots',
  'project-mismatch': 'the gap-fill on disk belongs to another project',
};

/** Headings inside agent-written text are shown as text, so they cannot fake a brief section. */
function neutraliseHeadings(text: string): string {
  return text.replace(/^([ \t]{0,3})(#{1,6})(?=\s|$)/gm, '$1\\$2');
}

function workingMemoryContent(memory: WorkingMemory): SectionContent {
  switch (memory.status) {
    case 'missing':
      return {
        items: [GAP_FILL_PLACEHOLDER],
        joiner: '\n',
        empty: '',
        footer: `_Note: ${ABSENCE_NOTES[memory.reason]}, so what it had in mind (work in flight, next steps, open questions, dead ends) is not here. Ask the user, or rebuild it from the sections above._`,
      };
    case 'provided': {
      const inherited = memory.inheritedFrom ? `, first written for ${memory.inheritedFrom}` : '';
      return {
        labels: GAP_SLOT_NAMES.map((name) => `### ${GAP_SLOT_TITLES[name]}`),
        items: GAP_SLOT_NAMES.map((name) => neutraliseHeadings(memory.slots[name].trim()) || '_(left empty)_'),
        joiner: '\n\n',
        empty: '',
        footer: `_Written by the previous agent${memory.fromProvider ? ` (${briefText(memory.fromProvider, 60)})` : ''} at ${memory.capturedAt}${inherited}._`,
        shareBudget: true,
      };
    }
    default:
      return assertNever(memory);
  }
}

interface Fitted {
  readonly text: string;
  readonly truncated: boolean;
  readonly omitted: number;
}

function compose(id: BriefSectionId, c: SectionContent, kept: readonly string[], omitted: number, budget: number): string {
  const body = kept.length > 0 ? kept.join(c.joiner) : c.empty;
  const parts = [`## ${SECTION_TITLES[id]}`];
  if (body) parts.push(body);
  if (omitted > 0) parts.push(`_… ${omitted} more left out to keep this section within ${budget} tokens._`);
  if (c.footer) parts.push(c.footer);
  return parts.join('\n\n');
}

/** Keeps whole items while the section fits its budget; cuts the first item if even it does not fit. */
function fitSection(id: BriefSectionId, budget: number, c: SectionContent): Fitted {
  if (c.shareBudget) return fitShared(id, budget, c);
  const fits = (text: string): boolean => estimateTokens(text) <= budget;
  const kept: string[] = [];
  for (let i = 0; i < c.items.length; i += 1) {
    const remaining = c.items.length - i - 1;
    if (fits(compose(id, c, [...kept, c.items[i]!], remaining, budget))) {
      kept.push(c.items[i]!);
      continue;
    }
    if (kept.length === 0) {
      const cut = longestFitting(c.items[i]!, (t) => fits(compose(id, c, [t], remaining, budget)));
      if (cut !== null) return { text: compose(id, c, [cut], remaining, budget), truncated: true, omitted: remaining };
    }
    const omitted = c.items.length - kept.length;
    return { text: compose(id, c, kept, omitted, budget), truncated: true, omitted };
  }
  return { text: compose(id, c, kept, 0, budget), truncated: false, omitted: 0 };
}

/** The longest prefix of `item` (cut with an ellipsis) accepted by `fits`, or null when none is. */
function longestFitting(item: string, fits: (text: string) => boolean): string | null {
  const length = Array.from(item).length;
  let lo = 1;
  let hi = length;
  let best: string | null = null;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const candidate = clip(item, mid);
    if (fits(candidate)) {
      best = candidate;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

/**
 * Shares a budget between items by characters: short items keep all their text and what they do
 * not need goes to the long ones, so one long slot cannot push the others out. Item labels (the
 * slot headings) are never cut.
 */
function fitShared(id: BriefSectionId, budget: number, c: SectionContent): Fitted {
  const labels = c.labels ?? c.items.map(() => '');
  const withLabels = (bodies: readonly string[]): string[] => bodies.map((body, i) => (labels[i] ? `${labels[i]}\n${body}` : body));
  const full = compose(id, c, withLabels(c.items), 0, budget);
  if (estimateTokens(full) <= budget) return { text: full, truncated: false, omitted: 0 };
  const overhead = Array.from(compose(id, c, withLabels(c.items.map(() => '…')), 0, budget)).length;
  const lengths = c.items.map((item) => Array.from(item).length);
  // Ellipses and rounding can overshoot by a few characters: shrink until it fits.
  for (let available = Math.max(0, charsForTokens(budget) - overhead); ; available = Math.max(0, available - 16)) {
    const shares = shareOut(lengths, available);
    const text = compose(id, c, withLabels(c.items.map((item, i) => (shares[i]! >= lengths[i]! ? item : clip(item, Math.max(1, shares[i]!))))), 0, budget);
    if (estimateTokens(text) <= budget || available === 0) return { text, truncated: true, omitted: 0 };
  }
}

/** Splits `available` characters between items of these lengths, smallest first, none getting more than it needs. */
function shareOut(lengths: readonly number[], available: number): number[] {
  const shares = new Array<number>(lengths.length).fill(0);
  const order = lengths.map((length, index) => ({ length, index })).sort((a, b) => a.length - b.length || a.index - b.index);
  let left = available;
  order.forEach(({ length, index }, position) => {
    const share = Math.min(length, Math.floor(left / (order.length - position)));
    shares[index] = share;
    left -= share;
  });
  return shares;
}
