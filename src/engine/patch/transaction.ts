import { randomUUID } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, rmdirSync } from 'node:fs';
import path from 'node:path';
import { tickOwnedPaths } from '../fs/protected.js';
import { readInsideRoot, removeInsideRoot, writeInsideRoot } from '../fs/project-write.js';
import { isDeviceName } from '../fs/path-names.js';
import { checkRelativePath, resolveInsideRoot } from '../fs/safe-path.js';
import { filesCommandsExecute, type ExecutedFile } from './code-files.js';
import { STATE_DIR, loadRelayConfig, type RelayConfig } from './config.js';
import { countLinterErrors, execaRunner, toArgv, type CommandRunner } from './commands.js';
import { acquireProjectLock } from './lock.js';
import { planAnswer, readAnswer, type PatchRefusal } from './check.js';
import { intakeAnswer } from './intake.js';
import type { PlannedChange } from './plan.js';
import { replyFor } from './reply.js';
import { captureOutsideChanges, type OutsideCapture } from './outside-changes.js';
import {
  commitRecord,
  committedPath,
  findByContentHash,
  checkStateFolder,
  hasCommitted,
  listPending,
  loadRecord,
  pendingPath,
  removePending,
  writePending,
  type FileStat,
  type TransactionRecord,
} from './state.js';
import { fileStat, unifiedDiff } from './summary.js';
import type { FileOperation } from './types.js';
import { createBranch, isValidBranchName } from '../git/commit.js';
import { isGitRepo } from '../git/core.js';
import { refExists } from '../git/branch.js';
import { currentOwner, ownerIsGone, type ProcessOwner } from '../fs/process.js';
import type { Failure } from '../result.js';

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

export interface Recovery {
  readonly uuid: string;
  readonly restored: readonly string[];
  /**
   * Set when the pending record was not (completely) acted on: it is damaged, names a path an
   * answer could never write, or a file could not be restored. The record stays in place.
   */
  readonly refused?: Failure;
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
export type FaultPoint = 'pending-written' | `file-written:${number}` | 'all-written' | 'record-committed';

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
}

export interface ApplyPatchRequest {
  readonly root: string;
  /** The answer: bytes as read from a file or stdin, or text from the clipboard; both pass the intake checks. */
  readonly text: string | Uint8Array;
  readonly source: PatchSource;
  readonly decide: (review: PendingReview) => Promise<Decision>;
  readonly config?: RelayConfig;
}

/**
 * Applies an assistant's answer to the project as one transaction: parse → check projectId and
 * duplicates → plan in memory → pending record → write → post command and linter → approval →
 * commit the record, or roll every file back.
 */
export async function applyPatch(request: ApplyPatchRequest, hooks: PatchHooks = {}): Promise<PatchOutcome> {
  const { root } = request;
  const configResult = request.config ? { ok: true as const, value: request.config } : loadRelayConfig(root);
  if (!configResult.ok) return { status: 'rejected', error: configResult.error, recovered: [] };
  const config = configResult.value;
  const folder = checkStateFolder(root);
  if (!folder.ok) return { status: 'rejected', error: folder.error, recovered: [] };
  const intake = intakeAnswer(request.text, { maxBytes: config.patch.maxAnswerBytes, maxLineBytes: config.patch.maxLineBytes });
  if (!intake.ok) return { status: 'rejected', error: { ...intake.error, reply: replyFor(intake.error) }, recovered: [] };
  const text = intake.value;
  const lock = acquireProjectLock(root, now(hooks));
  if ('heldBy' in lock) return { status: 'rejected', error: busy(lock.heldBy), recovered: [] };
  try {
    const recovered = recoverPendingUnlocked(root, hooks);
    // An answer without a control block is for this project; its uuid comes from its content.
    const read = readAnswer(root, text, { projectId: config.projectId });
    if (!read.ok) return { status: 'rejected', error: read.error, recovered };
    const answer = read.value;
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
    if (uuid !== base) warnings.push(`The assistant reused uuid ${answer.uuid} for a different answer; recorded as ${uuid}.`);
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
    lock.release();
  }
}

