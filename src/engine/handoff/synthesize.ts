// The brief synthesizer: a deterministic join of a project's history, not an analysis. Pure over
// its declared inputs (history, now, gap-fill, providers); the one side effect is reading
// `git log --name-only` for the Files-touched section, which `gitLogEnabled: false` turns off so
// two calls give identical bytes. No clock, randomness or environment is read here.
import { describeStats } from '../patch/summary.js';
import { collectFileTouches, FILES_TOUCHED_MAX_COMMITS, readCommitFiles, tickCommitRanges, type CommitFiles, type CommitFilesReader } from './files-touched.js';
import type { ProjectHistory, RelayAnswer, TransactionSummary } from './history.js';
import { brief, shortId, utcIso } from './text.js';
import { describeBlastRadius, tickTime, type TickRun } from '../records/index.js';
import { GAP_SLOT_NAMES, HANDOFF_BRIEF_SCHEMA_VERSION, type DecisionItem, type GapFillAbsence, type GapFillRecord, type HandoffBrief, type TrailItem, type WorkingMemory } from './types.js';

/** Gap-fills captured longer ago than this are ignored when looking for the departing agent's. */
export const GAP_FILL_MAX_AGE_MS = 60 * 60 * 1000;

export interface BuildBriefInput {
  readonly history: ProjectHistory;
  readonly now: Date;
  readonly briefId: string;
  /** The departing agent's slots, or why there are none (a reader that failed closed says so). */
  readonly gapFill?: GapFillRecord | GapFillAbsence | null;
  /** Older gap-fills are treated as absent; null accepts any age (an explicit --resume). Default one hour. */
  readonly gapFillMaxAgeMs?: number | null;
  readonly fromProvider?: string | null;
  readonly toProvider?: string | null;
  readonly resumedFrom?: string | null;
  /** Read `git log --name-only` for Files touched (default true). Off: strictly deterministic. */
  readonly gitLogEnabled?: boolean;
}

export interface BuildBriefEffects {
  /** Replaces the real `git log --name-only` reader. */
  readonly readCommitFiles?: CommitFilesReader;
}

/** Builds the structured brief from a project's history; see the module comment for what it reads. */
export async function buildBrief(input: BuildBriefInput, effects: BuildBriefEffects = {}): Promise<HandoffBrief> {
  const { history, now } = input;
  const useGit = (input.gitLogEnabled ?? true) && history.git.isRepo;
  const commits: readonly CommitFiles[] = useGit
    ? await (effects.readCommitFiles ?? readCommitFiles)(history.root, { maxCount: FILES_TOUCHED_MAX_COMMITS, ranges: tickCommitRanges(history) })
    : [];
  const workingMemory = resolveWorkingMemory(input);
  const fromProvider = input.fromProvider ?? (workingMemory.status === 'provided' ? workingMemory.fromProvider : null);
  return {
    schemaVersion: HANDOFF_BRIEF_SCHEMA_VERSION,
    briefId: input.briefId,
    projectId: history.projectId,
    createdAt: now.toISOString(),
    fromProvider,
    toProvider: input.toProvider ?? null,
    resumedFrom: input.resumedFrom ?? null,
    status: statusOf(history),
    mission: missionOf(history),
    trail: trailOf(history),
    decisions: decisionsOf(history),
    files: { items: collectFileTouches(history, commits), gitLogUsed: useGit, commitsScanned: commits.length },
    workingMemory,
  };
}

/** Decides whether the gap-fill is usable: right project, fresh enough, not empty. */
export function resolveWorkingMemory(input: Pick<BuildBriefInput, 'history' | 'now' | 'gapFill' | 'gapFillMaxAgeMs'>): WorkingMemory {
  const gap = input.gapFill ?? 'not-provided';
  if (typeof gap === 'string') return { status: 'missing', reason: gap };
  if (gap.schemaVersion !== HANDOFF_BRIEF_SCHEMA_VERSION) return { status: 'missing', reason: 'wrong-version' };
  if (gap.projectId !== input.history.projectId) return { status: 'missing', reason: 'project-mismatch' };
  const captured = Date.parse(gap.capturedAt);
  if (Number.isNaN(captured)) return { status: 'missing', reason: 'invalid' };
  const maxAge = input.gapFillMaxAgeMs === undefined ? GAP_FILL_MAX_AGE_MS : input.gapFillMaxAgeMs;
  if (maxAge !== null && input.now.getTime() - captured > maxAge) return { status: 'missing', reason: 'stale' };
  if (!gap.slots || GAP_SLOT_NAMES.every((name) => gap.slots![name].trim().length === 0)) return { status: 'missing', reason: 'empty' };
  return {
    status: 'provided',
    capturedAt: gap.capturedAt,
    briefId: gap.briefId,
    slots: gap.slots,
    fromProvider: gap.fromProvider ?? null,
    inheritedFrom: gap.inheritedFrom ?? null,
  };
}

