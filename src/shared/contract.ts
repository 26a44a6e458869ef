// The IPC contract: every channel between the UI and the host, declared once with a zod schema
// for its input and its output. Electron's ipcMain binding, the `relay ui` WebSocket binding,
// the preload and the renderer all derive from this table. Renderer-safe: imports zod only.
import { z } from 'zod';
import { EventEnvelopeSchema, type EventEnvelope } from './events.js';
import type { IpcError } from './transport-errors.js';
import {
  AppSettingsSchema,
  ApprovalPolicySchema,
  CommandLineSchema,
  FailureSchema,
  FileDiffSchema,
  PatchReviewSchema,
  PatchSourceSchema,
  ProjectIdSchema,
  ProjectSchema,
  RunKindSchema,
  RunStatusSchema,
  TaskKindSchema,
  TickCommitSchema,
  UsageSchema,
} from './schemas.js';

const Empty = z.strictObject({});
/** An absolute path (POSIX or Windows) or empty; relative paths would depend on the app's cwd. */
const AbsoluteOrEmpty = z
  .string()
  .max(4096)
  .refine((p) => p === '' || p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'must be an absolute path or empty');
const ById = z.strictObject({ projectId: ProjectIdSchema });
const Id = z.string().min(1).max(300);

/** What a command that starts a task returns at once; the outcome arrives as events. */
export const TaskTicketSchema = z.strictObject({
  taskId: z.string(),
  projectId: z.string(),
  /** Tasks of the same project ahead of this one (0: it started at once). */
  position: z.number().int().min(0),
});
export type TaskTicket = z.infer<typeof TaskTicketSchema>;

/** One row of the run history. */
export const RunSchema = z.strictObject({
  id: z.string(),
  projectId: z.string(),
  kind: RunKindSchema,
  status: RunStatusSchema,
  /** Kind-specific outcome: approved / rejected / reverted / rolled-back / skipped for patches, success / stop / blocked for ticks. */
  verdict: z.string().nullable(),
  code: z.string().nullable(),
  title: z.string(),
  summary: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  /** Project-relative path of the file of truth (null for runs only the app knows). */
  file: z.string().nullable(),
  /** `file`: rebuilt from the project's files by reindex; `app`: known only to this app's store. */
  origin: z.enum(['file', 'app']),
  taskId: z.string().nullable(),
});
export type Run = z.infer<typeof RunSchema>;

export const PatchStateSchema = z.enum(['pending', 'approved', 'rejected', 'rolled-back', 'reverted', 'skipped']);

export const PatchDetailSchema = z.strictObject({
  kind: z.literal('patch'),
  state: PatchStateSchema,
  uuid: z.string(),
  source: z.string().nullable(),
  reasoning: z.array(z.string()),
  files: z.array(FileDiffSchema),
  gitCommitMsg: z.string().nullable(),
  promptSummary: z.string().nullable(),
  linter: z.strictObject({ errorsBefore: z.number(), errorsAfter: z.number(), output: z.string() }).nullable(),
  revertOf: z.string().nullable(),
  revertedBy: z.string().nullable(),
  warnings: z.array(z.string()),
  /** Why it was not applied, with the reply for the assistant, the closest lines and the block when it was refused. */
  error: FailureSchema.nullable(),
  /**
   * The answer's text, kept for a run that changed nothing (refused, rejected, rolled back), so
   * it can be applied again once the file is fixed ("Retry"). Null when it was not kept.
   */
  answer: z.string().max(4_000_000).nullable().default(null),
});
export type PatchDetail = z.infer<typeof PatchDetailSchema>;

