// Plain data shared by the engine, the host, the preload and the renderer. Declared once as zod
// schemas; the TypeScript types are inferred from them. Renderer-safe: imports zod only.
import { z } from 'zod';
import { RUN_KINDS, RUN_STATUSES } from './facts.js';

/** A project id as relay.config.json spells it (also the key answers are routed by). */
export const ProjectIdSchema = z.string().trim().min(1).max(200);

/** How a project's approval requests are resolved: ask a person, approve at once, or approve at once until a time. */
export const ApprovalPolicySchema = z.discriminatedUnion('mode', [
  z.strictObject({ mode: z.literal('ask') }),
  z.strictObject({ mode: z.literal('auto') }),
  z.strictObject({ mode: z.literal('until'), until: z.iso.datetime({ offset: true }) }),
]);
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;

export const PatchSourceSchema = z.enum(['clipboard', 'paste', 'file']);
export type PatchSource = z.infer<typeof PatchSourceSchema>;

/** A command as a config holds it: a string split like a shell would (never run by one) or an argv array. */
export const CommandLineSchema = z.union([z.string().max(2000), z.array(z.string().max(2000)).min(1).max(100)]);

export const ProjectSettingsSchema = z.strictObject({
  approvalPolicy: ApprovalPolicySchema,
  /** Whether the desktop app's clipboard watcher applies answers for this project. */
  watching: z.boolean(),
});
export type ProjectSettings = z.infer<typeof ProjectSettingsSchema>;

/** Settings of the desktop app itself (not of one project). */
export const AppSettingsSchema = z.strictObject({
  /** The clipboard watcher's master switch (each project also has its own `watching`). */
  watchClipboard: z.boolean(),
  clipboardPollIntervalMs: z.number().int().min(100).max(60_000),
  /** Start Relay Desk (in the tray) when the user logs in. */
  autoStart: z.boolean(),
  notifications: z.boolean(),
  /** Absolute paths of agent CLIs; empty: found through the login shell's PATH. */
  agentPaths: z.strictObject({
    claude: z.string().max(4096),
    codex: z.string().max(4096),
    gemini: z.string().max(4096),
  }),
});
export type AppSettings = z.infer<typeof AppSettingsSchema>;

export const DEFAULT_APP_SETTINGS: AppSettings = {
  watchClipboard: true,
  clipboardPollIntervalMs: 500,
  autoStart: false,
  notifications: true,
  agentPaths: { claude: '', codex: '', gemini: '' },
};

/** A registered project as the UI sees it. */
export const ProjectSchema = z.strictObject({
  projectId: ProjectIdSchema,
  name: z.string(),
  root: z.string(),
  settings: ProjectSettingsSchema,
  /** `patch.linter` from relay.config.json (null: none configured or the file is unreadable). */
  linter: CommandLineSchema.nullable(),
  /** Why relay.config.json could not be read, when it could not. */
  configError: z.string().nullable(),
  registeredAt: z.string(),
});
export type Project = z.infer<typeof ProjectSchema>;

/** The lines of the current file most like what a refused edit expected (engine/patch/closest.ts). */
export const ClosestLinesSchema = z.strictObject({
  /** 1-based line number of the first line. */
  startLine: z.number().int().min(1),
  lines: z.array(z.string()),
  /** 0…1: how alike the expected lines and these are. */
  similarity: z.number().min(0).max(1),
});

/** The block of an answer a refusal is about: its format, its line in the answer, its file. */
export const AnswerBlockSchema = z.strictObject({ format: z.string(), line: z.number().int().min(0), path: z.string().optional() });

/**
 * A failure as data. A refused answer adds what fixes it: `reply` (ready-to-paste text for the
 * assistant, in its own format), `closest` (the file's nearest lines) and `block`.
 */
export const FailureSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  path: z.string().optional(),
  reply: z.string().optional(),
  closest: ClosestLinesSchema.optional(),
  block: AnswerBlockSchema.optional(),
});
export type FailureData = z.infer<typeof FailureSchema>;

/**
 * Why an answer was refused: a failure whose optional reply, closest lines and block say what
 * it takes to act on it (refusals not about the answer's content, a busy project, have none).
 */
export const RefusalSchema = FailureSchema;
export type RefusalData = FailureData;

export const FileStatSchema = z.strictObject({
  path: z.string(),
  change: z.enum(['create', 'modify', 'delete']),
  added: z.number().int().min(0),
  removed: z.number().int().min(0),
});

export const FileDiffSchema = FileStatSchema.extend({ diff: z.string() });

export const LinterVerdictSchema = z.strictObject({
  errorsBefore: z.number().int(),
  errorsAfter: z.number().int(),
  added: z.number().int().min(0),
  output: z.string(),
});

