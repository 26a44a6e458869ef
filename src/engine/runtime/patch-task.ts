// Patch and revert tasks: the real patch engine under the runtime's approvals and cancellation.
import type { RuntimeEvent } from '../../shared/events.js';
import type { DecisionData, FailureData, PatchResult, PatchReview } from '../../shared/schemas.js';
import type { PatchRefusal } from '../patch/check.js';
import { loadRelayConfig, type RelayConfig } from '../patch/config.js';
import type { Decision, PatchEvent, PatchHooks, PatchOutcome, PendingReview } from '../patch/transaction.js';
import { assertNever } from '../result.js';
import type { PatchEngine } from './engines.js';
import type { TaskContext, TaskEnd } from './task-context.js';

/** Applies an answer. Under `ask` every patch waits for a person, whatever relay.config.json says. */
export async function runPatchTask(context: TaskContext, engine: PatchEngine, spec: { text: string; source: 'clipboard' | 'paste' | 'file' }): Promise<TaskEnd> {
  const loaded = loadRelayConfig(context.root);
  // A config that cannot be loaded is left to the engine, which rejects with the precise code.
  const config: RelayConfig | undefined = loaded.ok ? forcePolicy(loaded.value, context.policy) : undefined;
  const outcome = await engine.apply(
    {
      root: context.root,
      text: spec.text,
      source: spec.source,
      decide: (review) => decideThroughRuntime(context, review),
      ...(config ? { config } : {}),
    },
    hooks(context),
  );
  return endOf(context, 'patch', outcome);
}

/**
 * Reverts a transaction. The Revert command is itself the person's decision, so the revert's
 * own approval request is granted at once.
 */
export async function runRevertTask(context: TaskContext, engine: PatchEngine, spec: { transaction: string }): Promise<TaskEnd> {
  // Confirmed by name, not by looking at the diff: code it brings back is not run unseen.
  const outcome = await engine.revert({ root: context.root, target: spec.transaction, decide: async () => ({ approve: true, unseen: true }) }, hooks(context));
  return endOf(context, 'revert', outcome);
}

function forcePolicy(config: RelayConfig, policy: 'auto' | 'ask'): RelayConfig {
  if (policy === 'auto') return config;
  return { ...config, patch: { ...config.patch, approvalMode: 'manual' } };
}

function hooks(context: TaskContext): PatchHooks {
  return {
    now: context.now,
    signal: context.signal,
    onEvent: (event) => {
      const mapped = toRuntimeEvent(context, event);
      if (mapped) context.emit(mapped);
    },
    ...(context.commandTimeoutMs !== undefined ? { commandTimeoutMs: context.commandTimeoutMs } : {}),
  };
}

async function decideThroughRuntime(context: TaskContext, review: PendingReview): Promise<Decision> {
  const decision: DecisionData = await context.requestApproval(toReview(review));
  if (!decision.approve) return decision.reason === undefined ? { approve: false } : { approve: false, reason: decision.reason };
  return decision.keep === undefined ? { approve: true } : { approve: true, keep: decision.keep };
}

/** The engine's review as the contract shows it. */
export function toReview(review: PendingReview): PatchReview {
  return {
    uuid: review.uuid,
    projectId: review.projectId,
    gitCommitMsg: review.gitCommitMsg ?? null,
    promptSummary: review.promptSummary ?? null,
    reasoning: [...review.reasoning],
    warnings: [...review.warnings],
    files: review.files.map((f) => ({ path: f.path, change: f.change, added: f.added, removed: f.removed, diff: f.diff })),
    linter: review.linter ? { ...review.linter } : null,
    reason: review.reason,
    ...(review.executes ? { executes: review.executes.map((e) => ({ path: e.path, why: e.why })) } : {}),
  };
}