export const TickDetailSchema = z.strictObject({
  kind: z.literal('tick'),
  runId: z.string(),
  /** relais/history/<run_id>/report.json as written (REPORT.json is the tick's source of truth). */
  report: z.unknown(),
  reportMarkdown: z.string().nullable(),
  meta: z.unknown(),
  /** relais/STATE.json now: the budget counters. */
  state: z.unknown(),
  /** relais/history/<run_id>/verify.log (the verification commands' output), its tail when very long. */
  verifyLog: z.string().nullable(),
  /** relais/history/<run_id>/diff.patch (the tick's git diff), its head when very long. */
  diffPatch: z.string().nullable(),
  /** The per-milestone caps of relais.config.json, keyed like STATE.json's counters; null when the config cannot be read. */
  budgetLimits: z
    .strictObject({
      limits: z.strictObject({
        ticks: z.number(),
        orchestrator_calls: z.number(),
        builder_calls: z.number(),
        verify_runs: z.number(),
        estimated_cost_usd: z.number(),
      }),
      warnAtFraction: z.number(),
    })
    .nullable(),
  /** The commit "Approve & commit" made of this tick (history/<run_id>/commit.json), if any. */
  commit: TickCommitSchema.nullable(),
  /**
   * "Approve & commit", offered for the project's latest SUCCESS tick while HEAD is where the tick
   * left it and the tick is not committed yet; `problem` says why committing would be refused now.
   */
  commitOffer: z
    .strictObject({ suggestedMessage: z.string(), paths: z.array(z.string()), problem: z.strictObject({ code: z.string(), message: z.string() }).nullable() })
    .nullable(),
});
export type TickDetail = z.infer<typeof TickDetailSchema>;

export const RelayDetailSchema = z.strictObject({
  kind: z.enum(['relay', 'review']),
  backend: z.string().nullable(),
  prompt: z.string().nullable(),
  text: z.string(),
  usage: UsageSchema.nullable(),
  error: FailureSchema.nullable(),
});
export type RelayDetail = z.infer<typeof RelayDetailSchema>;

export const HandoffDetailSchema = z.strictObject({
  kind: z.literal('handoff'),
  briefId: z.string().nullable(),
  path: z.string().nullable(),
  markdown: z.string().nullable(),
  warnings: z.array(z.string()),
  error: FailureSchema.nullable(),
});

export const RunDetailSchema = z.strictObject({
  run: RunSchema,
  detail: z.discriminatedUnion('kind', [PatchDetailSchema, TickDetailSchema, RelayDetailSchema, HandoffDetailSchema]).nullable(),
  /** Why the detail could not be read from its file of truth, when it could not. */
  detailError: z.string().nullable(),
  /** The runtime events of the task that made the run, oldest first (empty for runs made with the CLI). */
  events: z.array(EventEnvelopeSchema),
});
export type RunDetail = z.infer<typeof RunDetailSchema>;

export const TaskInfoSchema = z.strictObject({
  taskId: z.string(),
  projectId: z.string(),
  kind: TaskKindSchema,
  title: z.string(),
  state: z.enum(['queued', 'running', 'waiting-approval', 'cancelling']),
  queuedAt: z.number().int(),
  startedAt: z.number().int().nullable(),
});
export type TaskInfo = z.infer<typeof TaskInfoSchema>;

/** What the runtime is doing now: enough for a window opened late to show pending approvals. */
export const RuntimeStateSchema = z.strictObject({
  stopped: z.boolean(),
  /** The seq this runtime counted from when it started: a window tells a restarted runtime by it. */
  startSeq: z.number().int().min(0),
  lastSeq: z.number().int().min(0),
  projects: z.array(
    z.strictObject({
      projectId: z.string(),
      policy: ApprovalPolicySchema,
      active: TaskInfoSchema.nullable(),
      queued: z.array(TaskInfoSchema),
      approvals: z.array(z.strictObject({ approvalId: z.string(), taskId: z.string(), review: PatchReviewSchema })),
    }),
  ),
  /** Approvals that hold no task: handoff prompts (approve = write a handoff brief, reject = nothing). */
  prompts: z.array(
    z.strictObject({ approvalId: z.string(), projectId: z.string(), kind: z.literal('handoff-prompt'), sessionId: z.string(), thresholdPct: z.number(), pct: z.number() }),
  ),
  /** Answers that fit several projects, waiting for a person to pick one (`chooseProject`). */
  choices: z.array(
    z.strictObject({ choiceId: z.string(), source: PatchSourceSchema, projectIds: z.array(z.string()), title: z.string(), requestedAt: z.number().int() }),
  ),
});
export type RuntimeState = z.infer<typeof RuntimeStateSchema>;

export const ReindexSummarySchema = z.strictObject({
  projectId: z.string(),
  patches: z.number().int().min(0),
  ticks: z.number().int().min(0),
  /** Rows rebuilt from files that no longer exist and were dropped. */
  removed: z.number().int().min(0),
  skipped: z.array(z.strictObject({ file: z.string(), reason: z.string() })),
});
export type ReindexSummary = z.infer<typeof ReindexSummarySchema>;

