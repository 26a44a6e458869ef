import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { tickOwnedPaths } from '../fs/protected.js';
import { readInsideRoot } from '../fs/project-write.js';
import { isDeviceName } from '../fs/path-names.js';
import { checkRelativePath } from '../fs/safe-path.js';
import { filesCommandsExecute, type ExecutedFile } from './code-files.js';
import { loadRelayConfig, type RelayConfig } from './config.js';
import { countLinterErrors, execaRunner, toArgv, type CommandRunner } from './commands.js';
import { acquireProjectLock, projectBusy } from './lock.js';
import { planAnswer, projectMismatch, readAnswer, type AnswerCheck, type PatchRefusal } from './check.js';
import { stricterLimits, type IncomingAnswer } from './incoming.js';
import { intakeAnswer } from './intake.js';
import type { PlannedChange } from './plan.js';
import { replyFor } from './reply.js';
import { findByContentHash, hasCommitted, rolledBackRecord } from '../records/transactions.js';
import type { FileStat, TransactionRecord } from '../records/transaction-schema.js';
import { pendingPath, stateDir, writePending } from './state.js';
import { vouch } from './voucher.js';
import { fileStat, unifiedDiff } from './summary.js';
import type { FileOperation } from './types.js';
import { createBranch, isValidBranchName } from '../git/commit.js';
import { isGitRepo } from '../git/core.js';
import { refExists } from '../git/branch.js';
import { symbolicHead } from '../git/head.js';
import { capturedText, captureWorkTree, changesSinceCapture } from '../git/capture.js';
import { FileWriteError } from '../fs/atomic.js';
import { nodeIo, type WriteIo } from '../fs/write-io.js';
import { currentOwner } from '../fs/process.js';
import type { Failure } from '../result.js';
import { CAPTURE_EXCLUDE, closeJournal, commitTransaction, removeEmptyFolders, restoreProjectFile, undoTransaction, writeProjectFile } from './journal.js';
import { markedEnv, transactionMark } from './leftover-commands.js';
import { describeFailure, recoverPending, recoverUnlocked, type Recovery, type RecoveryReport } from './recover.js';

export { recoverPending, type Recovery, type RecoveryReport };
export { responseHash } from './check.js';

export type PatchSource = 'clipboard' | 'paste' | 'file';

/** What the person (or the policy) decided about an applied, pending patch. */
export type Decision =
  | {
      readonly approve: true;
      /** Paths to keep; the rest are rolled back. All when omitted. */
      readonly keep?: readonly string[];
      /**
       * True when nobody looked at the diff (`--yes`, a revert confirmed by name): the files are
       * kept, but no command runs code this patch wrote (see code-files.ts).
       */
      readonly unseen?: boolean;
    }
  | { readonly approve: false; readonly reason?: string };

/** Everything shown to the person deciding: what changed on disk, and the linter's verdict. */
export interface PendingReview {
  readonly uuid: string;
  readonly projectId: string;
  readonly root: string;
  readonly gitCommitMsg?: string;
  readonly promptSummary?: string;
  readonly reasoning: readonly string[];
  readonly warnings: readonly string[];
  readonly files: ReadonlyArray<FileStat & { readonly diff: string }>;
  readonly linter?: LinterVerdict;
  /**
   * Why the policy did not approve on its own. `executes-patched-code`: the patch changes files
   * the configured commands execute (`executes`), so no command has run yet and a person decides.
   */
  readonly reason: 'manual-mode' | 'linter-errors' | 'executes-patched-code';
  /** The changed files a configured command would execute, and why each counts. */
  readonly executes?: readonly ExecutedFile[];
}

export interface LinterVerdict {
  readonly errorsBefore: number;
  readonly errorsAfter: number;
  /** Errors the patch added over the baseline. */
  readonly added: number;
  readonly output: string;
}

