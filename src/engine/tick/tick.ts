import { randomBytes } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { ownFolder, resolveInsideRoot } from '../fs/safe-path.js';
import { headCommit, headPosition, isAncestor } from '../git/head.js';
import { blastLine, blastRadius, type BlastRadius, type TouchedFile } from './blast.js';
import { blockedRecord, writeBlocked, type Blocker, type BlockedRecord } from './blocked.js';
import { build, type BuildResult } from './build.js';
import type { SourceEnv, ClaudeCallRecord } from './claude.js';
import { verdictOf, type BlockedCode, type StopCode, type TickCode } from './codes.js';
import type { CallSummary, TickContext } from './context.js';
import type { TickEventSink } from './events.js';
import { BuilderGuard, judgeRules } from './guard.js';
import { writeHistory } from './history.js';
import { effectiveLimits, judgeChange, type HeadState, type Judgement } from './judge.js';
import { BudgetLedger } from './ledger.js';
import { orchestrate } from './orchestrate.js';
import { paramRulesOf, planVerification } from './params.js';
import type { Startable } from './preflight.js';
import type { Project, RunnerIdentity } from './project.js';
import { buildReport, type TickReport } from './report.js';
import { renderReportMd } from './render.js';
import { planRollback, removeRollbackIntent, rollback, rollbackIntentPath, writeRollbackIntent, type RollbackResult } from './rollback.js';
import { preflightTick } from './start.js';
import type { Task } from './task.js';
import { collectTouched, diffPatch, trackedPatch } from './touched.js';
import { checkReport } from './validate.js';
import { runVerification, type VerifyRun } from './verify.js';
import { relativeToRoot, type WorkspacePaths } from './workspace.js';

/** What `runTick` needs: the repository, and the side effects tests and the app control. */
export interface RunTickOptions extends RunnerIdentity {
  /** The repository root (where relais.config.json is). */
  readonly root: string;
  readonly clock?: () => Date;
  readonly onEvent?: TickEventSink;
  /** Overrides claude_code_cli.command (e.g. a fake CLI in tests, an absolute path in the app). */
  readonly claudeCommand?: string;
  /** Aborting cancels the tick: the running child (Claude or a verification) is killed, the tick stops as STOP_INTERRUPTED and rolls back. */
  readonly signal?: AbortSignal;
  /** Told after every Claude call (orchestrator and builder), e.g. to report its token usage. */
  readonly onClaudeCall?: (record: ClaudeCallRecord, role: 'orchestrator' | 'builder') => void;
  /** Told when a rollback starts, its intent written (a test hook: the fault harness kills the process here). */
  readonly onRollbackStart?: () => void;
}

/** How a tick ended: a report (SUCCESS or STOP) or a BLOCKED record. */
export type TickOutcome =
  | {
      readonly verdict: 'success' | 'stop';
      readonly code: 'SUCCESS' | StopCode;
      readonly runId: string;
      readonly report: TickReport;
      /** Root-relative path of REPORT.md. */
      readonly path: string;
      /** One line for people: why it stopped, or the blast radius of a success. */
      readonly detail: string;
      readonly rolledBack: boolean;
    }
  | {
      readonly verdict: 'blocked';
      readonly code: BlockedCode;
      readonly runId: string | null;
      readonly blocked: BlockedRecord;
      /** Root-relative path of BLOCKED.json. */
      readonly path: string;
      readonly detail: string;
    };

