import type { SourceEnv, ClaudeCallRecord } from './claude.js';
import type { TickEventSink } from './events.js';
import type { BudgetLedger } from './ledger.js';
import type { Project } from './project.js';

/** What every stage of a running tick shares. */
export interface TickContext {
  readonly project: Project;
  readonly runId: string;
  readonly clock: () => Date;
  readonly emit: TickEventSink;
  readonly env?: SourceEnv;
  readonly claudeCommand: string;
  /** Cancels the tick: passed to every child process. */
  readonly signal?: AbortSignal;
  readonly onClaudeCall?: (record: ClaudeCallRecord, role: 'orchestrator' | 'builder') => void;
  /** Told when a rollback starts, after its intent is written (the fault harness kills the process here). */
  readonly onRollbackStart?: () => void;
  /** Epoch ms by which the tick must end (runner.max_tick_seconds). */
  readonly deadlineMs: number;
  readonly milestone: string;
  readonly ledger: BudgetLedger;
  /** The 80% warnings found at preflight. */
  readonly warnings: readonly string[];
}

/** A Claude call as history/<run_id>/meta.json keeps it (the system prompt is not repeated). */
export interface CallSummary {
  readonly role: 'orchestrator' | 'builder';
  readonly attempt: number;
  readonly argv: readonly string[];
  readonly exit_code: number | null;
  readonly duration_ms: number;
  readonly cost_usd: number | null;
  readonly outcome: 'answered' | 'failed' | 'no_result';
  readonly problem: string | null;
}

/** Summarises a call record for meta.json. */
export function summariseCall(role: CallSummary['role'], attempt: number, record: ClaudeCallRecord, problem: string | null): CallSummary {
  const argv = record.argv.map((a, i) => (record.argv[i - 1] === '--append-system-prompt' ? `<system prompt, ${a.length} characters>` : a));
  return {
    role,
    attempt,
    argv,
    exit_code: record.exitCode,
    duration_ms: record.durationMs,
    cost_usd: record.costUsd,
    outcome: record.verdict.kind,
    problem: problem ?? (record.verdict.kind === 'answered' ? null : record.verdict.reason),
  };
}

/** What to charge for a call: the cost the wrapper reports; when it reports none after the
 * process ran, the call's cap (the spend is unknown, so assume the worst); nothing when the
 * process never started. */
export function costToCharge(record: ClaudeCallRecord, capUsd: number): number {
  if (record.costUsd !== null) return record.costUsd;
  const neverStarted = record.verdict.kind === 'failed' && record.verdict.reason.startsWith('could not start');
  return neverStarted ? 0 : capUsd;
}

/** Milliseconds left before the tick's deadline (at least 1). */
export function msLeft(ctx: TickContext): number {
  return Math.max(1, ctx.deadlineMs - ctx.clock().getTime());
}