export type PatchOutcome =
  | {
      readonly status: 'applied';
      readonly uuid: string;
      readonly files: readonly FileStat[];
      readonly rolledBack: readonly string[];
      readonly approvedBy: 'auto' | 'user';
      readonly warnings: readonly string[];
      readonly recovered: readonly Recovery[];
      readonly branch?: string;
      readonly linter?: LinterVerdict;
    }
  | { readonly status: 'skipped'; readonly uuid?: string; readonly reason: Failure; readonly recovered: readonly Recovery[] }
  | { readonly status: 'rejected'; readonly uuid?: string; readonly error: PatchRefusal; readonly recovered: readonly Recovery[] }
  | { readonly status: 'rolled-back'; readonly uuid: string; readonly error: Failure; readonly files: readonly FileStat[]; readonly recovered: readonly Recovery[] };

/** Points of a transaction where tests can stop the process to prove crash safety. */
export type FaultPoint =
  | 'pending-written'
  | 'pre-command-done'
  | `file-written:${number}`
  | 'all-written'
  | 'post-command-done'
  | 'commands-settled'
  | 'branch-switched'
  | 'record-committed';

export type PatchEvent =
  | { readonly type: 'recovered'; readonly recovery: Recovery }
  | { readonly type: 'parsed'; readonly uuid: string; readonly operations: number }
  | { readonly type: 'applied'; readonly uuid: string; readonly files: readonly FileStat[] }
  | { readonly type: 'command'; readonly uuid: string; readonly which: 'preCommand' | 'postCommand' | 'linter'; readonly argv: readonly string[]; readonly exitCode: number }
  | { readonly type: 'waiting-approval'; readonly review: PendingReview }
  | { readonly type: 'committed'; readonly uuid: string; readonly files: readonly FileStat[] }
  | { readonly type: 'rolled-back'; readonly uuid: string; readonly reason: Failure };

export interface PatchHooks {
  readonly now?: () => Date;
  readonly runCommand?: CommandRunner;
  readonly onEvent?: (event: PatchEvent) => void;
  readonly fault?: (point: FaultPoint) => void;
  readonly signal?: AbortSignal;
  /** Timeout for pre/post commands and the linter. */
  readonly commandTimeoutMs?: number;
  /** The file-system calls every write goes through (tests make one fail like a full disk). */
  readonly io?: WriteIo;
}

interface ApplyPatchBase {
  readonly root: string;
  readonly source: PatchSource;
  readonly decide: (review: PendingReview) => Promise<Decision>;
  readonly config?: RelayConfig;
}

/**
 * What to apply: raw input (bytes from a file or stdin, text), taken in and parsed here; or an
 * answer already taken in and parsed once by whoever routed it (incoming.ts), which is not read again.
 */
export type ApplyPatchRequest = ApplyPatchBase & ({ readonly text: string | Uint8Array; readonly answer?: never } | { readonly answer: IncomingAnswer; readonly text?: never });

/**
 * The intake checks with the project's limits, before the lock is taken: the text, or the
 * refusal. An answer taken in earlier is checked again only when this project allows less.
 */
function intakeOf(request: ApplyPatchRequest, config: RelayConfig): AnswerCheck<string> {
  const limits = { maxBytes: config.patch.maxAnswerBytes, maxLineBytes: config.patch.maxLineBytes };
  const incoming = request.answer;
  if (incoming !== undefined && (!incoming.read.ok || !stricterLimits(incoming.limits, limits))) return { ok: true, value: incoming.text };
  const intake = intakeAnswer(incoming === undefined ? request.text : incoming.text, limits);
  return intake.ok ? intake : { ok: false, error: { ...intake.error, reply: replyFor(intake.error) } };
}

/**
 * Takes the project lock and recovers what a dead process left, for a command that is about to
 * change the project. Returns the lock, or the refusal (busy, lock unwritable, or a recovery
 * that could not finish: nothing new may start on a half-restored tree).
 */