/** A run id that sorts by time: 20250102T030405Z-a1b2c3. */
export function newRunId(at: Date): string {
  return `${at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
}

function finishBlocked(paths: WorkspacePaths, blocker: Blocker, runId: string | null, clock: () => Date, emit: TickEventSink): TickOutcome {
  const record = blockedRecord(blocker, runId, clock());
  const rel = relativeToRoot(paths.root, paths.blocked);
  // A workspace that is a link (or not a folder) is not written through: the outcome still says why.
  if (existsSync(paths.root) && ownFolder(paths.root, path.posix.dirname(rel)).ok) writeBlocked(paths.blocked, record);
  emit({ type: 'reported', runId, at: record.at, verdict: 'blocked', code: blocker.code, path: rel, rolledBack: false });
  return { verdict: 'blocked', code: blocker.code, runId, blocked: record, path: rel, detail: blocker.reason };
}

/**
 * Runs one tick: LOCK → PREFLIGHT → ORCHESTRATE → BUILD → JUDGE → REPORT → END. Never throws
 * for an expected outcome; every path ends with REPORT.json + REPORT.md or BLOCKED.json written.
 */
export async function runTick(options: RunTickOptions): Promise<TickOutcome> {
  const clock = options.clock ?? (() => new Date());
  const emit = options.onEvent ?? (() => undefined);
  const startedAt = clock();
  const runId = newRunId(startedAt);
  const pre = await preflightTick(options, { kind: 'run', runId, at: startedAt });
  try {
    if (!pre.ok) return finishBlocked(pre.paths, pre.blocker, null, clock, emit);
    return await runStages(pre.project, pre.start, runId, startedAt, { ...options, clock, emit });
  } finally {
    pre.lock?.release();
  }
}

/**
 * Why the tick was cancelled, in the words of whoever aborted it ("Relay Desk is shutting down");
 * a bare abort (Ctrl+C in `relais run`, Cancel in the window) is the user's.
 */
function cancelReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof Error && reason.name !== 'AbortError' && reason.message ? reason.message : 'cancelled by the user';
}

/** Everything a finished tick reports, gathered stage by stage. */
interface Findings {
  task: Task | null;
  orchestratorCalls: readonly CallSummary[];
  built: BuildResult | null;
  /** Set just before the builder starts: from then on a STOP rolls back. */
  builderStarted: boolean;
  touched: readonly TouchedFile[];
  blast: BlastRadius;
  judgement: Judgement | null;
  head: HeadState | null;
  /** HEAD's commit as last seen (after the judge, then after a rollback). */
  headCommit: string | null;
  taints: readonly string[] | null;
  runs: readonly VerifyRun[];
  verifyLog: string;
  patch: string | null;
  rollback: RollbackResult | null;
  ownedChanged: readonly string[];
  restorePoints: ReturnType<BuilderGuard['restorePoints']>;
  detail: string;
  error: string | null;
}

const NO_BLAST: BlastRadius = { files_touched: 0, lines_added: 0, lines_deleted: 0, new_files: 0 };

/**
 * Where HEAD went. Leaving the branch the tick started on (switching, detaching, deleting it)
 * counts as moved too: the user's branch is part of what the tick must give back unchanged.
 */
async function headStateOf(root: string, base: string, branch: string | null): Promise<{ state: HeadState; commit: string | null }> {
  const now = await headPosition(root);
  if (now.branch !== branch) return { state: 'moved', commit: now.commit };
  if (now.commit === base) return { state: 'base', commit: now.commit };
  return { state: now.commit !== null && (await isAncestor(root, base, now.commit)) ? 'descendant' : 'moved', commit: now.commit };
}

async function runStages(project: Project, start: Startable, runId: string, startedAt: Date, options: RunTickOptions & { clock: () => Date; emit: TickEventSink }): Promise<TickOutcome> {
  const { config, paths } = project;
  const milestone = config.project.milestone_id;
  const ledger = new BudgetLedger(paths, milestone, start.state, options.clock);
  ledger.startTick(start.warnings.length > 0);
  rmSync(paths.task, { force: true }); // the last tick's TASK must not pass for this one's
  const ctx: TickContext = {
    project,
    runId,
    clock: options.clock,
    emit: options.emit,
    ...(options.env ? { env: options.env as SourceEnv } : {}),
    claudeCommand: options.claudeCommand ?? config.claude_code_cli.command,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onClaudeCall ? { onClaudeCall: options.onClaudeCall } : {}),
    ...(options.onRollbackStart ? { onRollbackStart: options.onRollbackStart } : {}),
    deadlineMs: startedAt.getTime() + config.runner.max_tick_seconds * 1000,
    milestone,
    ledger,
    warnings: start.warnings,
  };
  const at = (): string => options.clock().toISOString();
  options.emit({ type: 'started', runId, at: at(), baseCommit: project.baseCommit, milestoneId: milestone, budgetWarnings: start.warnings });

  const f: Findings = { task: null, orchestratorCalls: [], built: null, builderStarted: false, touched: [], blast: NO_BLAST, judgement: null, head: null, headCommit: null, taints: null, runs: [], verifyLog: '', patch: null, rollback: null, ownedChanged: [], restorePoints: [], detail: '', error: null };
  let code: Exclude<TickCode, BlockedCode>;
  try {
    const orch = await orchestrate(ctx);
    f.orchestratorCalls = orch.calls;
    const orchCost = orch.calls.reduce((n, c) => n + (c.cost_usd ?? 0), 0);
    const problem = orch.kind === 'task' ? null : orch.kind === 'invalid' ? orch.problems.join('; ') : orch.reason;
    const summary = orch.kind === 'task' ? { taskId: orch.task.task_id, kind: orch.task.task_kind, intent: orch.task.intent } : null;
    options.emit({ type: 'orchestrated', runId, at: at(), calls: orch.calls.length, ok: orch.kind === 'task', task: summary, problem, costUsd: orchCost });
    if (orch.kind === 'invalid') return finishInvalidTask(ctx, f, orch.problems, startedAt);
    if (orch.kind === 'interrupted') {
      f.detail = orch.reason;
      return await finishReport(ctx, f, 'STOP_INTERRUPTED', startedAt);
    }
    f.task = orch.task;
    writeFileAtomic(paths.task, `${JSON.stringify(orch.task, null, 2)}\n`);
    code = ctx.signal?.aborted ? 'STOP_INTERRUPTED' : await buildAndJudge(ctx, f, orch.task);
    if (ctx.signal?.aborted) {
      code = 'STOP_INTERRUPTED';
      f.detail = cancelReason(ctx.signal);
    }
  } catch (error) {
    // An unexpected failure after the tick started still ends with a report and, when the
    // builder ran, a rollback: the repository must not be left half-changed.
    f.error = (error as Error).stack ?? String(error);
    f.detail = `internal error: ${(error as Error).message}`;
    code = 'STOP_INTERRUPTED';
  }
  if (code !== 'SUCCESS') code = await rollBackIfBuilt(ctx, f, code);
  return finishReport(ctx, f, code, startedAt);
}

/**
 * Appendix B: any STOP once the builder ran rolls the repository back (once), then asserts it
 * clean; a rollback that cannot finish turns the code into STOP_INTERRUPTED. The rollback's
 * plan is written down first, so a crash in the middle is finished by the next run.
 */
async function rollBackIfBuilt<C extends Exclude<TickCode, BlockedCode>>(ctx: TickContext, f: Findings, code: C): Promise<C | 'STOP_INTERRUPTED'> {
  const { project } = ctx;
  if (!f.builderStarted || f.rollback !== null) return code;
  const plan = planRollback({ base: project.baseCommit, branch: project.branch, snapshots: f.restorePoints }, f.touched);
  const intent = await rollbackIntentPath(project.root);
  let intentProblem: string | null = null;
  try {
    writeRollbackIntent(intent, plan, ctx.clock());
  } catch (error) {
    intentProblem = `the rollback plan could not be written first (${(error as Error).message}), so a crash during this rollback would not be finished by the next run`;
  }
  ctx.onRollbackStart?.();
  const rb = await rollback(project.root, plan);
  if (rb.clean) removeRollbackIntent(intent);
  f.rollback = intentProblem ? { ...rb, problems: [...rb.problems, intentProblem] } : rb;
  f.headCommit = rb.head;
  if (rb.clean) return code;
  f.detail = `${f.detail}; rollback incomplete: ${rb.problems.join('; ')}`;
  return 'STOP_INTERRUPTED';
}

/** BUILD, JUDGE and verification; returns the code, leaving what it found in `f`. */
async function buildAndJudge(ctx: TickContext, f: Findings, task: Task): Promise<Exclude<TickCode, BlockedCode>> {
  const { project } = ctx;
  const { config } = project;
  const rules = judgeRules(project);
  const limits = effectiveLimits(task, rules);
  const forbidden = [...new Set([...rules.forbiddenFloor, ...task.scope.forbidden_globs])];
  const guard = new BuilderGuard(project, ctx.runId);
  const at = (): string => ctx.clock().toISOString();

  f.builderStarted = true;
  const built = await build(ctx, task, limits, forbidden, guard);
  f.built = built;
  f.restorePoints = guard.restorePoints();
  ctx.emit({ type: 'built', runId: ctx.runId, at: at(), mode: built.mode, completed: built.completed, outputValid: built.outputValid, maxTurns: built.maxTurns, problem: built.problem, costUsd: built.costUsd });

  // The git questions of the judge are independent: ask them at once.
  const keepPatch = config.history.enabled && config.history.include_diff_patch;
  const [tracked, head, patch] = await Promise.all([
    collectTouched(project.root, project.baseCommit),
    headStateOf(project.root, project.baseCommit, project.branch),
    keepPatch ? trackedPatch(project.root, project.baseCommit) : Promise.resolve(null),
  ]);
  const internal: TouchedFile[] = guard.gitChanged.map((p) => ({ path: p, change: 'git-internal', added: 0, deleted: 0, binary: false }));
  f.touched = [...tracked, ...internal];
  f.ownedChanged = guard.ownedChanged;
  f.blast = blastRadius(f.touched);
  f.head = head.state;
  f.headCommit = head.commit;
  const judgement = judgeChange({ task, touched: f.touched, ownedChanged: guard.ownedChanged, head: f.head, rules });
  f.judgement = judgement;
  if (patch !== null) f.patch = diffPatch(patch, project.root, f.touched);

  // A3 comes before A4: a failed or (strictly) invalid builder decides the code; the judge's
  // findings are still reported and the rollback still uses its touched set.
  let code: Exclude<TickCode, BlockedCode> | null = null;
  if (!built.completed) code = 'STOP_INTERRUPTED';
  else if (!built.outputValid && config.builder.claude_code.strict_builder_json) code = 'STOP_BUILDER_OUTPUT_INVALID';
  else if (judgement.code) code = judgement.code;
  ctx.emit({ type: 'judged', runId: ctx.runId, at: at(), blastRadius: blastLine(f.blast), touchedPaths: f.touched.map((t) => t.path), violations: judgement.violations, code: judgement.code });
  if (code !== null) {
    f.detail = code === judgement.code ? (judgement.violations[0] ?? code) : (built.problem ?? code);
    return code;
  }

  code = await verify(ctx, f, task);
  if (code === null) {
    // A3 row 3: an invalid builder answer under strict_builder_json=false is judged in full,
    // and stays a STOP when nothing stricter applies.
    if (!built.outputValid) {
      f.detail = built.problem ?? 'the builder output is invalid';
      return 'STOP_BUILDER_OUTPUT_INVALID';
    }
    f.detail = blastLine(f.blast);
    return 'SUCCESS';
  }
  return code;
}

/** A5: plan (refusing tainted input before anything runs), then run fast, then slow. */
async function verify(ctx: TickContext, f: Findings, task: Task): Promise<StopCode | null> {
  const { project } = ctx;
  const v = project.config.verification;
  const plan = planVerification(task, v.templates, paramRulesOf(project.config), { fastMs: v.timeout_fast_seconds * 1000, slowMs: v.timeout_slow_seconds * 1000 }, (p) => resolveInsideRoot(project.root, p, { purpose: 'read' }).ok);
  const at = (): string => ctx.clock().toISOString();
  if (!plan.ok) {
    f.taints = plan.taints;
    f.verifyLog = `Nothing was run: the verification input is tainted.\n${plan.taints.map((t) => `- ${t}`).join('\n')}\n`;
    f.detail = plan.taints[0] ?? 'tainted verification';
    ctx.emit({ type: 'verified', runId: ctx.runId, at: at(), runs: [], code: 'STOP_VERIFY_TAINTED', problem: f.detail });
    return 'STOP_VERIFY_TAINTED';
  }
  const outcome = await runVerification(plan.runs, {
    root: project.root,
    ...(ctx.env ? { env: ctx.env } : {}),
    deadlineMs: ctx.deadlineMs,
    now: () => ctx.clock().getTime(),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    beforeRun: () => ctx.ledger.charge({ verify_runs: 1 }),
  });
  f.runs = outcome.runs;
  f.verifyLog = outcome.log || 'No verification was listed by the task.\n';
  const code: StopCode | null = outcome.failedPhase === 'fast' ? 'STOP_VERIFY_FAILED_FAST' : outcome.failedPhase === 'slow' ? 'STOP_VERIFY_FAILED_SLOW' : null;
  const failed = outcome.runs[outcome.runs.length - 1];
  if (code && failed) f.detail = outcome.startFailure ?? `${failed.phase} verification "${failed.template_id}" ${failed.timed_out ? 'timed out' : `exited with ${failed.exit_code}`}`;
  ctx.emit({
    type: 'verified',
    runId: ctx.runId,
    at: at(),
    runs: outcome.runs.map((r) => ({ templateId: r.template_id, phase: r.phase, exitCode: r.exit_code, timedOut: r.timed_out, durationMs: r.duration_ms })),
    code,
    problem: code ? f.detail : null,
  });
  return code;
}

function meta(ctx: TickContext, f: Findings, code: TickCode, startedAt: Date, endedAt: Date, head: string | null): Record<string, unknown> {
  return {
    run_id: ctx.runId,
    started_at: startedAt.toISOString(),
    ended_at: endedAt.toISOString(),
    verdict: verdictOf(code),
    code,
    detail: f.detail,
    base_commit: ctx.project.baseCommit,
    head_commit: head,
    milestone_id: ctx.milestone,
    task: f.task,
    orchestrator: { calls: f.orchestratorCalls },
    builder: f.built ? { mode: f.built.mode, completed: f.built.completed, output_valid: f.built.outputValid, max_turns: f.built.maxTurns, problem: f.built.problem, result: f.built.result, call: f.built.call } : null,
    judge: f.judgement ? { violations: f.judgement.violations, head_state: f.head, runner_owned_changed: f.ownedChanged, limits: { max_files_touched: f.judgement.maxFiles, max_lines_changed: f.judgement.maxLines } } : null,
    verification: { tainted: f.taints, runs: f.runs },
    rollback: f.rollback,
    budgets: { counters: ctx.ledger.counters, warnings: ctx.warnings },
    error: f.error,
  };
}

/** A1/A2 after the start: no valid TASK after the retry is BLOCKED, written as BLOCKED.json. */
function finishInvalidTask(ctx: TickContext, f: Findings, problems: readonly string[], startedAt: Date): TickOutcome {
  const { paths, config } = ctx.project;
  const blocker: Blocker = {
    code: 'BLOCKED_ORCHESTRATOR_OUTPUT_INVALID',
    reason: `The orchestrator's answer was not a valid TASK after ${f.orchestratorCalls.length} call(s).`,
    remediation: `Read the problems in details and history/${ctx.runId}/meta.json. Usually the prompt needs help: clarify project.goal in relais.config.json or relais/FACTS.md, or adjust ${config.orchestrator.user_prompt_file}; then run again (the retry is only within a tick).`,
    details: problems,
  };
  f.detail = problems[0] ?? blocker.reason;
  const record = blockedRecord(blocker, ctx.runId, ctx.clock());
  writeBlocked(paths.blocked, record);
  if (config.history.enabled) writeHistory(paths.historyDir, ctx.runId, { meta: meta(ctx, f, blocker.code, startedAt, ctx.clock(), ctx.project.baseCommit), blocked: record });
  ctx.ledger.finish(ctx.runId, 'blocked', blocker.code);
  const rel = relativeToRoot(ctx.project.root, paths.blocked);
  ctx.emit({ type: 'reported', runId: ctx.runId, at: record.at, verdict: 'blocked', code: blocker.code, path: rel, rolledBack: false });
  return { verdict: 'blocked', code: blocker.code, runId: ctx.runId, blocked: record, path: rel, detail: blocker.reason };
}