/** What a person sees when a patch waits for approval. */
export const PatchReviewSchema = z.strictObject({
  uuid: z.string(),
  projectId: z.string(),
  gitCommitMsg: z.string().nullable(),
  promptSummary: z.string().nullable(),
  reasoning: z.array(z.string()),
  warnings: z.array(z.string()),
  files: z.array(FileDiffSchema),
  linter: LinterVerdictSchema.nullable(),
  /** executes-patched-code: the patch changes files a configured command runs; nothing has run yet. */
  reason: z.enum(['manual-mode', 'linter-errors', 'executes-patched-code']),
  /** With executes-patched-code: those files, and why each counts as code. */
  executes: z.array(z.strictObject({ path: z.string(), why: z.string() })).optional(),
});
export type PatchReview = z.infer<typeof PatchReviewSchema>;

/** A decision about a pending approval. Approve may keep only some of the paths (the rest roll back). */
export const DecisionSchema = z.discriminatedUnion('approve', [
  z.strictObject({ approve: z.literal(true), keep: z.array(z.string().min(1)).max(10_000).optional() }),
  z.strictObject({ approve: z.literal(false), reason: z.string().max(2000).optional() }),
]);
export type DecisionData = z.infer<typeof DecisionSchema>;

export const TaskKindSchema = z.enum(['patch', 'revert', 'tick', 'ask', 'review', 'handoff', 'commit']);
export type TaskKind = z.infer<typeof TaskKindSchema>;

export const RunKindSchema = z.enum(RUN_KINDS);
export type RunKind = z.infer<typeof RunKindSchema>;

/** Where a run is in its life. The outcome itself is `verdict` + `code`. */
export const RunStatusSchema = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatusSchema>;

/** A patch transaction as the engine reports it at the end of a task. */
export const PatchResultSchema = z.strictObject({
  status: z.enum(['applied', 'skipped', 'rejected', 'rolled-back']),
  uuid: z.string().nullable(),
  files: z.array(FileStatSchema),
  rolledBack: z.array(z.string()),
  approvedBy: z.enum(['auto', 'user']).nullable(),
  warnings: z.array(z.string()),
  error: RefusalSchema.nullable(),
  /** The answer's text when it was not applied (refused or rolled back), so its run keeps it for a retry. */
  answer: z.string().optional(),
});
export type PatchResult = z.infer<typeof PatchResultSchema>;

export const TickVerdictSchema = z.enum(['success', 'stop', 'blocked']);

/** What a tick engine reports when a tick ends (the report itself stays in relais/). */
export const TickResultSchema = z.strictObject({
  runId: z.string(),
  verdict: TickVerdictSchema,
  code: z.string(),
  summary: z.string(),
  /** "<files> files, +<a>/-<d>, <n> new" when the tick got as far as judging a change. */
  blastRadius: z.string().nullable().optional(),
});
export type TickResult = z.infer<typeof TickResultSchema>;

/** A SUCCESS tick committed by "Approve & commit" (relais/history/<run_id>/commit.json). */
export const TickCommitSchema = z.strictObject({
  runId: z.string(),
  commit: z.string(),
  parent: z.string(),
  message: z.string(),
  paths: z.array(z.string()),
  committedAt: z.string(),
});
export type TickCommit = z.infer<typeof TickCommitSchema>;

export const UsageSchema = z.strictObject({
  inputTokens: z.number().int().min(0),
  outputTokens: z.number().int().min(0),
  costUsd: z.number().min(0).nullable(),
  /** The agent session these figures belong to, when the agent reports one (Claude does). */
  sessionId: z.string().optional(),
  /** Tokens in that session's context now, and the model's window: what the handoff nudge watches. */
  contextTokens: z.number().int().min(0).optional(),
  contextWindow: z.number().int().positive().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** What an ask or review reports: the other agent's answer. */
export const RelayResultSchema = z.strictObject({
  runId: z.string(),
  backend: z.string(),
  text: z.string(),
  usage: UsageSchema.nullable(),
});
export type RelayResult = z.infer<typeof RelayResultSchema>;

/** What building a handoff brief reports: where the brief was written. */
export const HandoffResultSchema = z.strictObject({
  briefId: z.string(),
  /** Project-relative path of the written brief. */
  path: z.string(),
  tokens: z.number().int().min(0).nullable(),
  warnings: z.array(z.string()),
});
export type HandoffResult = z.infer<typeof HandoffResultSchema>;

/** The result of a finished task, by kind. */
export const TaskResultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('patch'), patch: PatchResultSchema }),
  z.strictObject({ kind: z.literal('revert'), patch: PatchResultSchema }),
  z.strictObject({ kind: z.literal('tick'), tick: TickResultSchema }),
  z.strictObject({ kind: z.literal('ask'), relay: RelayResultSchema }),
  z.strictObject({ kind: z.literal('review'), relay: RelayResultSchema }),
  z.strictObject({ kind: z.literal('handoff'), handoff: HandoffResultSchema }),
  z.strictObject({ kind: z.literal('commit'), commit: TickCommitSchema }),
]);
export type TaskResult = z.infer<typeof TaskResultSchema>;
