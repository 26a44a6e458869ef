// The runtime's event union, declared once. Every event travels in an envelope
// `{ seq, ts, event }`; `seq` increases strictly across the runtime, so a listener that saw seq N
// can ask for everything after N and miss nothing. Renderer-safe: imports zod only.
import { z } from 'zod';
import {
  ApprovalPolicySchema,
  DecisionSchema,
  FailureSchema,
  FileStatSchema,
  PatchReviewSchema,
  PatchSourceSchema,
  RefusalSchema,
  TaskKindSchema,
  TaskResultSchema,
  UsageSchema,
} from './schemas.js';

const task = { taskId: z.string(), projectId: z.string() };
const scope = { taskId: z.string().nullable(), projectId: z.string().nullable() };

const lifecycle = [
  z.strictObject({ type: z.literal('lifecycle.started'), version: z.string() }),
  z.strictObject({ type: z.literal('lifecycle.stopping'), reason: z.string() }),
  z.strictObject({ type: z.literal('lifecycle.stopped') }),
] as const;

const project = [
  z.strictObject({ type: z.literal('project.registered'), projectId: z.string(), root: z.string(), name: z.string(), policy: ApprovalPolicySchema }),
  z.strictObject({ type: z.literal('project.removed'), projectId: z.string() }),
  z.strictObject({ type: z.literal('project.policy-changed'), projectId: z.string(), policy: ApprovalPolicySchema }),
] as const;

const taskEvents = [
  /** position: how many tasks of the project are ahead of this one (0: it starts now). */
  z.strictObject({
    type: z.literal('task.queued'),
    ...task,
    kind: TaskKindSchema,
    title: z.string(),
    position: z.number().int().min(0),
    /** What an ask or review was asked, and of which backend: the run keeps them (the task's later events do not repeat them). */
    prompt: z.string().optional(),
    backend: z.string().optional(),
  }),
  z.strictObject({ type: z.literal('task.started'), ...task, kind: TaskKindSchema, title: z.string() }),
  z.strictObject({ type: z.literal('task.waiting-approval'), ...task, approvalId: z.string(), review: PatchReviewSchema }),
  z.strictObject({
    type: z.literal('task.approval-resolved'),
    ...task,
    approvalId: z.string(),
    decision: DecisionSchema,
    by: z.enum(['user', 'policy', 'cancel', 'shutdown', 'no-active-task']),
  }),
  z.strictObject({ type: z.literal('task.cancelling'), ...task, reason: z.enum(['user', 'shutdown']) }),
  z.strictObject({ type: z.literal('task.completed'), ...task, kind: TaskKindSchema, result: TaskResultSchema }),
  /** A task that threw, was cancelled, or whose engine is missing; `result` holds what the engine still reported. */
  z.strictObject({ type: z.literal('task.failed'), ...task, kind: TaskKindSchema, error: FailureSchema, result: TaskResultSchema.nullable() }),
] as const;

const patch = [
  z.strictObject({ type: z.literal('patch.recovered'), ...task, uuid: z.string(), restored: z.array(z.string()) }),
  z.strictObject({ type: z.literal('patch.parsed'), ...task, uuid: z.string(), operations: z.number().int().min(0) }),
  z.strictObject({ type: z.literal('patch.applied'), ...task, uuid: z.string(), files: z.array(FileStatSchema) }),
  z.strictObject({
    type: z.literal('patch.command'),
    ...task,
    uuid: z.string(),
    which: z.enum(['preCommand', 'postCommand', 'linter']),
    argv: z.array(z.string()),
    exitCode: z.number().int(),
  }),
  z.strictObject({ type: z.literal('patch.committed'), ...task, uuid: z.string(), files: z.array(FileStatSchema) }),
  z.strictObject({ type: z.literal('patch.rolled-back'), ...task, uuid: z.string(), reason: FailureSchema }),
] as const;