function latest(times: ReadonlyArray<string | undefined>): string | null {
  let best: string | null = null;
  for (const raw of times) {
    const t = raw ? utcIso(raw) : undefined;
    if (t && (best === null || t > best)) best = t;
  }
  return best;
}

function statusOf(history: ProjectHistory): HandoffBrief['status'] {
  const lastTick = history.ticks[0];
  return {
    branch: history.git.branch,
    head: history.git.head,
    gitRepo: history.git.isRepo,
    counts: {
      patches: history.transactions.length,
      ticks: history.ticks.length,
      relayAnswers: history.relayAnswers.length,
      commits: history.git.commits.length,
    },
    lastActivityAt: latest([
      history.transactions[0]?.createdAt,
      lastTick ? tickTime(lastTick) : undefined,
      history.relayAnswers[0]?.createdAt,
      history.git.commits[0]?.date,
      history.tickEvents[0]?.at,
    ]),
    lastTick: lastTick ? { runId: lastTick.runId, verdict: lastTick.verdict, code: lastTick.code } : null,
    skippedRecords: history.skipped.length,
  };
}

function missionOf(history: ProjectHistory): HandoffBrief['mission'] {
  const fromFile = history.currentTask;
  const fromTick = history.ticks.find((t) => t.task !== null)?.task ?? null;
  const task = fromFile ? { ...fromFile, source: 'TASK.json' as const } : fromTick ? { ...fromTick, source: 'last tick' as const } : null;
  const goals: Array<{ at: string; text: string }> = [];
  for (const t of history.transactions) {
    const text = t.promptSummary ?? t.gitCommitMsg;
    if (text && !t.revertOf) goals.push({ at: utcIso(t.createdAt), text: brief(text, 200) });
  }
  for (const t of history.ticks) if (t.task) goals.push({ at: utcIso(tickTime(t)), text: brief(t.task.intent, 200) });
  const recentGoals: string[] = [];
  for (const g of goals.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : a.text < b.text ? -1 : 1))) {
    if (recentGoals.length >= 3) break;
    if (!recentGoals.includes(g.text) && g.text !== (task ? brief(task.intent, 200) : '')) recentGoals.push(g.text);
  }
  return {
    milestone: task?.milestoneId ?? null,
    task: task ? { taskId: task.taskId, kind: task.kind, intent: brief(task.intent, 600), source: task.source } : null,
    recentGoals,
  };
}

function patchTitle(t: TransactionSummary): string {
  return brief(t.gitCommitMsg ?? t.promptSummary ?? '(no message)', 120);
}

function tickTitle(t: TickRun): string {
  return t.task ? `${t.task.taskId} (${t.task.kind}): ${brief(t.task.intent, 100)}` : '(task not recorded)';
}

function relayTitle(a: RelayAnswer): string {
  return brief(a.prompt, 100);
}