export async function lockAndRecover(root: string, hooks: PatchHooks): Promise<{ readonly release: () => void; readonly recovered: readonly Recovery[]; readonly notes: readonly string[] } | { readonly refused: Failure; readonly recovered: readonly Recovery[] }> {
  const lock = acquireProjectLock(root, now(hooks));
  if ('failed' in lock) return { refused: lock.failed, recovered: [] };
  if ('heldBy' in lock) return { refused: projectBusy(lock), recovered: [] };
  let report: RecoveryReport;
  try {
    report = await recoverUnlocked(root, { ...(hooks.io ? { io: hooks.io } : {}), onRecovered: (recovery) => hooks.onEvent?.({ type: 'recovered', recovery }) });
  } catch (error) {
    lock.release();
    throw error;
  }
  // A record recovery would not act on (damaged, naming a path an answer could never write,
  // tracked by git) is reported in `recovered` and left alone; the tree is as it was, so work
  // goes on. A rollback that could not finish leaves a half-restored tree: nothing new starts.
  if (report.problems.length > 0) {
    lock.release();
    return { refused: { code: 'RECOVERY_FAILED', message: `${report.problems.map((p) => p.message).join(' ')} Nothing new was applied.` }, recovered: report.recovered };
  }
  return { release: () => lock.release(), recovered: report.recovered, notes: report.gitCommit ? [report.gitCommit] : [] };
}

/**
 * Applies an assistant's answer to the project as one transaction: intake and parse (unless the
 * caller hands the answer already parsed) → check projectId and duplicates → plan in memory →
 * pending record → write → post command and linter → approval → commit the record, or roll
 * every file back.
 */
export async function applyPatch(request: ApplyPatchRequest, hooks: PatchHooks = {}): Promise<PatchOutcome> {
  const { root } = request;
  const configResult = request.config ? { ok: true as const, value: request.config } : loadRelayConfig(root);
  if (!configResult.ok) return { status: 'rejected', error: configResult.error, recovered: [] };
  const config = configResult.value;
  const intake = intakeOf(request, config);
  if (!intake.ok) return { status: 'rejected', error: intake.error, recovered: [] };
  const locked = await lockAndRecover(root, hooks);
  if ('refused' in locked) return { status: 'rejected', error: locked.refused, recovered: locked.recovered };
  const { recovered } = locked;
  try {
    // An answer without a control block is for this project; its uuid comes from its content.
    const read = request.answer?.read ?? readAnswer(root, intake.value);
    if (!read.ok) return { status: 'rejected', error: read.error, recovered };
    const answer = read.value;
    const mismatch = projectMismatch(answer, config.projectId);
    if (mismatch) return { status: 'rejected', error: mismatch, recovered };
    const { operations, reasoning } = answer.parsed;
    const warnings = [...answer.parsed.warnings];
    const hash = answer.contentHash;
    const seen = findByContentHash(root, hash);
    if (seen) {
      return { status: 'skipped', uuid: seen, reason: { code: 'ALREADY_APPLIED', message: `This response was already applied as transaction ${seen}; skipped.` }, recovered };
    }
    // The uuid names the record file: a Windows device name (`con`, `nul`…) would open the device.
    const base = isDeviceName(answer.uuid) ? `tx-${answer.uuid}` : answer.uuid;
    if (base !== answer.uuid) warnings.push(`The answer's uuid ${answer.uuid} is a Windows device name; recorded as ${base}.`);
    let uuid = base;
    for (let n = 2; hasCommitted(root, uuid) || existsSync(pendingPath(root, uuid)); n += 1) uuid = `${base}-${n}`;
    if (uuid !== base) {
      // An earlier apply of this very answer that crash recovery rolled back keeps its record (and its run).
      const rolledBack = rolledBackRecord(root, base);
      warnings.push(rolledBack && rolledBack.contentHash === hash ? `An earlier apply of this answer (${base}) was rolled back after an interruption; recorded as ${uuid}.` : `The assistant reused uuid ${answer.uuid} for a different answer; recorded as ${uuid}.`);
    }
    hooks.onEvent?.({ type: 'parsed', uuid, operations: operations.length });

    const checked = planAnswer(root, answer);
    if (!checked.ok) return { status: 'rejected', uuid, error: checked.error, recovered };
    const plan = checked.value.plan;
    for (const [file, tiers] of Object.entries(plan.tiers)) {
      if (tiers.includes('blank-lines')) warnings.push(`${file}: matched with blank lines that differ from the file; check the diff.`);
      else if (tiers.includes('indent')) warnings.push(`${file}: matched with different indentation and re-indented to the file's style.`);
    }
    if (plan.changes.length === 0) {
      return { status: 'skipped', uuid, reason: { code: 'NO_CHANGES', message: 'The response leaves every file as it is; nothing to apply.' }, recovered };
    }
    const outcome = await runTransaction(
      {
        root,
        config,
        uuid,
        changes: plan.changes,
        decide: request.decide,
        meta: {
          responseUuid: answer.uuid,
          projectId: config.projectId,
          source: request.source,
          contentHash: hash,
          reasoning,
          operations,
          warnings,
          ...(checked.value.gitCommitMsg ? { gitCommitMsg: checked.value.gitCommitMsg } : {}),
          ...(checked.value.promptSummary ? { promptSummary: checked.value.promptSummary } : {}),
        },
      },
      hooks,
    );
    return { ...outcome, recovered } as PatchOutcome;
  } finally {
    locked.release();
  }
}