/** Answers that reached no project by themselves (an answer without a control block is routed by what it fits). */
const routing = [
  /**
   * An answer went to no project. `unknown-project`: its control block names `projectId`, which is
   * not registered (or not watching). `no-fit`: it fits no project, but is clearly meant for
   * `projectId`; `refusal` says why it does not apply there, with the reply for the assistant.
   */
  z.strictObject({
    type: z.literal('patch.unrouted'),
    source: PatchSourceSchema,
    reason: z.enum(['unknown-project', 'no-fit']),
    projectId: z.string(),
    refusal: RefusalSchema.nullable(),
  }),
  /** An answer fits several projects: the ChooseProject command (`chooseProject` channel) applies it to one. */
  z.strictObject({ type: z.literal('patch.choice-requested'), choiceId: z.string(), source: PatchSourceSchema, projectIds: z.array(z.string()), title: z.string() }),
  /** The choice was made (`taskId`: the patch task it queued), declined, or dropped (too many waiting, shutdown). */
  z.strictObject({
    type: z.literal('patch.choice-resolved'),
    choiceId: z.string(),
    projectId: z.string().nullable(),
    taskId: z.string().nullable(),
    by: z.enum(['user', 'expired', 'shutdown']),
  }),
] as const;

const engines = [
  /** One stage of a tick (orchestrator, builder, judge, verify…); the payload is the tick engine's, JSON only. */
  z.strictObject({ type: z.literal('tick.stage'), ...task, stage: z.string(), payload: z.unknown() }),
  z.strictObject({ type: z.literal('relay.output'), ...task, stream: z.enum(['stdout', 'stderr', 'text']), text: z.string() }),
  z.strictObject({ type: z.literal('metrics.usage'), ...task, usage: UsageSchema }),
] as const;

/** The most run ids a `runs.changed` event lists; more than that is announced as `all`. */
export const MAX_CHANGED_RUN_IDS = 500;

/**
 * History rows changed. The recorder, the one writer of runs, announces every write: a task's
 * row, rows indexed from files of truth another process changed (the CLIs, another window, a
 * crash recovery), and a whole project reindexed (`all`: any of its rows may have changed).
 */
const runEvents = [
  z.strictObject({ type: z.literal('runs.changed'), projectId: z.string(), runIds: z.array(z.string()).max(MAX_CHANGED_RUN_IDS), all: z.boolean() }),
  /** A patch whose apply was interrupted (a crash, a kill) was rolled back by recovery, here or in another process; `runId` is its run. */
  z.strictObject({ type: z.literal('runs.rolled-back'), projectId: z.string(), uuid: z.string(), runId: z.string(), title: z.string(), restored: z.array(z.string()) }),
] as const;

/** Approvals that hold no task: the handoff nudge when an agent session's context passes 90%. */
const approvalEvents = [
  z.strictObject({
    type: z.literal('approval.requested'),
    approvalId: z.string(),
    projectId: z.string(),
    kind: z.literal('handoff-prompt'),
    sessionId: z.string(),
    thresholdPct: z.number(),
    pct: z.number(),
  }),
  z.strictObject({
    type: z.literal('approval.resolved'),
    approvalId: z.string(),
    projectId: z.string(),
    kind: z.literal('handoff-prompt'),
    accepted: z.boolean(),
    by: z.enum(['user', 'shutdown']),
    /** The handoff task an acceptance queued. */
    taskId: z.string().nullable(),
  }),
] as const;

const notices = [
  z.strictObject({ type: z.literal('warning'), code: z.string(), message: z.string(), ...scope }),
  z.strictObject({ type: z.literal('error'), code: z.string(), message: z.string(), ...scope }),
] as const;

export const RuntimeEventSchema = z.discriminatedUnion('type', [...lifecycle, ...project, ...taskEvents, ...patch, ...routing, ...engines, ...runEvents, ...approvalEvents, ...notices]);
export type RuntimeEvent = z.infer<typeof RuntimeEventSchema>;
export type RuntimeEventType = RuntimeEvent['type'];

export const EventEnvelopeSchema = z.strictObject({
  seq: z.number().int().positive(),
  /** Milliseconds since the Unix epoch, from the runtime's clock. */
  ts: z.number().int(),
  event: RuntimeEventSchema,
});
export type EventEnvelope = z.infer<typeof EventEnvelopeSchema>;

/** The family of an event: the part of its type before the first dot. */
export function eventFamily(type: RuntimeEventType): 'lifecycle' | 'project' | 'task' | 'patch' | 'tick' | 'relay' | 'metrics' | 'runs' | 'approval' | 'warning' | 'error' {
  return type.split('.')[0] as ReturnType<typeof eventFamily>;
}
