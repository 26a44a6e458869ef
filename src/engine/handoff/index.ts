// Handoff briefs: the engine's public surface. See each module for the details.
export { HANDOFF_BRIEF_SCHEMA_VERSION, BRIEF_ID_PATTERN, BRIEF_SECTIONS, SECTION_TITLES, DEFAULT_SECTION_BUDGETS, SOFT_TOKEN_CAP, HARD_TOKEN_CAP, GAP_SLOT_NAMES, GapFillSlotsSchema, GapFillRecordSchema } from './types.js';
export type { GapFillSlots, GapFillRecord, HandoffBrief, BriefSectionId, WorkingMemory, GapFillAbsence, TrailItem, DecisionItem, FileTouch } from './types.js';
export { loadProjectHistory, projectIdOf, DEFAULT_HISTORY_LIMIT } from './history.js';
export type { ProjectHistory, LoadHistoryOptions, TransactionSummary, RelayAnswer, TickEvent, CommitSummary, SkippedRecord } from './history.js';
export type { TickRun, TickTask } from '../records/index.js';
export { buildBrief, resolveWorkingMemory, GAP_FILL_MAX_AGE_MS } from './synthesize.js';
export type { BuildBriefInput, BuildBriefEffects } from './synthesize.js';
export type { CommitFiles, CommitFilesReader } from './files-touched.js';
export { renderBrief, GAP_FILL_PLACEHOLDER } from './render.js';
export type { RenderedBrief, RenderedSection, RenderOptions, SectionBudgets } from './render.js';
export { estimateTokens } from './token-estimate.js';
export { validateBrief } from './validate.js';
export type { ValidationReport, ValidationIssue, ValidationMode } from './validate.js';
export {
  HANDOFFS_DIR,
  checkBriefId,
  generateBriefId,
  makeBriefId,
  writeBriefArtifact,
  writeGapFill,
  readGapFill,
  readLatestGapFill,
  resolveBriefRef,
} from './persist.js';
export { readBriefMarkdown, listBriefIds } from '../records/index.js';
export type { GapFillRead, PersistFailureCode } from './persist.js';
export { loadHandoffConfig, resolveDestination, HANDOFF_CONFIG_FILE } from './config.js';
export type { Destination, HandoffConfig, HandoffProfile, AdapterName } from './config.js';
export { buildClaudeChatArgv, buildCodexChatArgv, planDispatch, runDispatch, agentEnv, terminalSpawner } from './dispatch.js';
export type { AgentCommand, AgentSpawner, SpawnOutcome } from './dispatch.js';
export { stepThresholdNudge, contextUsePct, usageFromClaudeWrapper, INITIAL_NUDGE_STATE, HANDOFF_THRESHOLD_PCT } from './threshold.js';
export type { NudgeState, HandoffPromptPayload, UsageObservation, ClaudeUsage } from './threshold.js';
export { recentRuns, lastTickReport } from './runs.js';
export type { RunListItem, TickReport } from './runs.js';
export { prepareHandoff, saveHandoff, dispatchHandoff, waitForGapFill } from './service.js';
export type { PreparedHandoff, SavedBrief, DispatchedBrief, HandoffOutcome, PrepareOptions, GapSource } from './service.js';
export { handoffEngine } from './engine.js';
export type { HandoffBuildResult, HandoffBuildRequest } from './engine.js';
