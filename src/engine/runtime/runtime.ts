// The runtime actor: the one place every action of the app goes through. Commands come in
// through `send`, which handles each one to completion before returning (JavaScript runs one
// thing at a time, so this is the actor's mailbox); outcomes go out as sequenced events. Each
// project has one active task and an in-order queue; projects run side by side.
import { randomUUID } from 'node:crypto';
import type { RuntimeState, TaskInfo } from '../../shared/contract.js';
import type { EventEnvelope, RuntimeEvent } from '../../shared/events.js';
import type { ApprovalPolicy, DecisionData, FailureData, PatchReview, PatchSource } from '../../shared/schemas.js';
import { existsIn } from '../patch/check.js';
import { takeAnswer, type IncomingAnswer } from '../patch/incoming.js';
import { OwnReplies } from '../patch/own-replies.js';
import { routeAnswer, takeForRouting, type RouteTarget } from '../patch/route.js';
import { assertNever, fail, ok, type Result } from '../result.js';
import type { CommandReplies, CommandType, RuntimeCommand, TaskSettlement } from './commands.js';
import { realPatchEngine, type Engines } from './engines.js';
import { missingEngine, runTask } from './run-task.js';
import { ApprovalBook } from './approvals.js';
import { PromptBook } from './prompts.js';
import { ChoiceBook } from './choices.js';
import { toRefusalData } from './patch-task.js';
import { EventLog, type EnvelopeListener } from './event-log.js';
import { DEFAULT_POLICY, effectivePolicy } from './policy.js';
import type { TaskContext, TaskEnd, TaskSpec } from './task-context.js';

export interface RuntimeOptions {
  /** Engines to drive; the real patch engine is used when none is given. */
  readonly engines?: Partial<Engines>;
  /** Milliseconds since the epoch; stamps events and decides `until` policies. */
  readonly clock?: () => number;
  /** Ids of tasks and approvals. */
  readonly newId?: () => string;
  /** Seq of the last event of a previous run (from the store), so seq keeps increasing. */
  readonly startSeq?: number;
  /** Recent events kept in memory for late subscribers. */
  readonly eventCapacity?: number;
  /** How long Shutdown waits for cancelled tasks to end before giving up on them. */
  readonly shutdownGraceMs?: number;
  /** Timeout of each pre/post/linter command of a patch. */
  readonly patchCommandTimeoutMs?: number;
  readonly version?: string;
  /** Told when an event listener throws. */
  readonly onListenerError?: (error: unknown) => void;
}

export interface Runtime {
  /** Handles one command now; the reply says whether it was accepted (tasks report through events). */
  send<T extends CommandType>(command: Extract<RuntimeCommand, { readonly type: T }>): Result<CommandReplies[T]>;
  /** Listens to events (after replaying held events newer than `since`, when given). */
  subscribe(listener: EnvelopeListener, since?: number): () => void;
  /** Held events newer than `since`. */
  replay(since: number): { events: EventEnvelope[]; complete: boolean };
  /** Projects, active and queued tasks, and pending approvals. */
  state(): RuntimeState;
  /** Resolves when the task ends; null for an id the runtime does not know (or no longer remembers). */
  waitForTask(taskId: string): Promise<TaskSettlement | null>;
  /** Sends Shutdown and waits until every task has ended. */
  shutdown(): Promise<void>;
  readonly lastSeq: number;
}

interface Task {
  readonly id: string;
  readonly projectId: string;
  readonly title: string;
  readonly spec: TaskSpec;
  readonly queuedAt: number;
  readonly controller: AbortController;
  readonly settled: Deferred<TaskSettlement>;
  state: TaskInfo['state'];
  startedAt: number | null;
  cancelReason: 'user' | 'shutdown' | null;
}

interface ProjectSlot {
  readonly projectId: string;
  root: string;
  name: string;
  policy: ApprovalPolicy;
  active: Task | null;
  readonly queue: Task[];
}

interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const REMEMBERED_SETTLEMENTS = 2000;