function busy(owner: ProcessOwner): Failure {
  return {
    code: 'PROJECT_BUSY',
    message: `Another Relay Desk process (pid ${owner.pid}) is running a transaction in this project. Wait for it to finish (or approve/reject it), then try again.`,
  };
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

/**
 * Writes planned changes as one transaction (the caller holds the project lock). Shared by
 * applying a response and by reverting one.
 */
export async function runTransaction(request: TransactionRequest, hooks: PatchHooks = {}): Promise<TransactionOutcome> {
  const { root, config, uuid, changes, meta } = request;
  const runCommand = hooks.runCommand ?? execaRunner;
  const timeoutMs = hooks.commandTimeoutMs ?? 10 * 60_000;
  const commandOptions = { cwd: root, timeoutMs, ...(hooks.signal ? { signal: hooks.signal } : {}) };
  const run = async (which: 'preCommand' | 'postCommand' | 'linter', command: string | readonly string[]) => {
    const argv = toArgv(command);
    if (!argv.ok) return { argv: [] as string[], result: { exitCode: 1, output: argv.error.message, timedOut: false } };
    const result = await runCommand(argv.value, commandOptions);
    hooks.onEvent?.({ type: 'command', uuid, which, argv: argv.value, exitCode: result.exitCode });
    return { argv: argv.value, result };
  };
  const configured = (c: string | readonly string[]) => (Array.isArray(c) ? c.length > 0 : (c as string).trim() !== '');
  const tickOwned = tickOwnedPaths(root);
  // Files of this patch that the configured commands would execute (lint.js, package.json…).
  const commandArgvs = [config.patch.preCommand, config.patch.postCommand, config.patch.linter].filter(configured).flatMap((c) => {
    const argv = toArgv(c);
    return argv.ok ? [argv.value] : [];
  });
  const executes = filesCommandsExecute(root, commandArgvs, changes.map((c) => c.path));

  if (configured(config.patch.preCommand)) {
    const pre = await run('preCommand', config.patch.preCommand);
    if (pre.result.exitCode !== 0) {
      return { status: 'rejected', uuid, error: { code: 'PRE_COMMAND_FAILED', message: `preCommand ${pre.argv.join(' ')} failed (exit ${pre.result.exitCode}); nothing was written.\n${tail(pre.result.output)}` } };
    }
  }
  let errorsBefore = 0;
  let hasLinter = configured(config.patch.linter);
  const lintWarnings: string[] = [];
  if (hasLinter) {
    const baseline = await run('linter', config.patch.linter);
    if (baseline.result.startFailed) {
      // Counting "1 error before, 1 after" for a missing program would pass every patch as linted.
      hasLinter = false;
      lintWarnings.push(`The linter (${baseline.argv.join(' ')}) could not be started, so this patch was not linted: ${tail(baseline.result.output, 300)}`);
    } else errorsBefore = countFromRun(baseline);
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
    warnings: [...meta.warnings, ...lintWarnings],
    ...(meta.revertOf ? { revertOf: meta.revertOf } : {}),
  };
  const pending: TransactionRecord = { ...record, owner: currentOwner(now(hooks)) };
  writePending(root, pending);
  hooks.fault?.('pending-written');

  let rolledBack = false;
  const rollback = (reason: Failure): void => {
    if (rolledBack) return;
    rolledBack = true;
    const restore = restoreSnapshot(root, record);
    // A file the chokepoint now refuses (a link planted mid-transaction) keeps the record for the user.
    if (restore.refused.length === 0) removePending(root, uuid);
    hooks.onEvent?.({ type: 'rolled-back', uuid, reason });
  };

  /**
   * The postCommand (with the files it changes captured for rollback) and the linter, on the
   * patched tree. Returns the rolled-back outcome when the postCommand fails.
   */
  const runAfterWrite = async (touched: Set<string>): Promise<{ done: TransactionOutcome } | { linter: LinterVerdict | undefined }> => {
    if (configured(config.patch.postCommand)) {
      const capture: OutsideCapture | null = (await isGitRepo(root)) ? await captureOutsideChanges(root, touched) : null;
      const post = await run('postCommand', config.patch.postCommand);
      if (capture) {
        const extra = await capture.changedSince();
        for (const [file, before] of extra) {
          // Only what an answer could write is restored on rollback (the chokepoint's rules).
          if (!checkRelativePath(file, { tickOwned }).ok) {
            record.warnings.push(`postCommand changed ${file}, which Relay Desk never writes; it is not restored on rollback.`);
            continue;
          }
          record.snapshot[file] = before;
          touched.add(file);
        }
        if (extra.size > 0) writePending(root, { ...pending, snapshot: record.snapshot });
      }
      if (post.result.exitCode !== 0) {
        const error: Failure = { code: 'POST_COMMAND_FAILED', message: `postCommand ${post.argv.join(' ')} failed (exit ${post.result.exitCode}); every file was restored.\n${tail(post.result.output)}` };
        const files = statsNow(root, record, tickOwned);
        rollback(error);
        return { done: { status: 'rolled-back', uuid, error, files } };
      }
    }
    if (!hasLinter) return { linter: undefined };
    const after = await run('linter', config.patch.linter);
    const errorsAfter = countLinterErrors(after.result.exitCode, after.result.output);
    const linter = { errorsBefore, errorsAfter, added: Math.max(0, errorsAfter - errorsBefore), output: tail(after.result.output, 8000) };
    record.linter = { errorsBefore, errorsAfter, output: linter.output };
    return { linter };
  };

  try {
    changes.forEach((change, index) => {
      writeChange(root, change.path, change.after, tickOwned);
      hooks.fault?.(`file-written:${index}`);
    });
    hooks.fault?.('all-written');
    const touched = new Set(changes.map((c) => c.path));

    // Code the answer wrote runs only after a person approved the diff (code-files.ts).
    let linter: LinterVerdict | undefined;
    if (executes.length === 0) {
      const ran = await runAfterWrite(touched);
      if ('done' in ran) return ran.done;
      linter = ran.linter;
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
        warnings: record.warnings,
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
      const error: Failure = { code: 'REJECTED', message: decision.reason ? `Rejected: ${decision.reason}` : 'Rejected; every file was restored.' };
      rollback(error);
      return { status: 'rolled-back', uuid, error, files };
    }

    if (executes.length > 0 && decision.unseen === true && meta.revertOf === undefined) {
      // --yes approves files nobody looked at; it never approves code the commands would run, now
      // or at the next patch (the baseline linter and preCommand run on this tree). A revert
      // confirmed by name is let through below (it puts back earlier content), commands skipped.
      const error: Failure = {
        code: 'REVIEW_REQUIRED',
        message: `This answer changes ${executes.map((e) => `${e.path} (${e.why})`).join('; ')}. Your configured commands would run that code, and it was approved without anyone seeing the diff (--yes), so it was not kept: every file was restored and no command ran it. Apply it without --yes in a terminal, or in the app, to review the diff.`,
      };
      rollback(error);
      return { status: 'rolled-back', uuid, error, files };
    }

    const keep = new Set(decision.keep ?? [...touched]);
    // Partial approval: a file the person unchecked goes back to its snapshot.
    const dropped = [...touched].filter((p) => !keep.has(p) && files.some((f) => f.path === p));
    for (const file of dropped) writeChange(root, file, record.snapshot[file] ?? null, tickOwned);
    removeEmptyFolders(root, record.createdDirs);
    if (files.every((f) => dropped.includes(f.path))) {
      const error: Failure = { code: 'REJECTED', message: 'No file was kept; every file was restored.' };
      rollback(error);
      return { status: 'rolled-back', uuid, error, files };
    }

    if (executes.length > 0) {
      const commands = [config.patch.postCommand, config.patch.linter].filter(configured);
      if (decision.unseen === true) {
        // A revert confirmed by name puts earlier content back; it is kept, but not run unseen.
        if (commands.length > 0) record.warnings.push(`The postCommand and linter were not run: this revert changes ${executes.map((e) => e.path).join(', ')}, which they would execute, and nobody looked at its diff. Review it, then run them yourself.`);
      } else {
        const ran = await runAfterWrite(touched);
        if ('done' in ran) return ran.done;
        linter = ran.linter;
        if (linter && linter.added > 0) record.warnings.push(`The linter, run after your approval, reports ${linter.added} new error(s).`);
      }
      files = statsNow(root, record, tickOwned);
    }
    const keptFiles = files.filter((f) => !dropped.includes(f.path));

    let branch: string | undefined;
    if (config.git.autoGitBranch) branch = await switchToPatchBranch(root, config, uuid, meta.gitCommitMsg, record.warnings);

    const committed: TransactionRecord = {
      ...record,
      approved: true,
      files: keptFiles,
      result: Object.fromEntries([...touched].filter((p) => !dropped.includes(p)).map((p) => [p, readInsideRoot(root, p, { tickOwned })])),
      decision: { by, kept: keptFiles.map((f) => f.path), rolledBack: dropped },
      ...(branch ? { branch } : {}),
    };
    commitRecord(root, committed);
    hooks.fault?.('record-committed');
    hooks.onEvent?.({ type: 'committed', uuid, files: keptFiles });
    return {
      status: 'applied',
      uuid,
      files: keptFiles,
      rolledBack: dropped,
      approvedBy: by,
      warnings: record.warnings,
      ...(branch ? { branch } : {}),
      ...(linter ? { linter } : {}),
    };
  } catch (error) {
    const failure: Failure = { code: 'TRANSACTION_FAILED', message: `The transaction failed and every file was restored: ${(error as Error).message}` };
    rollback(failure);
    return { status: 'rolled-back', uuid, error: failure, files: [] };
  }
}

function countFromRun(run: { result: { exitCode: number; output: string } }): number {
  return countLinterErrors(run.result.exitCode, run.result.output);
}

function tail(text: string, max = 2000): string {
  return text.length <= max ? text.trim() : `…${text.slice(text.length - max).trim()}`;
}


function statsNow(root: string, record: TransactionRecord, tickOwned: readonly string[]): FileStat[] {
  return Object.entries(record.snapshot)
    .map(([file, before]) => fileStat(file, before, readInsideRoot(root, file, { tickOwned })))
    .filter((s) => s.added + s.removed > 0 || s.change !== 'modify');
}

/**
 * Writes (or deletes, for null) one file atomically, creating folders as needed, through the path
 * chokepoint (checked again now, not only when planned). A refusal throws: the transaction rolls back.
 */
function writeChange(root: string, file: string, content: string | null, tickOwned: readonly string[]): void {
  const done = content === null ? removeInsideRoot(root, file, { tickOwned }) : writeInsideRoot(root, file, content, { tickOwned });
  if (!done.ok) throw new Error(`${done.error.code}: ${done.error.message}`);
  if (content === null) removeEmptyParents(root, path.posix.dirname(file));
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

/** Removes one folder if it is empty; only a real folder inside the project (never through a link). */
function removeIfEmpty(root: string, dir: string): boolean {
  const where = resolveInsideRoot(root, dir, { purpose: 'cleanup' });
  if (!where.ok) return false;
  try {
    if (readdirSync(where.value.absolute).length > 0) return false;
    rmdirSync(where.value.absolute); // fails on a link: rmdir never follows one
    return true;
  } catch {
    return false;
  }
}

function removeEmptyParents(root: string, dir: string): void {
  for (let current = dir; current !== '.' && current !== ''; current = path.posix.dirname(current)) {
    if (!removeIfEmpty(root, current)) return;
  }
}

function removeEmptyFolders(root: string, folders: readonly string[]): void {
  for (const dir of [...folders].sort((a, b) => b.length - a.length)) removeIfEmpty(root, dir);
}

/** What putting a record's files back did: the files restored, and the ones the chokepoint refused. */
export interface RestoreResult {
  readonly restored: string[];
  readonly refused: Failure[];
}

/**
 * Puts every file of the record back as it was before the transaction. Each path goes through
 * the chokepoint; one it refuses is left alone and reported, and the rest are still restored.
 */
export function restoreSnapshot(root: string, record: Pick<TransactionRecord, 'snapshot' | 'createdDirs'>): RestoreResult {
  const tickOwned = tickOwnedPaths(root);
  const restored: string[] = [];
  const refused: Failure[] = [];
  for (const [file, before] of Object.entries(record.snapshot)) {
    const current = readInsideRoot(root, file, { tickOwned });
    if (current === before) continue;
    const done = before === null ? removeInsideRoot(root, file, { tickOwned }) : writeInsideRoot(root, file, before, { tickOwned });
    if (!done.ok) {
      refused.push(done.error);
      continue;
    }
    if (before === null) removeEmptyParents(root, path.posix.dirname(file));
    restored.push(file);
  }
  removeEmptyFolders(root, record.createdDirs);
  return { restored, refused };
}

/**
 * Rolls back transactions left pending by a process that died (crash, SIGKILL, power loss).
 * Pending records whose owner still runs are left alone. A record that is damaged or names a
 * path an answer could never write is not acted on at all: it stays where it is and is reported
 * (once per call), and recovery goes on with the others. Call it holding the project lock.
 */
function recoverPendingUnlocked(root: string, hooks: PatchHooks): Recovery[] {
  const recovered: Recovery[] = [];
  const report = (recovery: Recovery): void => {
    recovered.push(recovery);
    hooks.onEvent?.({ type: 'recovered', recovery });
  };
  for (const uuid of listPending(root)) {
    if (existsSync(committedPath(root, uuid))) {
      removePending(root, uuid); // the commit finished; only the cleanup was interrupted
      continue;
    }
    const loaded = loadRecord(pendingPath(root, uuid));
    if (!loaded.ok) {
      report({ uuid, restored: [], refused: loaded.error });
      continue;
    }
    const record = loaded.value;
    if (record.owner && !ownerIsGone(record.owner)) continue;
    const { restored, refused } = restoreSnapshot(root, record);
    if (refused.length > 0) {
      const file = `${STATE_DIR}/${uuid}.pending.yml`;
      const message = `The interrupted transaction ${file} could not be rolled back completely: ${refused.map((f) => f.message).join(' ')} Restored: ${restored.join(', ') || 'nothing'}. The record was left in place.`;
      report({ uuid, restored, refused: { code: 'RECORD_UNSAFE_PATH', message, path: file } });
      continue;
    }
    removePending(root, uuid);
    report({ uuid, restored });
  }
  return recovered;
}

/**
 * Rolls back interrupted transactions of a project (what every `relay` command does first).
 * `unsafe`: `.relaycode` is a link or not a folder, so nothing in it is trusted or touched.
 */
export function recoverPending(root: string, hooks: PatchHooks = {}): Recovery[] | { busy: Failure } | { unsafe: Failure } {
  if (!existsSync(path.join(root, STATE_DIR)) && !isLink(path.join(root, STATE_DIR))) return [];
  const folder = checkStateFolder(root);
  if (!folder.ok) return { unsafe: folder.error };
  const lock = acquireProjectLock(root, now(hooks));
  if ('heldBy' in lock) return { busy: busy(lock.heldBy) };
  try {
    return recoverPendingUnlocked(root, hooks);
  } finally {
    lock.release();
  }
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

async function switchToPatchBranch(root: string, config: RelayConfig, uuid: string, message: string | undefined, warnings: string[]): Promise<string | undefined> {
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
export { responseHash } from './check.js';
