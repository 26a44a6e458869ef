// The engines the runtime drives, as small injected interfaces. The patch engine exists and is
// bound by default; the tick runner, the relay backends and the handoff builder arrive in later
// issues and are bound by passing an implementation in `RuntimeOptions.engines`. Until then the
// commands that need them are refused with ENGINE_UNAVAILABLE.
import type { HandoffResult, RelayResult, TickResult, Usage } from '../../shared/schemas.js';
import { revertTransaction, type RevertRequest } from '../patch/revert.js';
import { applyPatch, type ApplyPatchRequest, type PatchHooks, type PatchOutcome } from '../patch/transaction.js';
import type { RelayErrorCode } from '../relay/errors.js';
import type { Result } from '../result.js';
import type { TickPreview } from '../tick/preview.js';

/** Applies and reverts patch transactions (src/engine/patch). */
export interface PatchEngine {
  apply(request: ApplyPatchRequest, hooks: PatchHooks): Promise<PatchOutcome>;
  revert(request: RevertRequest, hooks: PatchHooks): Promise<PatchOutcome>;
}

/** The real patch engine. */
export const realPatchEngine: PatchEngine = { apply: applyPatch, revert: revertTransaction };

/** What every engine gets from the runtime while it runs a task. */
export interface EngineContext {
  /** Aborted when the task is cancelled or the runtime shuts down: pass it to every child process. */
  readonly signal: AbortSignal;
  readonly now: () => Date;
  /** Token and cost figures, as they become known. */
  readonly onUsage: (usage: Usage) => void;
}

/** One stage event of a tick, kept generic: the stage's name and a JSON payload. */
export interface TickStageEvent {
  readonly stage: string;
  readonly payload?: unknown;
}

/** Runs one Relais tick in a project (src/engine/tick). */
export interface TickEngine {
  run(root: string, context: EngineContext & { readonly onEvent: (event: TickStageEvent) => void }): Promise<Result<TickResult>>;
  /** What a tick would meet if it started now (the same preflight as `run`) and may spend; changes nothing. */
  preview?(root: string, now: Date): Promise<TickPreview>;
}

export interface AskRequest {
  readonly prompt: string;
  readonly backend?: string;
  readonly includeDiff: boolean;
  readonly context?: string;
}

export interface ReviewRequest {
  readonly backend?: string;
  readonly base?: string;
  readonly prompt?: string;
}

export type RelayContext = EngineContext & {
  /** Streamed output of the other agent, as it arrives. */
  readonly onOutput: (stream: 'stdout' | 'stderr' | 'text', text: string) => void;
};

/** Asks another agent for advice or a diff-scoped review (src/engine/relay, built by the relay issue). */
export interface RelayEngine {
  ask(root: string, request: AskRequest, context: RelayContext): Promise<Result<RelayResult, RelayErrorCode>>;
  review(root: string, request: ReviewRequest, context: RelayContext): Promise<Result<RelayResult, RelayErrorCode>>;
}

export interface HandoffRequest {
  /** The provider or agent the brief is meant for. */
  readonly target?: string;
}

/** Writes a handoff brief from a project's history (src/engine/handoff, built by the handoff issue). */
export interface HandoffEngine {
  build(root: string, request: HandoffRequest, context: EngineContext): Promise<Result<HandoffResult>>;
}

export interface Engines {
  readonly patch: PatchEngine;
  readonly tick?: TickEngine;
  readonly relay?: RelayEngine;
  readonly handoff?: HandoffEngine;
}