function now(hooks: PatchHooks): Date {
  return hooks.now ? hooks.now() : new Date();
}

export interface TransactionMeta {
  readonly responseUuid?: string;
  readonly projectId: string;
  readonly source: TransactionRecord['source'];
  readonly contentHash: string;
  readonly reasoning: readonly string[];
  readonly operations: readonly FileOperation[];
  readonly warnings: readonly string[];
  readonly gitCommitMsg?: string;
  readonly promptSummary?: string;
  readonly revertOf?: string;
}

export interface TransactionRequest {
  readonly root: string;
  readonly config: RelayConfig;
  readonly uuid: string;
  readonly changes: readonly PlannedChange[];
  readonly decide: (review: PendingReview) => Promise<Decision>;
  readonly meta: TransactionMeta;
}

type TransactionOutcome = Exclude<PatchOutcome, { status: 'skipped' }> extends infer O ? (O extends { recovered: unknown } ? Omit<O, 'recovered'> : never) : never;

const configured = (c: string | readonly string[]): boolean => (Array.isArray(c) ? c.length > 0 : (c as string).trim() !== '');

/** "Could not write src/a.ts: no space left on device (ENOSPC)" for a write, the message otherwise. */
function whatFailed(root: string, error: unknown): string {
  return error instanceof FileWriteError ? `Could not write ${describeFailure(root, error)}` : `The transaction failed: ${describeFailure(root, error)}`;
}

/**
 * Writes planned changes as one transaction (the caller holds the project lock). Shared by
 * applying a response and by reverting one.
 */