/** REPORT: REPORT.json (checked against its schema), REPORT.md, the history entry, STATE. */
async function finishReport(ctx: TickContext, f: Findings, initial: Exclude<TickCode, BlockedCode>, startedAt: Date): Promise<TickOutcome> {
  const { project } = ctx;
  const { paths, config } = project;
  let code = initial;
  const endedAt = ctx.clock();
  const historyRel = `${paths.historyDirRel}/${ctx.runId}`;
  const keepHistory = config.history.enabled;
  const compose = async (): Promise<{ report: TickReport; md: string; head: string }> => {
    // HEAD as the judge or the rollback last saw it; asked again only when neither ran.
    const head = f.headCommit ?? (await headCommit(project.root)) ?? project.baseCommit;
    const report = buildReport({
      runId: ctx.runId,
      startedAt,
      endedAt,
      baseCommit: project.baseCommit,
      headCommit: head,
      task: f.task,
      milestoneId: ctx.milestone,
      code,
      blast: f.blast,
      violations: f.judgement?.violations ?? [],
      touchedPaths: f.touched.map((t) => t.path),
      runs: f.runs,
      counters: ctx.ledger.counters,
      warnings: ctx.warnings,
      diffPatchPath: keepHistory && config.history.include_diff_patch ? `${historyRel}/diff.patch` : '(not kept: history.include_diff_patch is false)',
      verifyLogPath: keepHistory && config.history.include_verify_log ? `${historyRel}/verify.log` : '(not kept: history.include_verify_log is false)',
      reportMdPath: relativeToRoot(project.root, paths.reportMd),
      historyDir: keepHistory ? historyRel : null,
    });
    const checked = checkReport(report);
    if (!checked.ok) throw new Error(`The runner built a REPORT.json that fails report.schema.json: ${checked.errors.join('; ')}`);
    return { report, md: renderReportMd(report, config.runner.render_report_md.max_chars), head };
  };
  let { report, md, head } = await compose();
  let reportRel = relativeToRoot(project.root, paths.reportMd);
  try {
    writeFileAtomic(paths.reportJson, `${JSON.stringify(report, null, 2)}\n`);
    // REPORT.md is a rendering of REPORT.json: replaced atomically, but it needs no fsync of its own.
    if (config.runner.render_report_md.enabled) writeFileAtomic(paths.reportMd, md, { durable: false });
  } catch (error) {
    // A6 row 1: the truth cannot be written. Say so where the next tick will look first.
    f.detail = `could not write REPORT.json: ${(error as Error).message}`;
    try {
      writeBlocked(paths.blocked, blockedRecord({ code: 'BLOCKED_CRASH_RECOVERY_REQUIRED', reason: `Tick ${ctx.runId} could not write its report (disk or write failure): ${(error as Error).message}`, remediation: 'Check free disk space and the permissions of the relais/ folder, then run `relais status --preflight`.' }, ctx.runId, ctx.clock()));
    } catch {
      // best effort only
    }
    // It is a STOP after the builder ran, so Appendix B applies: a SUCCESS whose report could
    // not be written is rolled back too. History then holds the only report, with this code.
    code = await rollBackIfBuilt(ctx, f, 'STOP_INTERRUPTED');
    ({ report, md, head } = await compose());
    if (keepHistory) reportRel = `${historyRel}/report.md`;
  }
  if (code === initial) rmSync(paths.blocked, { force: true }); // a finished tick supersedes an earlier block
  if (keepHistory) {
    writeHistory(paths.historyDir, ctx.runId, {
      meta: meta(ctx, f, code, startedAt, endedAt, head),
      report,
      reportMd: md,
      ...(config.history.include_diff_patch ? { diffPatch: f.patch ?? '' } : {}),
      ...(config.history.include_verify_log ? { verifyLog: f.verifyLog || 'No verification ran in this tick.\n' } : {}),
    });
  }
  const verdict = verdictOf(code) === 'success' ? 'success' : 'stop';
  ctx.ledger.finish(ctx.runId, verdict, code);
  ctx.emit({ type: 'reported', runId: ctx.runId, at: ctx.clock().toISOString(), verdict, code, path: reportRel, rolledBack: f.rollback !== null });
  return { verdict, code: code as 'SUCCESS' | StopCode, runId: ctx.runId, report, path: reportRel, detail: f.detail || code, rolledBack: f.rollback !== null };
}