/** One finding of the handoff brief's validation (src/engine/handoff/validate.ts); the matched secret itself is never included. */
export const HandoffIssueSchema = z.strictObject({
  code: z.string(),
  message: z.string(),
  /** The secret pattern that matched (SECRET_DETECTED only). */
  pattern: z.string().nullable(),
  line: z.number().int().nullable(),
  section: z.string().nullable(),
});

export const HandoffValidationSchema = z.strictObject({
  mode: z.enum(['strict', 'permissive']),
  /** True when nothing blocks the brief in this mode. */
  ok: z.boolean(),
  tokens: z.number().int().min(0),
  errors: z.array(HandoffIssueSchema),
  warnings: z.array(HandoffIssueSchema),
});
export type HandoffValidation = z.infer<typeof HandoffValidationSchema>;

/** A brief built from the project's history now, validated both ways; nothing is written. */
export const HandoffPreviewSchema = z.strictObject({
  projectId: z.string(),
  /** The id this preview was built under (saving builds again, under a new id unless a gap-fill names one). */
  briefId: z.string(),
  target: z.string().nullable(),
  /** The brief; null when it holds secret-looking text, which is never shown (as `relay handoff` does). */
  markdown: z.string().nullable(),
  tokens: z.number().int().min(0),
  softCap: z.number().int(),
  hardCap: z.number().int(),
  sections: z.array(
    z.strictObject({ id: z.string(), title: z.string(), budget: z.number().int(), tokens: z.number().int(), truncated: z.boolean(), omitted: z.number().int().min(0) }),
  ),
  /** What dispatching (`relay handoff --to`) checks: required sections, the hard cap, secrets. */
  strict: HandoffValidationSchema,
  /** What saving checks: secrets only (the soft cap is a warning). */
  permissive: HandoffValidationSchema,
  workingMemory: z.strictObject({
    status: z.enum(['provided', 'missing']),
    /** Why it is missing (not-provided, stale, invalid…). */
    reason: z.string().nullable(),
    source: z.enum(['pending', 'resume', 'stale', 'none']),
    fromBriefId: z.string().nullable(),
  }),
});
export type HandoffPreview = z.infer<typeof HandoffPreviewSchema>;

/** What a tick about to start may spend and whether its preflight (the one `relais run` uses) lets it start: the Run tick confirmation. */
export const TickPreviewSchema = z.strictObject({
  preflight: z.discriminatedUnion('ready', [
    z.strictObject({ ready: z.literal(true), warnings: z.array(z.string()) }),
    z.strictObject({ ready: z.literal(false), code: z.string(), reason: z.string(), remediation: z.string(), details: z.array(z.string()) }),
  ]),
  /** relais.config.json's caps for one tick; null when the config cannot be read. */
  limits: z
    .strictObject({
      orchestratorCalls: z.number(),
      orchestratorMaxTurns: z.number(),
      orchestratorMaxBudgetUsd: z.number(),
      builderCalls: z.number(),
      builderMaxTurns: z.number(),
      builderMaxBudgetUsd: z.number(),
      verifyRuns: z.number(),
      worstCaseUsd: z.number(),
      maxTickSeconds: z.number(),
    })
    .nullable(),
  budget: z
    .strictObject({
      milestoneId: z.string(),
      lines: z.array(z.strictObject({ counter: z.enum(['ticks', 'orchestrator_calls', 'builder_calls', 'verify_runs', 'estimated_cost_usd']), used: z.number(), limit: z.number(), left: z.number() })),
    })
    .nullable(),
  today: z.strictObject({ ticks: z.number().int().min(0), costUsd: z.number().min(0) }),
  recent: z.strictObject({ ticks: z.number().int().min(0), medianCostUsd: z.number().min(0).nullable() }),
});
export type TickPreviewData = z.infer<typeof TickPreviewSchema>;

function channel<I extends z.ZodType, O extends z.ZodType>(input: I, output: O): { readonly input: I; readonly output: O } {
  return { input, output };
}

/**
 * Every channel, once. The key is the function name on `window.relay` and the suffix of the
 * Electron IPC channel (`relay:<key>`).
 */