export async function runTransaction(request: TransactionRequest, hooks: PatchHooks = {}): Promise<TransactionOutcome> {
  const { root, config, uuid, changes, meta } = request;
  const io = hooks.io ?? nodeIo;
  const runCommand = hooks.runCommand ?? execaRunner;
  const timeoutMs = hooks.commandTimeoutMs ?? 10 * 60_000;
  const owner = currentOwner(now(hooks));
  const tickOwned = tickOwnedPaths(root);
  // Every command carries this run's mark, so recovery can stop one the crash left running.
  const commandOptions = { cwd: root, timeoutMs, env: markedEnv(transactionMark(root, uuid, owner)), ...(hooks.signal ? { signal: hooks.signal } : {}) };
  const run = async (which: 'preCommand' | 'postCommand' | 'linter', command: string | readonly string[]) => {
    const argv = toArgv(command);
    if (!argv.ok) return { argv: [] as string[], result: { exitCode: 1, output: argv.error.message, timedOut: false, startFailed: false } };
    const result = await runCommand(argv.value, commandOptions);
    hooks.onEvent?.({ type: 'command', uuid, which, argv: argv.value, exitCode: result.exitCode });
    return { argv: argv.value, result };
  };
  const { preCommand, postCommand, linter: linterCommand } = config.patch;
  const hasCommands = configured(preCommand) || configured(postCommand) || configured(linterCommand);
  const warnings = [...meta.warnings];
  // Files of this patch that the configured commands would execute (lint.js, package.json…):
  // no command runs after the write until a person has approved the diff (code-files.ts).
  const commandArgvs = [preCommand, postCommand, linterCommand].filter(configured).flatMap((c) => {
    const argv = toArgv(c);
    return argv.ok ? [argv.value] : [];
  });
  const executes = filesCommandsExecute(root, commandArgvs, changes.map((c) => c.path));

  // Commands may change any file. In a git repository the whole work tree is captured first;
  // outside one only the answer's files can be put back (README: crash safety).
  let worktree: { tree: string } | undefined;
  if (hasCommands && (await isGitRepo(root))) {
    try {
      worktree = { tree: await captureWorkTree(root, stateDir(root), CAPTURE_EXCLUDE) };
    } catch (error) {
      return { status: 'rejected', uuid, error: { code: 'CAPTURE_FAILED', message: `The work tree could not be captured before running the configured commands (${describeFailure(root, error)}); nothing was changed.` } };
    }
  } else if (hasCommands) {
    warnings.push('This project is not a git repository: files the configured commands change outside the answer cannot be put back on a rollback or after a crash.');
  }

  const record: TransactionRecord = {
    schemaVersion: 1,
    uuid,
    ...(meta.responseUuid && meta.responseUuid !== uuid ? { responseUuid: meta.responseUuid } : {}),
    projectId: meta.projectId,
    createdAt: now(hooks).toISOString(),
    source: meta.source,
    contentHash: meta.contentHash,
    ...(meta.gitCommitMsg ? { gitCommitMsg: meta.gitCommitMsg } : {}),
    ...(meta.promptSummary ? { promptSummary: meta.promptSummary } : {}),
    reasoning: [...meta.reasoning],
    operations: meta.operations.map((o) => ({ ...o })),
    snapshot: Object.fromEntries(changes.map((c) => [c.path, c.before])),
    result: {},
    createdDirs: foldersToCreate(root, changes),
    files: [],
    approved: false,
    warnings,
    ...(meta.revertOf ? { revertOf: meta.revertOf } : {}),
  };
  let pending: TransactionRecord = { ...record, owner, ...(worktree ? { worktree } : {}) };
  try {
    // The voucher first: recovery acts only on a record this repository's .git vouches for.
    vouch(root, uuid, io);
    writePending(root, pending, io);
  } catch (error) {
    return { status: 'rejected', uuid, error: { code: 'WRITE_FAILED', message: `${whatFailed(root, error)}. Nothing was changed.` } };
  }
  hooks.fault?.('pending-written');

  let settled = false;
  /** Undoes everything; a rollback that cannot finish leaves the pending record for the next command. */
  const rollback = async (reason: Failure): Promise<string | null> => {
    if (settled) return null;
    settled = true;
    try {
      await undoTransaction(root, pending, io);
      closeJournal(root, pending, io);
      hooks.onEvent?.({ type: 'rolled-back', uuid, reason });
      return null;
    } catch (error) {
      return `${describeFailure(root, error)}`;
    }
  };
  const rolledBack = async (code: string, message: string, files: readonly FileStat[]): Promise<TransactionOutcome> => {
    const problem = await rollback({ code, message });
    const text = problem === null ? message : `${message.replace(/[;,.]? ?every file was restored\.?/i, '')}; the rollback could not finish (${problem}): the next relay command finishes it.`;
    return { status: 'rolled-back', uuid, error: { code, message: text }, files };
  };

  let errorsBefore = 0;
  let hasLinter = configured(linterCommand);
  const touched = new Set(changes.map((c) => c.path));
  /**
   * The postCommand and the linter on the patched tree, then what they changed outside the answer
   * joins the snapshot and the journal narrows to it (so edits the person makes while deciding
   * are not undone). Returns the rolled-back outcome when the postCommand fails.
   */
  const settleCommands = async (): Promise<{ readonly done: TransactionOutcome } | { readonly linter: LinterVerdict | undefined }> => {
    if (configured(postCommand)) {
      const post = await run('postCommand', postCommand);
      hooks.fault?.('post-command-done');
      if (post.result.exitCode !== 0) {
        const files = statsNow(root, record, tickOwned);
        return { done: await rolledBack('POST_COMMAND_FAILED', `postCommand ${post.argv.join(' ')} failed (exit ${post.result.exitCode}); every file was restored.\n${tail(post.result.output)}`, files) };
      }
    }
    let linter: LinterVerdict | undefined;
    if (hasLinter) {
      const after = await run('linter', linterCommand);
      const errorsAfter = countLinterErrors(after.result.exitCode, after.result.output);
      linter = { errorsBefore, errorsAfter, added: Math.max(0, errorsAfter - errorsBefore), output: tail(after.result.output, 8000) };
      record.linter = { errorsBefore, errorsAfter, output: linter.output };
    }
    if (worktree) {
      const outside = (await changesSinceCapture(root, worktree.tree, stateDir(root), CAPTURE_EXCLUDE)).filter((c) => !touched.has(c.path));
      for (const change of outside) {
        // Only what an answer could write joins the record: a record naming anything else is
        // refused when read back (state.ts), so such a file is reported instead.
        if (!checkRelativePath(change.path, { tickOwned }).ok) {
          warnings.push(`A configured command changed ${change.path}, which Relay Desk never writes; it is not restored on rollback or revert.`);
          continue;
        }
        record.snapshot[change.path] = change.status === 'A' ? null : await capturedText(root, worktree.tree, change.path);
        touched.add(change.path);
      }
      const { worktree: _done, ...narrowed } = pending;
      pending = { ...narrowed, snapshot: record.snapshot, warnings };
      writePending(root, pending, io);
      worktree = undefined;
      hooks.fault?.('commands-settled');
    }
    return { linter };
  };

  try {
    if (configured(preCommand)) {
      const pre = await run('preCommand', preCommand);
      hooks.fault?.('pre-command-done');
      if (pre.result.exitCode !== 0) {
        const problem = await rollback({ code: 'PRE_COMMAND_FAILED', message: 'preCommand failed' });
        const message = `preCommand ${pre.argv.join(' ')} failed (exit ${pre.result.exitCode}); the answer was not written${problem ? `, and what the command changed could not be put back yet (${problem}): the next relay command does it` : ''}.\n${tail(pre.result.output)}`;
        return { status: 'rejected', uuid, error: { code: 'PRE_COMMAND_FAILED', message } };
      }
    }
    if (hasLinter) {
      const baseline = await run('linter', linterCommand);
      if (baseline.result.startFailed) {
        // Counting "1 error before, 1 after" for a missing program would pass every patch as linted.
        hasLinter = false;
        warnings.push(`The linter (${baseline.argv.join(' ')}) could not be started, so this patch was not linted: ${tail(baseline.result.output, 300)}`);
      } else errorsBefore = countLinterErrors(baseline.result.exitCode, baseline.result.output);
    }

    changes.forEach((change, index) => {
      writeProjectFile(root, uuid, change.path, change.after, io, true);
      hooks.fault?.(`file-written:${index}`);
    });
    hooks.fault?.('all-written');

    // Code the answer wrote runs only after a person approved the diff.
    let linter: LinterVerdict | undefined;
    if (executes.length === 0) {
      const settledCommands = await settleCommands();
      if ('done' in settledCommands) return settledCommands.done;
      linter = settledCommands.linter;
    }

    let files = statsNow(root, record, tickOwned);
    hooks.onEvent?.({ type: 'applied', uuid, files });

    const autoApprove = executes.length === 0 && config.patch.approvalMode === 'auto' && (linter?.added ?? 0) <= config.patch.approvalOnErrorCount;
    let decision: Decision;
    let by: 'auto' | 'user' = 'auto';
    if (autoApprove) {
      decision = { approve: true };
    } else {
      by = 'user';
      const review: PendingReview = {
        uuid,
        projectId: meta.projectId,
        root,
        reasoning: meta.reasoning,
        warnings,
        files: files.map((f) => ({ ...f, diff: unifiedDiff(f.path, record.snapshot[f.path] ?? null, readInsideRoot(root, f.path, { tickOwned })) })),
        reason: executes.length > 0 ? 'executes-patched-code' : config.patch.approvalMode === 'manual' ? 'manual-mode' : 'linter-errors',
        ...(executes.length > 0 ? { executes } : {}),
        ...(meta.gitCommitMsg ? { gitCommitMsg: meta.gitCommitMsg } : {}),
        ...(meta.promptSummary ? { promptSummary: meta.promptSummary } : {}),
        ...(linter ? { linter } : {}),
      };
      hooks.onEvent?.({ type: 'waiting-approval', review });
      decision = await request.decide(review);
    }

    if (!decision.approve) {
      return await rolledBack('REJECTED', decision.reason ? `Rejected: ${decision.reason}` : 'Rejected; every file was restored.', files);
    }

    if (executes.length > 0 && decision.unseen === true && meta.revertOf === undefined) {
      // --yes approves files nobody looked at; it never approves code the commands would run, now
      // or at the next patch (the baseline linter and preCommand run on this tree). A revert
      // confirmed by name is let through below (it puts back earlier content), commands skipped.
      return await rolledBack(
        'REVIEW_REQUIRED',
        `This answer changes ${executes.map((e) => `${e.path} (${e.why})`).join('; ')}. Your configured commands would run that code, and it was approved without anyone seeing the diff (--yes), so it was not kept: every file was restored and no command ran it. Apply it without --yes in a terminal, or in the app, to review the diff.`,
        files,
      );
    }

    const keep = new Set(decision.keep ?? [...touched]);
    // Partial approval: a file the person unchecked goes back to its snapshot.
    const dropped = [...touched].filter((p) => !keep.has(p) && files.some((f) => f.path === p));
    for (const file of dropped) restoreProjectFile(root, uuid, file, record.snapshot[file] ?? null, io);
    removeEmptyFolders(root, record.createdDirs);
    if (files.every((f) => dropped.includes(f.path))) {
      return await rolledBack('REJECTED', 'No file was kept; every file was restored.', files);
    }

    if (executes.length > 0) {
      if (decision.unseen === true) {
        // A revert confirmed by name puts earlier content back; it is kept, but not run unseen.
        if (configured(postCommand) || hasLinter) warnings.push(`The postCommand and linter were not run: this revert changes ${executes.map((e) => e.path).join(', ')}, which they would execute, and nobody looked at its diff. Review it, then run them yourself.`);
      } else {
        const settledCommands = await settleCommands();
        if ('done' in settledCommands) return settledCommands.done;
        linter = settledCommands.linter;
        if (linter && linter.added > 0) warnings.push(`The linter, run after your approval, reports ${linter.added} new error(s).`);
      }
      files = statsNow(root, record, tickOwned);
    }
    const keptFiles = files.filter((f) => !dropped.includes(f.path));

    let branch: string | undefined;
    if (config.git.autoGitBranch) {
      const from = (await isGitRepo(root)) ? await symbolicHead(root) : null;
      branch = await switchToPatchBranch(root, config, uuid, meta.gitCommitMsg, warnings, (name) => {
        // Written down before the switch: recovery puts HEAD back on `from`.
        if (from) writePending(root, (pending = { ...pending, branch: name, branchFrom: from }), io);
      });
      hooks.fault?.('branch-switched');
    }

    const { owner: _owner, worktree: _worktree, branchFrom: _from, branch: _branch, ...base } = pending;
    const committed: TransactionRecord = {
      ...base,
      snapshot: record.snapshot,
      ...(record.linter ? { linter: record.linter } : {}),
      warnings,
      approved: true,
      files: keptFiles,
      result: Object.fromEntries([...touched].filter((p) => !dropped.includes(p)).map((p) => [p, readInsideRoot(root, p, { tickOwned })])),
      decision: { by, kept: keptFiles.map((f) => f.path), rolledBack: dropped },
      ...(branch ? { branch } : {}),
    };
    const cleanup = commitTransaction(root, committed, io, () => hooks.fault?.('record-committed'));
    settled = true;
    if (cleanup) warnings.push(cleanup);
    hooks.onEvent?.({ type: 'committed', uuid, files: keptFiles });
    return {
      status: 'applied',
      uuid,
      files: keptFiles,
      rolledBack: dropped,
      approvedBy: by,
      warnings,
      ...(branch ? { branch } : {}),
      ...(linter ? { linter } : {}),
    };
  } catch (error) {
    if (settled) throw error;
    return await rolledBack(error instanceof FileWriteError ? 'WRITE_FAILED' : 'TRANSACTION_FAILED', `${whatFailed(root, error)}. Every file was restored.`, statsNow(root, record, tickOwned));
  }
}

