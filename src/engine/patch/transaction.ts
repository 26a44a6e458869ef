import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { readTextOrNull } from '../fs/read.js';
import { loadRelayConfig, type RelayConfig } from './config.js';
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
  hasCommitted,
  listPending,
  pendingPath,
  readRecord,
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
import { writeFileAtomic } from '../fs/atomic.js';
import { currentOwner, ownerIsGone, type ProcessOwner } from '../fs/process.js';
import type { Failure } from '../result.js';

export type PatchSource = 'clipboard' | 'paste' | 'file';

/** What the person (or the policy) decided about an applied, pending patch. */
export type Decision =
  | { readonly approve: true; /** Paths to keep; the rest are rolled back. All when omitted. */ readonly keep?: readonly string[] }
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
  /** Why the policy did not approve on its own. */
  readonly reason: 'manual-mode' | 'linter-errors';
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
    let uuid = answer.uuid;
    for (let n = 2; hasCommitted(root, uuid) || existsSync(pendingPath(root, uuid)); n += 1) uuid = `${answer.uuid}-${n}`;
    if (uuid !== answer.uuid) warnings.push(`The assistant reused uuid ${answer.uuid} for a different answer; recorded as ${uuid}.`);
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
    restoreSnapshot(root, record);
    removePending(root, uuid);
    hooks.onEvent?.({ type: 'rolled-back', uuid, reason });
  };

  try {
    changes.forEach((change, index) => {
      writeChange(root, change.path, change.after);
      hooks.fault?.(`file-written:${index}`);
    });
    hooks.fault?.('all-written');
    const touched = new Set(changes.map((c) => c.path));

    if (configured(config.patch.postCommand)) {
      const capture: OutsideCapture | null = (await isGitRepo(root)) ? await captureOutsideChanges(root, touched) : null;
      const post = await run('postCommand', config.patch.postCommand);
      if (capture) {
        const extra = await capture.changedSince();
        for (const [file, before] of extra) {
          record.snapshot[file] = before;
          touched.add(file);
        }
        if (extra.size > 0) writePending(root, { ...pending, snapshot: record.snapshot });
      }
      if (post.result.exitCode !== 0) {
        const error: Failure = { code: 'POST_COMMAND_FAILED', message: `postCommand ${post.argv.join(' ')} failed (exit ${post.result.exitCode}); every file was restored.\n${tail(post.result.output)}` };
        const files = statsNow(root, record);
        rollback(error);
        return { status: 'rolled-back', uuid, error, files };
      }
    }

    let linter: LinterVerdict | undefined;
    if (hasLinter) {
      const after = await run('linter', config.patch.linter);
      const errorsAfter = countLinterErrors(after.result.exitCode, after.result.output);
      linter = { errorsBefore, errorsAfter, added: Math.max(0, errorsAfter - errorsBefore), output: tail(after.result.output, 8000) };
      record.linter = { errorsBefore, errorsAfter, output: linter.output };
    }

    const files = statsNow(root, record);
    hooks.onEvent?.({ type: 'applied', uuid, files });

    const autoApprove = config.patch.approvalMode === 'auto' && (linter?.added ?? 0) <= config.patch.approvalOnErrorCount;
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
        files: files.map((f) => ({ ...f, diff: unifiedDiff(f.path, record.snapshot[f.path] ?? null, readTextOrNull(root, f.path)) })),
        reason: config.patch.approvalMode === 'manual' ? 'manual-mode' : 'linter-errors',
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

    const keep = new Set(decision.keep ?? [...touched]);
    // Partial approval: a file the person unchecked goes back to its snapshot.
    const dropped = [...touched].filter((p) => !keep.has(p) && files.some((f) => f.path === p));
    for (const file of dropped) writeChange(root, file, record.snapshot[file] ?? null);
    removeEmptyFolders(root, record.createdDirs);
    const keptFiles = files.filter((f) => !dropped.includes(f.path));
    if (keptFiles.length === 0) {
      const error: Failure = { code: 'REJECTED', message: 'No file was kept; every file was restored.' };
      rollback(error);
      return { status: 'rolled-back', uuid, error, files };
    }

    let branch: string | undefined;
    if (config.git.autoGitBranch) branch = await switchToPatchBranch(root, config, uuid, meta.gitCommitMsg, record.warnings);

    const committed: TransactionRecord = {
      ...record,
      approved: true,
      files: keptFiles,
      result: Object.fromEntries([...touched].filter((p) => !dropped.includes(p)).map((p) => [p, readTextOrNull(root, p)])),
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


function statsNow(root: string, record: TransactionRecord): FileStat[] {
  return Object.entries(record.snapshot)
    .map(([file, before]) => fileStat(file, before, readTextOrNull(root, file)))
    .filter((s) => s.added + s.removed > 0 || s.change !== 'modify');
}

/** Writes (or deletes, for null) one file atomically, creating folders as needed. */
function writeChange(root: string, file: string, content: string | null): void {
  const absolute = path.join(root, file);
  if (content === null) {
    rmSync(absolute, { force: true });
    removeEmptyParents(root, path.dirname(file));
    return;
  }
  if (existsSync(absolute) && readFileSync(absolute, 'utf8') === content) return;
  const mode = existsSync(absolute) ? statSync(absolute).mode & 0o777 : undefined;
  writeFileAtomic(absolute, content, mode === undefined ? {} : { mode });
}

/** The folders that writing these changes will create, outermost first. */
function foldersToCreate(root: string, changes: readonly PlannedChange[]): string[] {
  const folders = new Set<string>();
  for (const change of changes) {
    if (change.after === null) continue;
    let dir = path.dirname(change.path);
    while (dir !== '.' && dir !== '' && !existsSync(path.join(root, dir))) {
      folders.add(dir);
      dir = path.dirname(dir);
    }
  }
  return [...folders].sort((a, b) => a.length - b.length);
}

function removeEmptyParents(root: string, dir: string): void {
  let current = dir;
  while (current !== '.' && current !== '') {
    const absolute = path.join(root, current);
    try {
      if (readdirSync(absolute).length > 0) return;
      rmdirSync(absolute);
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}

function removeEmptyFolders(root: string, folders: readonly string[]): void {
  for (const dir of [...folders].sort((a, b) => b.length - a.length)) {
    try {
      if (readdirSync(path.join(root, dir)).length === 0) rmdirSync(path.join(root, dir));
    } catch {
      // already gone
    }
  }
}

/** Puts every file of the record back as it was before the transaction. */
export function restoreSnapshot(root: string, record: Pick<TransactionRecord, 'snapshot' | 'createdDirs'>): string[] {
  const restored: string[] = [];
  for (const [file, before] of Object.entries(record.snapshot)) {
    const current = readTextOrNull(root, file);
    if (current === before) continue;
    writeChange(root, file, before);
    restored.push(file);
  }
  removeEmptyFolders(root, record.createdDirs);
  return restored;
}

/**
 * Rolls back transactions left pending by a process that died (crash, SIGKILL, power loss).
 * Pending records whose owner still runs are left alone. Call it holding the project lock.
 */
function recoverPendingUnlocked(root: string, hooks: PatchHooks): Recovery[] {
  const recovered: Recovery[] = [];
  for (const uuid of listPending(root)) {
    if (existsSync(committedPath(root, uuid))) {
      removePending(root, uuid); // the commit finished; only the cleanup was interrupted
      continue;
    }
    let record: TransactionRecord;
    try {
      record = readRecord(pendingPath(root, uuid));
    } catch {
      continue;
    }
    if (record.owner && !ownerIsGone(record.owner)) continue;
    const restored = restoreSnapshot(root, record);
    removePending(root, uuid);
    const recovery = { uuid, restored };
    recovered.push(recovery);
    hooks.onEvent?.({ type: 'recovered', recovery });
  }
  return recovered;
}

/** Rolls back interrupted transactions of a project (what every `relay` command does first). */
export function recoverPending(root: string, hooks: PatchHooks = {}): Recovery[] | { busy: Failure } {
  if (!existsSync(path.join(root, '.relaycode'))) return [];
  const lock = acquireProjectLock(root, now(hooks));
  if ('heldBy' in lock) return { busy: busy(lock.heldBy) };
  try {
    return recoverPendingUnlocked(root, hooks);
  } finally {
    lock.release();
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
