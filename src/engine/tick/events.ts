import type { TickCode, Verdict } from './codes.js';
import type { TaskKind } from './task.js';

/**
 * What a tick reports while it runs, one event per finished stage, in this order:
 * started → orchestrated → built → judged → verified → reported. A stage that is not reached
 * emits nothing; `reported` always comes last, also for a tick BLOCKED before it started.
 */
export type TickEvent =
  | TickStartedEvent
  | TickOrchestratedEvent
  | TickBuiltEvent
  | TickJudgedEvent
  | TickVerifiedEvent
  | TickReportedEvent;

/** Preflight passed and the lock is held: the tick is spending budget from here on. */
export interface TickStartedEvent {
  readonly type: 'started';
  readonly runId: string;
  readonly at: string;
  readonly baseCommit: string;
  readonly milestoneId: string;
  /** The 80% budget warnings, empty when no counter is near its cap. */
  readonly budgetWarnings: readonly string[];
}

/** The orchestrator answered (or failed to) after one call and at most one retry. */
export interface TickOrchestratedEvent {
  readonly type: 'orchestrated';
  readonly runId: string;
  readonly at: string;
  readonly calls: number;
  readonly ok: boolean;
  readonly task: { readonly taskId: string; readonly kind: TaskKind; readonly intent: string } | null;
  /** Why the output was refused or the call failed, when it was. */
  readonly problem: string | null;
  readonly costUsd: number;
}

/** The builder call (or the patch application) finished. */
export interface TickBuiltEvent {
  readonly type: 'built';
  readonly runId: string;
  readonly at: string;
  readonly mode: 'claude_code' | 'patch';
  /** False when the call itself failed (crash, timeout, is_error). */
  readonly completed: boolean;
  /** False when the final answer was not a valid builder_result. */
  readonly outputValid: boolean;
  readonly maxTurns: number;
  readonly problem: string | null;
  readonly costUsd: number;
}

/** Scope, limits and side-effect rules were checked against git reality. */
export interface TickJudgedEvent {
  readonly type: 'judged';
  readonly runId: string;
  readonly at: string;
  /** "<files> files, +<added>/-<deleted>, <new> new" */
  readonly blastRadius: string;
  readonly touchedPaths: readonly string[];
  readonly violations: readonly string[];
  /** The STOP code the judge found, null when the change passed. */
  readonly code: TickCode | null;
}

/** Verification ran (or was refused as tainted before running anything). */
export interface TickVerifiedEvent {
  readonly type: 'verified';
  readonly runId: string;
  readonly at: string;
  readonly runs: readonly { readonly templateId: string; readonly phase: 'fast' | 'slow'; readonly exitCode: number; readonly timedOut: boolean; readonly durationMs: number }[];
  readonly code: TickCode | null;
  readonly problem: string | null;
}

/** The files of truth are written: REPORT.json + REPORT.md, or BLOCKED.json. */
export interface TickReportedEvent {
  readonly type: 'reported';
  readonly runId: string | null;
  readonly at: string;
  readonly verdict: Verdict;
  readonly code: TickCode;
  /** Root-relative path of REPORT.md or BLOCKED.json. */
  readonly path: string;
  readonly rolledBack: boolean;
}

/** Where a tick sends its events; the CLI prints them, the desktop app will stream them. */
export type TickEventSink = (event: TickEvent) => void;
