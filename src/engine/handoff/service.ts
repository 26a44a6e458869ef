// The handoff use cases, shared by `relay handoff`, and later the runtime and the window's
// "Hand off" view: prepare (load → gap-fill → build → render → validate, nothing written), save
// (PERMISSIVE), dispatch (STRICT, then save, then seed a new session).
import type { Failure } from '../result.js';
import { budgetOverrides, loadHandoffConfig, type Destination, type HandoffConfigFailure } from './config.js';
import { planDispatch, runDispatch, type AgentSpawner, type DispatchFailureCode } from './dispatch.js';
import { loadProjectHistory, type LoadHistoryOptions, type ProjectHistory } from './history.js';
import {
  generateBriefId,
  readGapFill,
  readLatestGapFill,
  resolveBriefRef,
  writeBriefArtifact,
  type GapReadFailure,
  type PersistFailureCode,
} from './persist.js';
import { renderBrief, type RenderedBrief } from './render.js';
import { buildBrief, GAP_FILL_MAX_AGE_MS, type BuildBriefEffects } from './synthesize.js';
import { HANDOFF_BRIEF_SCHEMA_VERSION, type GapFillAbsence, type GapFillRecord, type HandoffBrief } from './types.js';
import { validateBrief, type ValidationReport } from './validate.js';

export type HandoffFailureCode = HandoffConfigFailure | PersistFailureCode | DispatchFailureCode | 'BRIEF_REFUSED';

/** A failed handoff step; when validation refused the brief, its report says why. */
export type HandoffOutcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: Failure<HandoffFailureCode>; readonly validation: ValidationReport | null };

function refuse<T>(code: HandoffFailureCode, message: string, validation: ValidationReport | null = null): HandoffOutcome<T> {
  return { ok: false, error: { code, message }, validation };
}

export interface PrepareOptions {
  readonly now: Date;
  readonly fromProvider?: string | null;
  /** Shown in the header; the destination's name when dispatching. */
  readonly toProvider?: string | null;
  /** `latest` or a brief id: re-read only that brief's gap.json and rebuild everything else. */
  readonly resume?: string;
  readonly gitLogEnabled?: boolean;
  /** A history built by the app's store; without it the files of truth are read. */
  readonly history?: ProjectHistory;
  readonly historyOptions?: LoadHistoryOptions;
  /** Replaces the random brief id (tests). */
  readonly newBriefId?: (now: Date) => string;
  readonly effects?: BuildBriefEffects;
}

/** Where the working memory came from. */
export type GapSource =
  | { readonly kind: 'pending'; readonly briefId: string }
  | { readonly kind: 'resume'; readonly briefId: string; readonly failure: GapReadFailure | null }
  | { readonly kind: 'stale'; readonly briefId: string }
  | { readonly kind: 'none' };

/** A brief ready to be shown, saved or sent; nothing has been written yet. */
export interface PreparedHandoff {
  readonly root: string;
  readonly brief: HandoffBrief;
  readonly rendered: RenderedBrief;
  /** How the brief fares in each mode, for previews (dispatch re-checks with --force applied). */
  readonly strict: ValidationReport;
  readonly permissive: ValidationReport;
  readonly gapSource: GapSource;
  /** The gap.json to write with the brief; null leaves the one on disk (the departing agent's) alone. */
  readonly gapToWrite: GapFillRecord | null;
}

const READ_FAILURE_TO_ABSENCE: Readonly<Record<GapReadFailure, GapFillAbsence>> = {
  missing: 'not-provided',
  invalid: 'invalid',
  'wrong-version': 'wrong-version',
};

/** How long an unused, stale gap-fill is still mentioned in new briefs. */
const STALE_GAP_NOTICE_MS = 24 * 60 * 60 * 1000;

function emptyGap(briefId: string, projectId: string, now: Date): GapFillRecord {
  return { schemaVersion: HANDOFF_BRIEF_SCHEMA_VERSION, briefId, projectId, capturedAt: now.toISOString(), source: 'brief', slots: null };
}

/** Builds, renders and validates a brief for a project without writing anything. */
export async function prepareHandoff(root: string, options: PrepareOptions): Promise<HandoffOutcome<PreparedHandoff>> {
  const config = loadHandoffConfig(root);
  if (!config.ok) return refuse(config.error.code, config.error.message);
  const { now } = options;
  const newId = options.newBriefId ?? generateBriefId;
  const history = options.history ?? (await loadProjectHistory(root, options.historyOptions));

  let briefId: string;
  let gapFill: GapFillRecord | GapFillAbsence;
  let gapSource: GapSource;
  let gapToWrite: GapFillRecord | null;
  let resumedFrom: string | null = null;

  if (options.resume !== undefined) {
    const ref = resolveBriefRef(root, options.resume);
    if (!ref.ok) return refuse(ref.error.code, ref.error.message);
    resumedFrom = ref.value;
    briefId = newId(now);
    const read = readGapFill(root, ref.value);
    gapFill = read.ok ? read.record : READ_FAILURE_TO_ABSENCE[read.reason];
    gapSource = { kind: 'resume', briefId: ref.value, failure: read.ok ? null : read.reason };
    // The resumed brief's gap.json stays as it is; the new brief gets its own copy of the slots.
    gapToWrite = read.ok
      ? { ...read.record, briefId, source: 'brief', inheritedFrom: read.record.inheritedFrom ?? ref.value }
      : emptyGap(briefId, history.projectId, now);
  } else {
    // Looked up over a day so that a recent but stale gap-fill is named in the note; older ones are forgotten.
    const pending = readLatestGapFill(root, { now, maxAgeMs: STALE_GAP_NOTICE_MS, pendingOnly: true });
    const fresh = pending !== null && now.getTime() - Date.parse(pending.capturedAt) <= GAP_FILL_MAX_AGE_MS;
    if (pending && fresh) {
      briefId = pending.briefId;
      gapFill = pending;
      gapSource = { kind: 'pending', briefId };
      gapToWrite = null;
    } else {
      briefId = newId(now);
      // A stale one goes to the synthesizer, which turns it into the placeholder and says why.
      gapFill = pending ?? 'not-provided';
      gapSource = pending ? { kind: 'stale', briefId: pending.briefId } : { kind: 'none' };
      gapToWrite = emptyGap(briefId, history.projectId, now);
    }
  }

  const brief = await buildBrief(
    {
      history,
      now,
      briefId,
      gapFill,
      gapFillMaxAgeMs: options.resume !== undefined ? null : GAP_FILL_MAX_AGE_MS,
      fromProvider: options.fromProvider ?? null,
      toProvider: options.toProvider ?? null,
      resumedFrom,
      gitLogEnabled: options.gitLogEnabled ?? true,
    },
    options.effects,
  );
  const rendered = renderBrief(brief, { budgets: budgetOverrides(config.value) });
  return {
    ok: true,
    value: {
      root,
      brief,
      rendered,
      strict: validateBrief(rendered.markdown, { mode: 'strict' }),
      permissive: validateBrief(rendered.markdown, { mode: 'permissive' }),
      gapSource,
      gapToWrite,
    },
  };
}

