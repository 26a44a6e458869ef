// The handoff brief's data: the version constant every artifact carries, the four slots only the
// departing agent can fill, and the structured brief that render.ts turns into markdown.
import { z } from 'zod';

/**
 * Version of every handoff artifact (the brief's markdown header and `<briefId>.gap.json`).
 * Readers fail closed on any other value; a bump needs the writer and every reader changed together.
 */
export const HANDOFF_BRIEF_SCHEMA_VERSION = 1 as const;

/** Brief ids as written to disk: checked before any path is built from one. */
export const BRIEF_ID_PATTERN = /^brief-[0-9]+-[a-z0-9]+$/;

/** Longest text one working-memory slot may hold (the render budget trims further). */
export const GAP_SLOT_MAX_CHARS = 6_000;

const slot = z.string().max(GAP_SLOT_MAX_CHARS);

/**
 * What only the departing agent knows: the four slots it fills before its session ends.
 * Everything else in a brief is rebuilt from the project's records.
 */
export const GapFillSlotsSchema = z.strictObject({
  /** What it was in the middle of when it stopped. */
  inFlight: slot,
  /** The next concrete steps it would have taken. */
  nextSteps: slot,
  /** Questions and doubts it had not resolved. */
  openQuestions: slot,
  /** What it tried that did not work, and why, so nobody tries it again. */
  deadEnds: slot,
});
export type GapFillSlots = z.infer<typeof GapFillSlotsSchema>;

/** Names of the slots in the order a brief shows them. */
export const GAP_SLOT_NAMES = ['inFlight', 'nextSteps', 'openQuestions', 'deadEnds'] as const satisfies ReadonlyArray<keyof GapFillSlots>;

/** How the brief titles each slot. */
export const GAP_SLOT_TITLES: Readonly<Record<keyof GapFillSlots, string>> = {
  inFlight: 'In flight',
  nextSteps: 'Next steps',
  openQuestions: 'Open questions',
  deadEnds: 'Dead ends',
};

/** `<briefId>.gap.json`: the slots with where and when they were captured. */
export const GapFillRecordSchema = z.strictObject({
  schemaVersion: z.literal(HANDOFF_BRIEF_SCHEMA_VERSION),
  briefId: z.string().regex(BRIEF_ID_PATTERN),
  projectId: z.string().min(1).max(200),
  capturedAt: z.iso.datetime({ offset: true }),
  /** `mcp`: written by the departing agent; `brief`: written with a brief (no slots, or slots inherited on resume). */
  source: z.enum(['mcp', 'brief']),
  /** null when the brief was written without a gap-fill. */
  slots: GapFillSlotsSchema.nullable(),
  /** The provider the departing agent ran in, when it said. */
  fromProvider: z.string().max(100).optional(),
  sessionId: z.string().max(200).optional(),
  /** On a resumed brief: the brief whose slots these are. */
  inheritedFrom: z.string().regex(BRIEF_ID_PATTERN).optional(),
});
export type GapFillRecord = z.infer<typeof GapFillRecordSchema>;

/** The sections of a brief, in the fixed order they are rendered. */
export const BRIEF_SECTIONS = ['status', 'mission', 'trail', 'decisions', 'files', 'workingMemory'] as const;
export type BriefSectionId = (typeof BRIEF_SECTIONS)[number];

/** The heading each section carries in the markdown (validation looks for these). */
export const SECTION_TITLES: Readonly<Record<BriefSectionId, string>> = {
  status: 'Status',
  mission: 'Mission',
  trail: 'Work trail',
  decisions: 'Recent decisions',
  files: 'Files touched',
  workingMemory: 'Working memory',
};

/**
 * Token budget of each section (D-04). Heuristics to be tuned on real projects; a project can
 * override them in relay.handoff.json. Their sum is above the soft cap on purpose: most
 * sections are far below their budget in practice.
 */
export const DEFAULT_SECTION_BUDGETS: Readonly<Record<BriefSectionId, number>> = {
  status: 200,
  mission: 300,
  trail: 600,
  decisions: 1500,
  files: 400,
  workingMemory: 1500,
};

/** Above this many tokens a brief gets a warning. */
export const SOFT_TOKEN_CAP = 4_000;
/** Above this many tokens a dispatch is refused unless forced. */
export const HARD_TOKEN_CAP = 8_000;

/** One line of the work trail: any recorded run, newest first. */
export interface TrailItem {
  readonly at: string;
  readonly kind: 'patch' | 'tick' | 'relay' | 'review' | 'commit' | 'tick-event';
  readonly id: string;
  readonly title: string;
  readonly outcome: string;
}

/** One entry of "Recent decisions": why something was done and what was decided. */
export interface DecisionItem {
  readonly at: string;
  readonly kind: 'patch' | 'tick' | 'relay' | 'review';
  readonly id: string;
  readonly title: string;
  /** Short lines (reasoning, verdicts, answers), already in the order to show. */
  readonly details: readonly string[];
}

/** One path and where its changes were recorded. */
export interface FileTouch {
  readonly path: string;
  readonly added: number;
  readonly removed: number;
  /** Which records name the path: patch transactions, tick reports, git commits. */
  readonly sources: ReadonlyArray<'patch' | 'tick' | 'commit'>;
  /** How many runs and commits touched it. */
  readonly times: number;
}

/** Why the working-memory slots are empty, when they are. */
export type GapFillAbsence = 'not-provided' | 'stale' | 'wrong-version' | 'invalid' | 'empty' | 'project-mismatch';

export type WorkingMemory =
  | { readonly status: 'provided'; readonly capturedAt: string; readonly briefId: string; readonly slots: GapFillSlots; readonly fromProvider: string | null; readonly inheritedFrom: string | null }
  | { readonly status: 'missing'; readonly reason: GapFillAbsence };

/** The structured brief: a join of the project's records, ready to render. */
export interface HandoffBrief {
  readonly schemaVersion: typeof HANDOFF_BRIEF_SCHEMA_VERSION;
  readonly briefId: string;
  readonly projectId: string;
  readonly createdAt: string;
  readonly fromProvider: string | null;
  readonly toProvider: string | null;
  readonly resumedFrom: string | null;
  readonly status: {
    readonly branch: string | null;
    readonly head: string | null;
    readonly gitRepo: boolean;
    readonly counts: { readonly patches: number; readonly ticks: number; readonly relayAnswers: number; readonly commits: number };
    readonly lastActivityAt: string | null;
    readonly lastTick: { readonly runId: string; readonly verdict: string; readonly code: string } | null;
    readonly skippedRecords: number;
  };
  readonly mission: {
    readonly milestone: string | null;
    readonly task: { readonly taskId: string; readonly kind: string; readonly intent: string; readonly source: 'TASK.json' | 'last tick' } | null;
    /** The latest distinct goals the records state (patch summaries, tick intents), newest first. */
    readonly recentGoals: readonly string[];
  };
  readonly trail: readonly TrailItem[];
  readonly decisions: readonly DecisionItem[];
  readonly files: {
    readonly items: readonly FileTouch[];
    /** False when the brief was built without reading `git log` (tests, or no repository). */
    readonly gitLogUsed: boolean;
    readonly commitsScanned: number;
  };
  readonly workingMemory: WorkingMemory;
}
