// The runtime's public surface.
export { createRuntime, type Runtime, type RuntimeOptions } from './runtime.js';
export type { Announcement, CommandReplies, CommandType, RuntimeCommand, TaskSettlement } from './commands.js';
export type { AskRequest, EngineContext, Engines, HandoffEngine, HandoffRequest, PatchEngine, RelayContext, RelayEngine, ReviewRequest, TickEngine, TickStageEvent } from './engines.js';
export { realPatchEngine } from './engines.js';
export { DEFAULT_POLICY, effectivePolicy, formatApprovalPolicy, parseApprovalPolicy } from './policy.js';
export type { EnvelopeListener } from './event-log.js';