function tail(text: string, max = 2000): string {
  return text.length <= max ? text.trim() : `…${text.slice(text.length - max).trim()}`;
}

/** What each touched file looks like now, read through the path chokepoint. */
function statsNow(root: string, record: TransactionRecord, tickOwned: readonly string[]): FileStat[] {
  return Object.entries(record.snapshot)
    .map(([file, before]) => fileStat(file, before, readInsideRoot(root, file, { tickOwned })))
    .filter((s) => s.added + s.removed > 0 || s.change !== 'modify');
}

/** The folders that writing these changes will create, outermost first. */
function foldersToCreate(root: string, changes: readonly PlannedChange[]): string[] {
  const folders = new Set<string>();
  for (const change of changes) {
    if (change.after === null) continue;
    let dir = path.posix.dirname(change.path);
    while (dir !== '.' && dir !== '' && !existsSync(path.join(root, dir))) {
      folders.add(dir);
      dir = path.posix.dirname(dir);
    }
  }
  return [...folders].sort((a, b) => a.length - b.length);
}

async function switchToPatchBranch(root: string, config: RelayConfig, uuid: string, message: string | undefined, warnings: string[], beforeSwitch: (name: string) => void): Promise<string | undefined> {
  if (!(await isGitRepo(root))) {
    warnings.push('autoGitBranch is on but the project is not a git repository; no branch was created.');
    return undefined;
  }
  const base = config.git.gitBranchTemplate === 'gitCommitMsg' && message ? slug(message) : uuid.slice(0, 8);
  const wanted = `${config.git.gitBranchPrefix}${base || uuid.slice(0, 8)}`;
  // Assistants repeat commit messages ("fix: typo"); a taken name gets a number, not a failure.
  let name = wanted;
  for (let n = 2; (await refExists(root, `refs/heads/${name}`)) && n < 100; n += 1) name = `${wanted}-${n}`;
  if (!(await isValidBranchName(root, name))) {
    warnings.push(`Branch name ${name} is not valid for git; no branch was created.`);
    return undefined;
  }
  beforeSwitch(name);
  try {
    await createBranch(root, name);
    return name;
  } catch (error) {
    warnings.push(`Could not create branch ${name}: ${(error as Error).message}`);
    return undefined;
  }
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/g, '');
}

export { randomUUID as newTransactionId };