/** What a written brief reports (the runtime's HandoffResult has this shape). */
export interface SavedBrief {
  readonly briefId: string;
  /** Project-relative path of the markdown. */
  readonly path: string;
  readonly gapPath: string;
  readonly tokens: number;
  readonly warnings: readonly string[];
  /** The validation the brief passed to be written. */
  readonly validation: ValidationReport;
}

function write(prepared: PreparedHandoff, validation: ValidationReport): HandoffOutcome<SavedBrief> {
  const written = writeBriefArtifact(prepared.root, { briefId: prepared.brief.briefId, markdown: prepared.rendered.markdown, gap: prepared.gapToWrite });
  if (!written.ok) return refuse(written.error.code, written.error.message, validation);
  return {
    ok: true,
    value: { briefId: prepared.brief.briefId, path: written.value.path, gapPath: written.value.gapPath, tokens: prepared.rendered.tokens, warnings: validation.warnings.map((w) => w.message), validation },
  };
}

function refusal(validation: ValidationReport): string {
  return `The brief was not written: ${validation.errors.map((e) => e.code).filter((c, i, all) => all.indexOf(c) === i).join(', ')}.`;
}

/** Writes the brief after PERMISSIVE validation (secrets only; the soft cap is a warning). */
export function saveHandoff(prepared: PreparedHandoff): HandoffOutcome<SavedBrief> {
  const validation = prepared.permissive;
  if (!validation.ok) return refuse('BRIEF_REFUSED', refusal(validation), validation);
  return write(prepared, validation);
}

export interface DispatchOptions {
  /** Send a brief over the hard cap anyway (never one with a secret). */
  readonly force?: boolean;
  /** The environment to derive the agent's from (secret-looking variables are dropped). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly spawner?: AgentSpawner;
  /** Called after the brief is on disk and just before the agent starts. */
  readonly onStart?: (saved: SavedBrief, command: { readonly command: string; readonly argCount: number }) => void;
}

export interface DispatchedBrief extends SavedBrief {
  readonly destination: string;
  readonly adapter: Destination['adapter'];
  readonly command: string;
  readonly exitCode: number;
}

/** STRICT validation, then save, then seed a new session of `destination` with the brief. */
export async function dispatchHandoff(prepared: PreparedHandoff, destination: Destination, options: DispatchOptions): Promise<HandoffOutcome<DispatchedBrief>> {
  const validation = validateBrief(prepared.rendered.markdown, { mode: 'strict', force: options.force === true });
  if (!validation.ok) return refuse('BRIEF_REFUSED', refusal(validation), validation);
  const plan = planDispatch(destination, prepared.rendered.markdown, { cwd: prepared.root, env: options.env });
  if (!plan.ok) return refuse(plan.error.code, plan.error.message, validation);
  const saved = write(prepared, validation);
  if (!saved.ok) return saved;
  options.onStart?.(saved.value, { command: plan.value.command, argCount: plan.value.args.length });
  const ran = await runDispatch(plan.value, options.spawner);
  if (!ran.ok) return refuse(ran.error.code, `${ran.error.message} The brief is saved as ${saved.value.path}.`, validation);
  return { ok: true, value: { ...saved.value, destination: destination.name, adapter: destination.adapter, command: plan.value.command, exitCode: ran.value.exitCode } };
}

export interface WaitOptions {
  readonly timeoutMs: number;
  readonly pollMs?: number;
  readonly clock?: () => Date;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Waits until the departing agent's gap.json (fresh, not yet used by a brief) appears, or the time is up. */
export async function waitForGapFill(root: string, options: WaitOptions): Promise<GapFillRecord | null> {
  const clock = options.clock ?? (() => new Date());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = clock().getTime() + Math.max(0, options.timeoutMs);
  for (;;) {
    const found = readLatestGapFill(root, { now: clock(), pendingOnly: true });
    if (found) return found;
    const left = deadline - clock().getTime();
    if (left <= 0) return null;
    await sleep(Math.min(options.pollMs ?? 250, left));
  }
}