export const contract = {
  listProjects: channel(Empty, z.array(ProjectSchema)),
  registerProject: channel(
    z.strictObject({
      /** Absolute path of the project folder. */
      root: z.string().min(1).max(4096),
      /** Used only when the folder has no relay.config.json yet (default: the folder name). */
      projectId: ProjectIdSchema.optional(),
      name: z.string().max(200).optional(),
    }),
    ProjectSchema,
  ),
  removeProject: channel(ById, z.strictObject({ projectId: z.string() })),
  /** The register form's path field, checked as it is typed: nothing is changed. */
  checkFolder: channel(
    z.strictObject({ path: z.string().max(4096) }),
    z.strictObject({
      root: z.string().nullable(),
      problem: z.strictObject({ code: z.string(), message: z.string() }).nullable(),
      projectId: z.string().nullable(),
      registeredAs: z.string().nullable(),
      gitRepository: z.boolean(),
    }),
  ),
  /** The system's folder picker (desktop app only; FOLDER_PICKER_UNAVAILABLE in a browser). Null: cancelled. */
  pickFolder: channel(Empty, z.strictObject({ path: z.string().nullable() })),
  /** What this window's host can do beyond the contract's basics (the browser has no folder picker). */
  getHostInfo: channel(Empty, z.strictObject({ folderPicker: z.boolean() })),
  updateProjectSettings: channel(
    z.strictObject({
      projectId: ProjectIdSchema,
      approvalPolicy: ApprovalPolicySchema.optional(),
      /** Written to relay.config.json `patch.linter`; null removes it. */
      linter: CommandLineSchema.nullable().optional(),
      watching: z.boolean().optional(),
    }),
    ProjectSchema,
  ),
  getSystemPrompt: channel(ById, z.strictObject({ projectId: z.string(), prompt: z.string() })),
  getAppSettings: channel(Empty, AppSettingsSchema),
  updateAppSettings: channel(
    z.strictObject({
      watchClipboard: z.boolean().optional(),
      clipboardPollIntervalMs: AppSettingsSchema.shape.clipboardPollIntervalMs.optional(),
      autoStart: z.boolean().optional(),
      notifications: z.boolean().optional(),
      agentPaths: z
        .strictObject({
          claude: AbsoluteOrEmpty.optional(),
          codex: AbsoluteOrEmpty.optional(),
          gemini: AbsoluteOrEmpty.optional(),
        })
        .optional(),
    }),
    AppSettingsSchema,
  ),
  reindexProject: channel(ById, ReindexSummarySchema),

  listRuns: channel(
    z.strictObject({
      projectId: ProjectIdSchema.optional(),
      kind: RunKindSchema.optional(),
      status: RunStatusSchema.optional(),
      limit: z.number().int().min(1).max(500).default(100),
      /** `nextCursor` of the previous page. */
      cursor: z.string().max(1000).optional(),
    }),
    z.strictObject({ runs: z.array(RunSchema), nextCursor: z.string().nullable() }),
  ),
  getRun: channel(z.strictObject({ runId: Id }), RunDetailSchema),

  applyPatch: channel(
    z.strictObject({
      text: z.string().min(1).max(4_000_000),
      source: PatchSourceSchema,
      /**
       * The project to apply to. Omitted: the one the answer's control block names, or for an
       * answer without one, the one project it fits (src/engine/patch/route.ts); a clipboard
       * answer is routed among the projects whose watching is on.
       */
      projectId: ProjectIdSchema.optional(),
    }),
    TaskTicketSchema,
  ),
  /** Applies an answer that fit several projects to the one picked (projectId null: apply it nowhere). */
  chooseProject: channel(
    z.strictObject({ choiceId: Id, projectId: ProjectIdSchema.nullable() }),
    z.strictObject({ choiceId: z.string(), taskId: z.string().nullable() }),
  ),
  approve: channel(
    z.strictObject({ approvalId: Id, keep: z.array(z.string().min(1)).max(10_000).optional() }),
    z.strictObject({ approvalId: z.string(), taskId: z.string() }),
  ),
  reject: channel(
    z.strictObject({ approvalId: Id, reason: z.string().max(2000).optional() }),
    z.strictObject({ approvalId: z.string(), taskId: z.string() }),
  ),
  revert: channel(z.strictObject({ projectId: ProjectIdSchema, transaction: Id }), TaskTicketSchema),
  /** "Retry after I edit the file": applies a refused or rejected run's kept answer to its project again, as a new task. */
  retryAnswer: channel(z.strictObject({ runId: Id }), TaskTicketSchema),
  /** The Run tick confirmation: the preflight's verdict now and what the tick may spend. Nothing is changed. */
  previewTick: channel(ById, TickPreviewSchema),
  runTick: channel(ById, TaskTicketSchema),
  /** "Approve & commit" a SUCCESS tick: commits exactly its touched paths, queued behind the project's active task. */
  commitTick: channel(
    z.strictObject({
      projectId: ProjectIdSchema,
      /** The tick's run id (its history folder's name), checked before any path is built from it. */
      runId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be a tick run id'),
      message: z.string().trim().min(1).max(5000),
    }),
    TaskTicketSchema,
  ),
  ask: channel(
    z.strictObject({
      projectId: ProjectIdSchema,
      prompt: z.string().min(1).max(1_000_000),
      backend: z.string().max(100).optional(),
      includeDiff: z.boolean().default(false),
      context: z.string().max(1_000_000).optional(),
    }),
    TaskTicketSchema,
  ),
  review: channel(
    z.strictObject({
      projectId: ProjectIdSchema,
      backend: z.string().max(100).optional(),
      base: z.string().max(200).optional(),
      prompt: z.string().max(1_000_000).optional(),
    }),
    TaskTicketSchema,
  ),
  /** Builds the brief `buildHandoff` would save, without saving it: the window's "Hand off" preview. */
  previewHandoff: channel(z.strictObject({ projectId: ProjectIdSchema, target: z.string().max(100).optional() }), HandoffPreviewSchema),
  buildHandoff: channel(z.strictObject({ projectId: ProjectIdSchema, target: z.string().max(100).optional() }), TaskTicketSchema),
  /**
   * Opens the user's terminal running `relay handoff --resume <briefId> --to <target>` in the
   * project folder: the CLI dispatches (an interactive agent session needs a terminal).
   */
  startHandoffInTerminal: channel(
    z.strictObject({
      projectId: ProjectIdSchema,
      /** A saved brief's id (the pattern of src/engine/handoff/types.ts BRIEF_ID_PATTERN). */
      briefId: z.string().max(80).regex(/^brief-[0-9]+-[a-z0-9]+$/),
      /** An adapter or a profile of relay.handoff.json (the profile-name pattern of src/engine/handoff/config.ts). */
      target: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/),
    }),
    z.strictObject({ launched: z.string() }),
  ),
  cancelTask: channel(z.strictObject({ taskId: Id }), z.strictObject({ taskId: z.string(), state: z.enum(['cancelling', 'removed']) })),
  getRuntimeState: channel(Empty, RuntimeStateSchema),

  /** Events after `since` still held in memory, for a window that (re)connects; live ones arrive through onEvent. */
  replayEvents: channel(
    z.strictObject({ since: z.number().int().min(0).default(0) }),
    z.strictObject({ events: z.array(EventEnvelopeSchema), complete: z.boolean() }),
  ),
} as const;

export type Contract = typeof contract;
export type ChannelName = keyof Contract;
/** What a caller passes (defaults not yet applied). */
export type ChannelInput<C extends ChannelName> = z.input<Contract[C]['input']>;
/** What a handler receives (validated, defaults applied). */
export type ChannelArgs<C extends ChannelName> = z.output<Contract[C]['input']>;
export type ChannelOutput<C extends ChannelName> = z.output<Contract[C]['output']>;

/**
 * How every reply crosses a process boundary: errors are data, never thrown exceptions. `Code`
 * narrows the error codes where they are known (a transport's own refusals, an engine's union).
 */
export type IpcReply<T, Code extends string = string> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: IpcError<Code> };

/** Error codes the transport itself produces (handlers add their own, e.g. UNKNOWN_PROJECT). */
export { TRANSPORT_ERRORS, type HttpRefusalCode, type IpcError, type TransportErrorCode } from './transport-errors.js';

/** The envelope schema for events pushed to listeners. */
export { EventEnvelopeSchema };
export type { EventEnvelope };

/** True when `name` is a channel of the contract. */
export function isChannelName(name: string): name is ChannelName {
  return Object.prototype.hasOwnProperty.call(contract, name);
}