/** Starts a runtime; it emits `lifecycle.started` at once. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  return new RuntimeActor(options);
}

class RuntimeActor implements Runtime {
  private readonly clock: () => number;
  private readonly newId: () => string;
  private readonly engines: Engines;
  private readonly log: EventLog;
  private readonly projects = new Map<string, ProjectSlot>();
  private readonly tasks = new Map<string, Task>();
  private readonly approvals: ApprovalBook;
  private readonly prompts: PromptBook;
  private readonly choices: ChoiceBook;
  /** Replies offered to the person: copied back to the clipboard, they are not answers. */
  private readonly replies = new OwnReplies();
  private readonly settlements = new Map<string, TaskSettlement>();
  private stopping: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly options: RuntimeOptions) {
    this.clock = options.clock ?? Date.now;
    this.newId = options.newId ?? randomUUID;
    this.engines = { ...options.engines, patch: options.engines?.patch ?? realPatchEngine };
    this.approvals = new ApprovalBook((event) => this.emit(event));
    this.prompts = new PromptBook((event) => this.emit(event), this.newId);
    this.choices = new ChoiceBook((event) => this.emit(event));
    this.log = new EventLog({
      clock: this.clock,
      ...(options.startSeq !== undefined ? { startSeq: options.startSeq } : {}),
      ...(options.eventCapacity !== undefined ? { capacity: options.eventCapacity } : {}),
      ...(options.onListenerError ? { onListenerError: options.onListenerError } : {}),
    });
    this.emit({ type: 'lifecycle.started', version: options.version ?? '0.1.0' });
  }

  get lastSeq(): number {
    return this.log.lastSeq;
  }

  send<T extends CommandType>(command: Extract<RuntimeCommand, { readonly type: T }>): Result<CommandReplies[T]> {
    return this.handle(command) as Result<CommandReplies[T]>;
  }

  subscribe(listener: EnvelopeListener, since?: number): () => void {
    return this.log.subscribe(listener, since);
  }

  replay(since: number): { events: EventEnvelope[]; complete: boolean } {
    return this.log.since(since);
  }

  shutdown(): Promise<void> {
    return this.beginShutdown();
  }

  waitForTask(taskId: string): Promise<TaskSettlement | null> {
    const live = this.tasks.get(taskId);
    if (live) return live.settled.promise;
    return Promise.resolve(this.settlements.get(taskId) ?? null);
  }

  state(): RuntimeState {
    return {
      stopped: this.stopped,
      startSeq: this.log.startSeq,
      lastSeq: this.log.lastSeq,
      projects: [...this.projects.values()].map((slot) => ({
        projectId: slot.projectId,
        policy: slot.policy,
        active: slot.active ? this.info(slot.active) : null,
        queued: slot.queue.map((t) => this.info(t)),
        approvals: this.approvals.forProject(slot.projectId),
      })),
      prompts: this.prompts.list(),
      choices: this.choices.list(),
    };
  }

  private info(task: Task): TaskInfo {
    return { taskId: task.id, projectId: task.projectId, kind: task.spec.kind, title: task.title, state: task.state, queuedAt: task.queuedAt, startedAt: task.startedAt };
  }

  private emit(event: RuntimeEvent): void {
    this.log.emit(event);
    if (event.type === 'metrics.usage') this.prompts.observe(event);
    if (event.type === 'patch.unrouted') this.replies.remember(event.refusal?.reply);
    if (event.type === 'task.completed' && (event.result.kind === 'patch' || event.result.kind === 'revert')) this.replies.remember(event.result.patch.error?.reply);
  }

  private handle(command: RuntimeCommand): Result<CommandReplies[CommandType]> {
    if (this.stopping && command.type !== 'Shutdown' && command.type !== 'CancelTask' && !(command.type === 'Announce' && !this.stopped)) {
      return fail('RUNTIME_STOPPED', 'Relay Desk is shutting down; the command was not run.');
    }
    switch (command.type) {
      case 'RegisterProject':
        return this.register(command);
      case 'RemoveProject':
        return this.remove(command.projectId);
      case 'SetApprovalPolicy': {
        const slot = this.projects.get(command.projectId);
        if (!slot) return unknownProject(command.projectId);
        slot.policy = command.policy;
        this.emit({ type: 'project.policy-changed', projectId: slot.projectId, policy: command.policy });
        return ok({ projectId: slot.projectId, policy: command.policy });
      }
      case 'ApplyPatch':
        return this.applyPatch(command);
      case 'ChooseProject':
        return this.chooseProject(command);
      case 'Approve':
        if (this.prompts.has(command.approvalId)) return this.answerPrompt(command.approvalId, true);
        return this.approvals.decide(command.approvalId, command.keep === undefined ? { approve: true } : { approve: true, keep: [...command.keep] });
      case 'Reject':
        if (this.prompts.has(command.approvalId)) return this.answerPrompt(command.approvalId, false);
        return this.approvals.decide(command.approvalId, command.reason === undefined ? { approve: false } : { approve: false, reason: command.reason });
      case 'Revert':
        return this.enqueue(command.projectId, { kind: 'revert', transaction: command.transaction }, `Revert ${command.transaction}`);
      case 'RunTick':
        return this.enqueue(command.projectId, { kind: 'tick' }, 'Tick');
      case 'CommitTick':
        return this.enqueue(command.projectId, { kind: 'commit', runId: command.runId, message: command.message }, `Commit tick ${command.runId}`);
      case 'Ask':
        return this.enqueue(command.projectId, { kind: 'ask', request: command.request }, `Ask${command.request.backend ? ` ${command.request.backend}` : ''}: ${firstLine(command.request.prompt)}`);
      case 'Review':
        return this.enqueue(command.projectId, { kind: 'review', request: command.request }, `Review${command.request.base ? ` against ${command.request.base}` : ' of the working tree'}`);
      case 'BuildHandoff':
        return this.enqueue(command.projectId, { kind: 'handoff', request: command.request }, `Handoff${command.request.target ? ` to ${command.request.target}` : ''}`);
      case 'CancelTask':
        return this.cancel(command.taskId);
      case 'Shutdown':
        return ok({ stopped: this.beginShutdown() });
      case 'Announce':
        this.emit(command.event);
        return ok({ seq: this.log.lastSeq });
      default:
        return assertNever(command);
    }
  }

  /** A handoff prompt: accepting queues a handoff brief for its project; declining does nothing. */
  private answerPrompt(approvalId: string, accepted: boolean): Result<CommandReplies['Approve']> {
    let taskId: string | null = null;
    if (accepted) {
      const projectId = this.prompts.list().find((p) => p.approvalId === approvalId)!.projectId;
      const queued = this.enqueue(projectId, { kind: 'handoff', request: {} }, 'Handoff (context nearly full)');
      if (queued.ok) taskId = queued.value.taskId;
    }
    this.prompts.resolve(approvalId, accepted, 'user', taskId);
    return ok({ approvalId, taskId: taskId ?? '' });
  }

  private register(command: Extract<RuntimeCommand, { type: 'RegisterProject' }>): Result<CommandReplies['RegisterProject']> {
    const existing = this.projects.get(command.projectId);
    if (existing && existing.root !== command.root) {
      return fail('PROJECT_EXISTS', `Project "${command.projectId}" is already registered at ${existing.root}. Two folders cannot share a projectId; give one of them another id in its relay.config.json.`);
    }
    const slot: ProjectSlot = existing ?? { projectId: command.projectId, root: command.root, name: command.name, policy: DEFAULT_POLICY, active: null, queue: [] };
    slot.name = command.name;
    if (command.policy) slot.policy = command.policy;
    this.projects.set(slot.projectId, slot);
    this.emit({ type: 'project.registered', projectId: slot.projectId, root: slot.root, name: slot.name, policy: slot.policy });
    return ok({ projectId: slot.projectId });
  }

  private remove(projectId: string): Result<CommandReplies['RemoveProject']> {
    const slot = this.projects.get(projectId);
    if (!slot) return unknownProject(projectId);
    if (slot.active || slot.queue.length > 0) {
      return fail('PROJECT_BUSY', `Project "${projectId}" has ${slot.queue.length + (slot.active ? 1 : 0)} task(s) running or queued; cancel them or wait, then remove it.`);
    }
    this.projects.delete(projectId);
    this.emit({ type: 'project.removed', projectId });
    return ok({ projectId });
  }

  /**
   * An answer to apply. With a project: for that project. Without one: routed (route.ts) among
   * the registered projects (or those in `among`), read once; the task gets that reading.
   */
  private applyPatch(command: Extract<RuntimeCommand, { type: 'ApplyPatch' }>): Result<CommandReplies['ApplyPatch']> {
    if (command.projectId !== undefined) {
      const slot = this.projects.get(command.projectId);
      if (!slot) return unknownProject(command.projectId);
      return this.enqueuePatch(slot.projectId, takeAnswer(command.text, { pathExists: existsIn(slot.root) }), command.source);
    }
    if (command.source === 'clipboard' && this.replies.has(command.text)) {
      return fail('OWN_REPLY', 'This is a reply Relay Desk wrote for the assistant, not an answer; it was not applied.');
    }
    const among = command.among === undefined ? null : new Set(command.among);
    const targets: RouteTarget[] = [...this.projects.values()].filter((slot) => among === null || among.has(slot.projectId)).map((slot) => ({ projectId: slot.projectId, root: slot.root }));
    const answer = takeForRouting(command.text, targets);
    const route = routeAnswer(answer, targets);
    switch (route.kind) {
      case 'project':
        return this.enqueuePatch(route.projectId, answer, command.source);
      case 'choose': {
        const choiceId = this.newId();
        this.choices.hold({ choiceId, source: command.source, projectIds: route.projectIds, title: titleOf(answer, command.source), requestedAt: this.clock(), answer });
        return fail('PROJECT_CHOICE_NEEDED', `The answer fits ${route.projectIds.length} projects (${route.projectIds.join(', ')}); nothing was applied. Choose the project it is for (choice ${choiceId}).`);
      }
      case 'unknown-project': {
        this.emit({ type: 'patch.unrouted', source: command.source, reason: 'unknown-project', projectId: route.projectId, refusal: null });
        const registered = this.projects.has(route.projectId);
        return fail(
          'UNKNOWN_PROJECT',
          registered
            ? `The answer is for project "${route.projectId}", whose clipboard watching is off; nothing was applied. Turn its watching on, or paste the answer in the window.`
            : `The answer is for project "${route.projectId}", which is not registered. Register its folder (it must have relay.config.json with that projectId) and apply it again.`,
        );
      }
      case 'no-fit':
        this.emit({ type: 'patch.unrouted', source: command.source, reason: 'no-fit', projectId: route.projectId, refusal: toRefusalData(route.refusal) });
        return fail('NO_PROJECT_FITS', `No registered project fits this answer; the closest is "${route.projectId}": ${route.refusal.message}`);
      case 'ignored':
        return fail(
          'NOT_AN_ANSWER',
          `Nothing was applied: the text is not an answer for any registered project (${route.why}). An answer that only creates or deletes files names no project: ${command.source === 'paste' ? 'choose its project and apply it again' : 'paste it in the window and choose its project, or use `relay apply` in the project'}.`,
        );
      default:
        return assertNever(route);
    }
  }

  /** Applies a held answer to the project a person picked among those it fits (null: to none). */
  private chooseProject(command: Extract<RuntimeCommand, { type: 'ChooseProject' }>): Result<CommandReplies['ChooseProject']> {
    const choice = this.choices.get(command.choiceId);
    if (!choice) return fail('CHOICE_NOT_FOUND', `No answer is waiting for choice ${command.choiceId}; it was made already, or dropped.`);
    if (command.projectId === null) {
      this.choices.resolve(choice.choiceId, null, null, 'user');
      return ok({ choiceId: choice.choiceId, taskId: null });
    }
    if (!choice.projectIds.includes(command.projectId)) {
      return fail('NOT_A_CANDIDATE', `The answer does not fit project "${command.projectId}"; it fits ${choice.projectIds.join(', ')}.`);
    }
    const queued = this.enqueuePatch(command.projectId, choice.answer, choice.source);
    if (!queued.ok) return queued;
    this.choices.resolve(choice.choiceId, command.projectId, queued.value.taskId, 'user');
    return ok({ choiceId: choice.choiceId, taskId: queued.value.taskId });
  }

  private enqueuePatch(projectId: string, answer: IncomingAnswer, source: PatchSource): Result<CommandReplies['ApplyPatch']> {
    return this.enqueue(projectId, { kind: 'patch', answer, source }, firstLine(titleOf(answer, source)));
  }

  private enqueue(projectId: string, spec: TaskSpec, title: string): Result<CommandReplies['ApplyPatch']> {
    const slot = this.projects.get(projectId);
    if (!slot) return unknownProject(projectId);
    const missing = missingEngine(spec, this.engines);
    if (missing) return fail('ENGINE_UNAVAILABLE', `The ${missing} engine is not part of this build yet; nothing was queued.`);
    const task: Task = {
      id: this.newId(),
      projectId,
      title,
      spec,
      queuedAt: this.clock(),
      controller: new AbortController(),
      settled: deferred<TaskSettlement>(),
      state: 'queued',
      startedAt: null,
      cancelReason: null,
    };
    const position = slot.queue.length + (slot.active ? 1 : 0);
    this.tasks.set(task.id, task);
    slot.queue.push(task);
    this.emit({ type: 'task.queued', taskId: task.id, projectId, kind: spec.kind, title, position, ...askedOf(spec) });
    this.pump(slot);
    return ok({ taskId: task.id, projectId, position });
  }

  /** Starts the project's next task when none is active. */
  private pump(slot: ProjectSlot): void {
    if (slot.active || this.stopping) return;
    const task = slot.queue.shift();
    if (!task) return;
    slot.active = task;
    task.state = 'running';
    task.startedAt = this.clock();
    this.emit({ type: 'task.started', taskId: task.id, projectId: task.projectId, kind: task.spec.kind, title: task.title });
    const context: TaskContext = {
      taskId: task.id,
      projectId: task.projectId,
      root: slot.root,
      signal: task.controller.signal,
      now: () => new Date(this.clock()),
      emit: (event) => this.emit(event),
      requestApproval: (review) => this.requestApproval(task, review),
      policy: effectivePolicy(slot.policy, this.clock()),
      ...(this.options.patchCommandTimeoutMs !== undefined ? { commandTimeoutMs: this.options.patchCommandTimeoutMs } : {}),
    };
    // Run on a later turn so the command that queued the task returns before any work starts.
    void Promise.resolve()
      .then(() => runTask(task.spec, context, this.engines))
      .then(
        (end) => this.finish(slot, task, end),
        (error: unknown) => this.finish(slot, task, this.unexpected(task, error)),
      );
  }

  private unexpected(task: Task, error: unknown): TaskEnd {
    if (task.controller.signal.aborted) return { error: { code: 'CANCELLED', message: `Cancelled: ${messageOf(error)}` }, result: null };
    const failure: FailureData = { code: 'INTERNAL', message: `The ${task.spec.kind} task failed unexpectedly: ${messageOf(error)}` };
    this.emit({ type: 'error', ...failure, taskId: task.id, projectId: task.projectId });
    return { error: failure, result: null };
  }

  private finish(slot: ProjectSlot, task: Task, end: TaskEnd): void {
    this.approvals.denyAll(task, 'no-active-task');
    this.tasks.delete(task.id);
    const kind = task.spec.kind;
    let settlement: TaskSettlement;
    if ('error' in end) {
      this.emit({ type: 'task.failed', taskId: task.id, projectId: task.projectId, kind, error: end.error, result: end.result });
      settlement = { taskId: task.id, status: 'failed', error: end.error, result: end.result };
    } else {
      this.emit({ type: 'task.completed', taskId: task.id, projectId: task.projectId, kind, result: end.result });
      settlement = { taskId: task.id, status: 'completed', result: end.result };
    }
    this.remember(settlement);
    if (slot.active === task) slot.active = null;
    task.settled.resolve(settlement);
    this.pump(slot);
  }

  private remember(settlement: TaskSettlement): void {
    this.settlements.set(settlement.taskId, settlement);
    if (this.settlements.size > REMEMBERED_SETTLEMENTS) {
      const oldest = this.settlements.keys().next().value;
      if (oldest !== undefined) this.settlements.delete(oldest);
    }
  }

  /** An approval request from a running task: resolved by the policy, or held until a person decides. */
  private requestApproval(task: Task, review: PatchReview): Promise<DecisionData> {
    const approvalId = this.newId();
    const ids = { taskId: task.id, projectId: task.projectId, approvalId };
    const slot = this.projects.get(task.projectId);
    if (this.stopping || task.cancelReason || !slot || slot.active !== task) {
      // Safety default: a request that no active task owns is denied, never left hanging.
      const by = this.stopping ? 'shutdown' : task.cancelReason ? 'cancel' : 'no-active-task';
      const decision: DecisionData = { approve: false, reason: by === 'no-active-task' ? 'no active task owns this approval request' : `the task was cancelled (${by})` };
      if (by === 'no-active-task') this.emit({ type: 'warning', code: 'APPROVAL_WITHOUT_TASK', message: `An approval request for ${review.uuid} arrived with no active task; it was denied.`, taskId: task.id, projectId: task.projectId });
      this.emit({ type: 'task.approval-resolved', ...ids, decision, by });
      return Promise.resolve(decision);
    }
    // A patch that changes code the configured commands run waits for a person under every policy.
    if (effectivePolicy(slot.policy, this.clock()) === 'auto' && review.reason !== 'executes-patched-code') {
      const decision: DecisionData = { approve: true };
      this.emit({ type: 'task.approval-resolved', ...ids, decision, by: 'policy' });
      return Promise.resolve(decision);
    }
    return this.approvals.hold(approvalId, task, review);
  }

  private cancel(taskId: string): Result<CommandReplies['CancelTask']> {
    const task = this.tasks.get(taskId);
    if (!task) return fail('TASK_NOT_FOUND', `No task ${taskId} is queued or running.`);
    const slot = this.projects.get(task.projectId);
    if (task.state === 'queued' && slot) {
      slot.queue.splice(slot.queue.indexOf(task), 1);
      this.dropQueued(task, 'Cancelled before it started.');
      return ok({ taskId, state: 'removed' });
    }
    if (!task.cancelReason) this.cancelActive(task, 'user');
    return ok({ taskId, state: 'cancelling' });
  }

  private dropQueued(task: Task, message: string): void {
    this.tasks.delete(task.id);
    const error: FailureData = { code: 'CANCELLED', message };
    this.emit({ type: 'task.failed', taskId: task.id, projectId: task.projectId, kind: task.spec.kind, error, result: null });
    const settlement: TaskSettlement = { taskId: task.id, status: 'failed', error, result: null };
    this.remember(settlement);
    task.settled.resolve(settlement);
  }

  /** Denies the task's pending approvals (a patch then rolls back) and aborts its child processes. */
  private cancelActive(task: Task, reason: 'user' | 'shutdown'): void {
    task.cancelReason = reason;
    task.state = 'cancelling';
    this.emit({ type: 'task.cancelling', taskId: task.id, projectId: task.projectId, reason });
    this.approvals.denyAll(task, reason === 'user' ? 'cancel' : 'shutdown');
    task.controller.abort(new Error(reason === 'user' ? 'cancelled by the user' : 'Relay Desk is shutting down'));
  }

  private beginShutdown(): Promise<void> {
    if (this.stopping) return this.stopping;
    this.emit({ type: 'lifecycle.stopping', reason: 'shutdown' });
    this.prompts.declineAll();
    this.choices.dropAll();
    const active: Task[] = [];
    // Mark stopping only after collecting, so nothing new starts while the queues are emptied.
    this.stopping = Promise.resolve();
    for (const slot of this.projects.values()) {
      for (const task of slot.queue.splice(0)) this.dropQueued(task, 'Relay Desk shut down before the task started.');
      if (slot.active) active.push(slot.active);
    }
    for (const task of active) this.cancelActive(task, 'shutdown');
    this.stopping = this.waitForEnd(active);
    return this.stopping;
  }

  private async waitForEnd(active: readonly Task[]): Promise<void> {
    const grace = this.options.shutdownGraceMs ?? 15_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.all(active.map((t) => t.settled.promise)).then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), grace);
        timer.unref();
      }),
    ]);
    if (timer) clearTimeout(timer);
    if (timedOut) {
      const left = active.filter((t) => this.tasks.has(t.id)).map((t) => t.id);
      this.emit({ type: 'warning', code: 'SHUTDOWN_TIMEOUT', message: `Task(s) ${left.join(', ')} did not end within ${grace} ms of being cancelled.`, taskId: null, projectId: null });
    }
    this.stopped = true;
    this.emit({ type: 'lifecycle.stopped' });
  }
}

/** What an ask or a review was asked, for its run (the other tasks carry what they need in their results). */
function askedOf(spec: TaskSpec): { prompt?: string; backend?: string } {
  if (spec.kind !== 'ask' && spec.kind !== 'review') return {};
  const { prompt, backend } = spec.request;
  return { ...(prompt !== undefined ? { prompt } : {}), ...(backend !== undefined ? { backend } : {}) };
}

function unknownProject(projectId: string): { readonly ok: false; readonly error: FailureData } {
  return fail('UNKNOWN_PROJECT', `No project "${projectId}" is registered.`);
}

/** A patch task's title: what the answer says it does. */
function titleOf(answer: IncomingAnswer, source: PatchSource): string {
  if (!answer.read.ok) return `Patch from ${source}`;
  const read = answer.read.value;
  return read.gitCommitMsg ?? read.promptSummary ?? `Patch ${read.uuid}`;
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