function trailOf(history: ProjectHistory): TrailItem[] {
  const items: TrailItem[] = [];
  for (const t of history.transactions) {
    const marks = [describeStats(t.files)];
    if (t.revertOf) marks.push(`revert of ${shortId(t.revertOf)}`);
    if (t.revertedBy) marks.push(`reverted by ${shortId(t.revertedBy)}`);
    if (t.decision?.rolledBack.length) marks.push(`${t.decision.rolledBack.length} rolled back`);
    items.push({ at: utcIso(t.createdAt), kind: 'patch', id: shortId(t.uuid), title: patchTitle(t), outcome: marks.join(', ') });
  }
  for (const t of history.ticks) {
    items.push({ at: utcIso(tickTime(t)), kind: 'tick', id: t.runId, title: tickTitle(t), outcome: `${t.verdict} ${t.code}, ${describeBlastRadius(t.blastRadius)}` });
  }
  const reported = new Set(history.ticks.map((t) => t.runId));
  const inProgress = new Map<string, (typeof history.tickEvents)[number]>();
  for (const e of history.tickEvents) if (!reported.has(e.runId) && !inProgress.has(e.runId)) inProgress.set(e.runId, e);
  for (const e of inProgress.values()) {
    items.push({ at: utcIso(e.at), kind: 'tick-event', id: e.runId, title: 'tick without a report yet', outcome: `last stage: ${brief(e.stage, 40)}${e.detail ? ` (${brief(e.detail, 80)})` : ''}` });
  }
  for (const a of history.relayAnswers) {
    items.push({ at: utcIso(a.createdAt), kind: a.kind === 'ask' ? 'relay' : 'review', id: shortId(a.id.replace(/^relay-/, '')), title: relayTitle(a), outcome: a.ok ? `answered by ${a.backend}` : `failed (${a.backend})` });
  }
  for (const c of history.git.commits) items.push({ at: utcIso(c.date), kind: 'commit', id: shortId(c.sha, 10), title: brief(c.subject, 120), outcome: '' });
  return items.sort(newestFirst);
}

/**
 * Newest first. Equal times keep their input order (the sort is stable): each history list is
 * already in a fixed order, and git's own order beats any id order for commits made in one second.
 */
function newestFirst(a: { at: string }, b: { at: string }): number {
  return a.at === b.at ? 0 : a.at < b.at ? 1 : -1;
}

function patchDecision(t: TransactionSummary): DecisionItem {
  const details: string[] = [];
  if (t.promptSummary && t.gitCommitMsg) details.push(`Asked: ${brief(t.promptSummary, 200)}`);
  for (const line of t.reasoning.slice(0, 8)) details.push(`Why: ${brief(line, 240)}`);
  if (t.decision) {
    const rolled = t.decision.rolledBack.length > 0 ? `; rolled back ${t.decision.rolledBack.slice(0, 5).join(', ')}` : '';
    details.push(`Approved by ${t.decision.by === 'auto' ? 'policy (auto)' : 'the user'}, kept ${t.decision.kept.length} file(s)${rolled}`);
  }
  if (t.revertOf) details.push(`Reverts ${shortId(t.revertOf)}`);
  if (t.revertedBy) details.push(`Later reverted by ${shortId(t.revertedBy)}`);
  for (const w of t.warnings.slice(0, 3)) details.push(`Warning: ${brief(w, 200)}`);
  return { at: utcIso(t.createdAt), kind: 'patch', id: shortId(t.uuid), title: patchTitle(t), details };
}

function tickDecision(t: TickRun): DecisionItem {
  const details: string[] = [];
  if (t.task) details.push(`Intent: ${brief(t.task.intent, 300)}`);
  details.push(`Judge: ${t.verdict} ${t.code} (${describeBlastRadius(t.blastRadius)})`);
  if (t.violations.length > 0) details.push(`Scope: ${t.violations.slice(0, 5).map((v) => brief(v, 120)).join('; ')}`);
  if (t.verification.length > 0) {
    const runs = t.verification.map((v) => `${v.templateId} ${v.timedOut ? 'timed out' : v.exitCode === 0 ? 'passed' : `failed (exit ${v.exitCode ?? '?'})`}`);
    details.push(`Verification: ${runs.join(', ')}`);
  }
  return { at: utcIso(tickTime(t)), kind: 'tick', id: t.runId, title: tickTitle(t), details };
}

function relayDecision(a: RelayAnswer): DecisionItem {
  return {
    at: utcIso(a.createdAt),
    kind: a.kind === 'ask' ? 'relay' : 'review',
    id: shortId(a.id.replace(/^relay-/, '')),
    title: `${a.kind === 'ask' ? 'Asked' : 'Review by'} ${a.backend}: ${relayTitle(a)}`,
    details: [a.ok ? `Answer: ${brief(a.answer, 600)}` : `Failed: ${brief(a.answer, 200)}`],
  };
}

function decisionsOf(history: ProjectHistory): DecisionItem[] {
  return [...history.transactions.map(patchDecision), ...history.ticks.map(tickDecision), ...history.relayAnswers.map(relayDecision)].sort(newestFirst);
}
