// The tick runner's public API: the CLI and the desktop runtime use only what is exported here.
export { runTick, type RunTickOptions, type TickOutcome } from './tick.js';
export { preflightTick, type Preflight, type PreflightMode } from './start.js';
export { previewTick, type TickPreview, type TickAttemptLimits, type BudgetLine } from './preview.js';
export { thisProcessRunner, type RunnerIdentity } from './project.js';
export { initWorkspace, type InitResult } from './workspace.js';
export { tickStatus, type TickStatus, type BudgetStatus } from './status.js';
export { doctor, type DoctorReport, type DoctorCheck } from './doctor.js';
export type { TickEvent, TickEventSink } from './events.js';
export { CODE_MEANING, type TickCode, type StopCode, type BlockedCode, type Verdict } from './codes.js';
export type { TickReport } from './report.js';
export { blastLine } from './blast.js';
export type { ClaudeCallRecord } from './claude.js';
export type { BlockedRecord } from './blocked.js';
export { TICK_CONFIG_FILE } from './config.js';