function toRuntimeEvent(context: TaskContext, event: PatchEvent): RuntimeEvent | null {
  const ids = { taskId: context.taskId, projectId: context.projectId };
  switch (event.type) {
    case 'recovered':
      // A record recovery refused to act on is a warning, not a rollback that happened.
      if (event.recovery.refused) return { type: 'warning', code: event.recovery.refused.code, message: event.recovery.refused.message, ...ids };
      return { type: 'patch.recovered', ...ids, uuid: event.recovery.uuid, restored: [...event.recovery.restored] };
    case 'parsed':
      return { type: 'patch.parsed', ...ids, uuid: event.uuid, operations: event.operations };
    case 'applied':
      return { type: 'patch.applied', ...ids, uuid: event.uuid, files: event.files.map((f) => ({ ...f })) };
    case 'command':
      return { type: 'patch.command', ...ids, uuid: event.uuid, which: event.which, argv: [...event.argv], exitCode: event.exitCode };
    case 'waiting-approval':
      return null; // the runtime announces it as task.waiting-approval, with its approval id
    case 'committed':
      return { type: 'patch.committed', ...ids, uuid: event.uuid, files: event.files.map((f) => ({ ...f })) };
    case 'rolled-back':
      return { type: 'patch.rolled-back', ...ids, uuid: event.uuid, reason: { ...event.reason } };
    default:
      return assertNever(event);
  }
}

/**
 * A patch refusal as the contract carries it: code, message, file, and what fixes it (the reply
 * for the assistant, the closest lines, the block). The engine's working fields (expected lines,
 * operation index…) stay behind: events and runs hold only what the contract declares.
 */
export function toFailureData(error: PatchRefusal): FailureData {
  return {
    code: error.code,
    message: error.message,
    ...(error.path !== undefined ? { path: error.path } : {}),
    ...(error.reply !== undefined ? { reply: error.reply } : {}),
    ...(error.closest ? { closest: { startLine: error.closest.startLine, lines: [...error.closest.lines], similarity: error.closest.similarity } } : {}),
    ...(error.block ? { block: { format: error.block.format, line: error.block.line, ...(error.block.path !== undefined ? { path: error.block.path } : {}) } } : {}),
  };
}

/** The engine's outcome as the contract reports it. */
export function toPatchResult(outcome: PatchOutcome): PatchResult {
  switch (outcome.status) {
    case 'applied':
      return {
        status: 'applied',
        uuid: outcome.uuid,
        files: outcome.files.map((f) => ({ ...f })),
        rolledBack: [...outcome.rolledBack],
        approvedBy: outcome.approvedBy,
        warnings: [...outcome.warnings],
        error: null,
      };
    case 'skipped':
      return { status: 'skipped', uuid: outcome.uuid ?? null, files: [], rolledBack: [], approvedBy: null, warnings: [], error: toFailureData(outcome.reason) };
    case 'rejected':
      return { status: 'rejected', uuid: outcome.uuid ?? null, files: [], rolledBack: [], approvedBy: null, warnings: [], error: toFailureData(outcome.error) };
    case 'rolled-back':
      return {
        status: 'rolled-back',
        uuid: outcome.uuid,
        files: outcome.files.map((f) => ({ ...f })),
        rolledBack: outcome.files.map((f) => f.path),
        approvedBy: null,
        warnings: [],
        error: toFailureData(outcome.error),
      };
    default:
      return assertNever(outcome);
  }
}

function endOf(context: TaskContext, kind: 'patch' | 'revert', outcome: PatchOutcome): TaskEnd {
  const result = { kind, patch: toPatchResult(outcome) } as const;
  // A cancelled task that still committed did change the project: report what happened, not the wish.
  if (context.signal.aborted && outcome.status !== 'applied') {
    return { error: { code: 'CANCELLED', message: `The ${kind} was cancelled; ${describe(outcome)}.` }, result };
  }
  return { result };
}

function describe(outcome: PatchOutcome): string {
  switch (outcome.status) {
    case 'applied':
      return 'it was applied';
    case 'skipped':
      return 'nothing was applied';
    case 'rejected':
      return 'nothing was written';
    case 'rolled-back':
      return 'every file was restored';
    default:
      return assertNever(outcome);
  }
}
