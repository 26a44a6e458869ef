// "Ask a friend": send a prompt (with optional context and diff) or a diff-scoped review to
// another coding agent — codex, gemini, claude (CLIs) or ollama (HTTP).
export { relay, type RelayOptions, type RelayResult } from './relay.js';
export { reviewRelay, canReviewNatively, DEFAULT_REVIEW_PROMPT, type ReviewRelayOptions, type ReviewResult } from './review.js';
export { DEFAULT_BACKEND, DEFAULT_SANDBOX, DEFAULT_TIMEOUT_SECONDS, isSandboxMode, type RelayCommonOptions } from './options.js';
export { type BackendCause, type BackendErrorCode, type BackendResult, type RelayErrorCode, type RelayFailure, type RelayOutcome } from './errors.js';
export { MAX_CONTEXT_FILE_BYTES, MAX_DIFF_BYTES, MAX_PROMPT_BYTES } from './limits.js';
export { DEPTH_ENV, MAX_RELAY_DEPTH, parseDepth, type Env } from './depth.js';
export { buildPrompt } from './envelope.js';
export { detectDefaultBranch, gitDiff, gitDiffBase } from './git-context.js';
export { BUILTIN_BACKENDS, capabilityTable, type BackendTable } from './backends/registry.js';
export type { Spawner } from './backends/types.js';
export {
  BACKEND_NAMES,
  SANDBOX_MODES,
  type Backend,
  type BackendCapabilities,
  type BackendName,
  type RelayEvent,
  type RelayEventSink,
  type SandboxMode,
} from './backends/types.js';
export { ANSWER_ID, newAnswerId, recordAnswer, type RecordedAnswer } from './record.js';
