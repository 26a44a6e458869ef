// The files of truth as history rows, for the store's indexer and for a run not indexed yet:
// every run of a project, the runs one changed file of truth stands for, a run by its id, and a
// run's detail. Each kind is read by its own reader (transactions, ticks, answers, handoffs).
import type { RunDetail } from '../../shared/contract.js';
import type { RunKind } from '../../shared/schemas.js';
import { assertNever, fail, type Result } from '../result.js';
import { answerDetail, answerOfName, answerRun, loadAnswers, readAnswer } from './answers.js';
import type { RecordKind } from './folders.js';
import { briefOfName, handoffDetail, handoffRun, listBriefIds, readBriefText } from './handoffs.js';
import type { Skipped } from './own-files.js';
import { parseRunId, runId, type IndexedRun } from './rows.js';
import { tickDetail, tickRun } from './tick-summary.js';
import { readTickFiles, scanTicks, TICK_RUN_ID } from './ticks.js';
import { transactionDetail } from './transaction-detail.js';
import { transactionRun } from './transaction-summary.js';
import { readTransaction, scanTransactions, transactionOfName, type DamagedRecord } from './transactions.js';

/** A registered project: its id and folder. */
export interface ProjectRef {
  readonly projectId: string;
  readonly root: string;
}

/** Every run the project's files of truth hold, how many of each kind, and what could not be read. */
export interface ProjectRuns {
  readonly runs: IndexedRun[];
  readonly patches: number;
  readonly ticks: number;
  readonly skipped: Skipped[];
}

function damagedAsSkipped(root: string, damaged: readonly DamagedRecord[]): Skipped[] {
  return damaged.map((d) => ({ file: d.file.startsWith(`${root}/`) ? d.file.slice(root.length + 1) : d.file, reason: d.reason }));
}

/** Reads every file of truth of the project as history rows. */
export function readProjectRuns(project: ProjectRef): ProjectRuns {
  const { projectId, root } = project;
  const transactions = scanTransactions(root);
  const ticks = scanTicks(root);
  const answers = loadAnswers(root);
  const briefs = listBriefIds(root).flatMap((id) => {
    const markdown = readBriefText(root, id);
    return markdown === null ? [] : [handoffRun(projectId, id, markdown)];
  });
  const patchRuns = transactions.transactions.map((t) => transactionRun(projectId, t));
  const tickRuns = ticks.ticks.map((t) => tickRun(projectId, t));
  return {
    runs: [...patchRuns, ...tickRuns, ...answers.answers.map((a) => answerRun(projectId, a)), ...briefs],
    patches: patchRuns.length,
    ticks: tickRuns.length,
    skipped: [...damagedAsSkipped(root, transactions.damaged), ...ticks.skipped, ...answers.skipped.map((s) => ({ file: s.path, reason: s.reason }))],
  };
}

/** How each record folder names its records (a typed table: a new kind fails to compile until it is here). */
const KEY_OF_NAME: Readonly<Record<RecordKind, (name: string) => string | null>> = {
  transaction: (name) => transactionOfName(name)?.uuid ?? null,
  tick: (name) => (TICK_RUN_ID.test(name) ? name : null),
  answer: answerOfName,
  handoff: briefOfName,
};

/** The record a changed file name in one of the record folders belongs to (null: not a record's file). */
export function recordKeyOfName(kind: RecordKind, name: string): string | null {
  return KEY_OF_NAME[kind](name);
}

/** What one record's files say now: the rows to write, and the ids of rows whose file is gone. */
export interface RecordRuns {
  readonly runs: IndexedRun[];
  readonly gone: string[];
  readonly skipped: Skipped[];
}

/**
 * The rows one record stands for now. A transaction also gives the row of the transaction it
 * reverts (whose state it changed); a record that is gone, or can no longer be used, gives the
 * id of its row to drop. A tick whose folder is not complete yet gives nothing.
 */
export function readRecordRuns(project: ProjectRef, kind: RecordKind, key: string): RecordRuns {
  const { projectId, root } = project;
  switch (kind) {
    case 'transaction': {
      const read = readTransaction(root, key);
      if (!read.ok) return { runs: [], gone: [runId(projectId, 'patch', key)], skipped: [{ file: read.error.path ?? key, reason: read.error.message }] };
      if (!read.value) return { runs: [], gone: [runId(projectId, 'patch', key)], skipped: [] };
      const runs = [transactionRun(projectId, read.value)];
      const revertOf = read.value.pending ? undefined : read.value.record.revertOf;
      const reverted = revertOf ? readTransaction(root, revertOf) : null;
      if (reverted?.ok && reverted.value) runs.push(transactionRun(projectId, reverted.value));
      return { runs, gone: [], skipped: [] };
    }
    case 'tick': {
      const read = readTickFiles(root, key);
      if (!read) return { runs: [], gone: [runId(projectId, 'tick', key)], skipped: [] };
      return 'tick' in read ? { runs: [tickRun(projectId, read.tick)], gone: [], skipped: [] } : { runs: [], gone: [], skipped: [read.skipped] };
    }
    case 'answer': {
      const read = readAnswer(root, key);
      const both = [runId(projectId, 'relay', key), runId(projectId, 'review', key)];
      if (!read) return { runs: [], gone: both, skipped: [] };
      return 'answer' in read ? { runs: [answerRun(projectId, read.answer)], gone: [], skipped: [] } : { runs: [], gone: both, skipped: [read.skipped] };
    }
    case 'handoff': {
      const markdown = readBriefText(root, key);
      return markdown === null ? { runs: [], gone: [runId(projectId, 'handoff', key)], skipped: [] } : { runs: [handoffRun(projectId, key, markdown)], gone: [], skipped: [] };
    }
    default:
      return assertNever(kind);
  }
}

/** The record kind behind each run kind. */
const RECORD_KIND_OF: Readonly<Record<RunKind, RecordKind>> = { patch: 'transaction', tick: 'tick', relay: 'answer', review: 'answer', handoff: 'handoff' };

/** The row of run `id` read straight from its file of truth (a run not indexed yet), or null when it has none. */
export function readRunById(project: ProjectRef, id: string): IndexedRun | null {
  const parsed = parseRunId(id);
  if (!parsed || parsed.projectId !== project.projectId) return null;
  return readRecordRuns(project, RECORD_KIND_OF[parsed.kind], parsed.key).runs.find((run) => run.id === id) ?? null;
}

/** The detail of a run from its file of truth. */
export function readRunDetail(root: string, kind: RunKind, key: string): Result<NonNullable<RunDetail['detail']>, 'RECORD_NOT_FOUND' | 'RECORD_DAMAGED' | 'RECORD_UNSAFE_PATH'> {
  switch (kind) {
    case 'patch': {
      const read = readTransaction(root, key);
      if (!read.ok) return read;
      return read.value ? { ok: true, value: transactionDetail(root, read.value) } : fail('RECORD_NOT_FOUND', `No transaction record ${key} in ${root}/.relaycode (it may have been rolled back or removed).`);
    }
    case 'tick':
      return tickDetail(root, key);
    case 'relay':
    case 'review':
      return answerDetail(root, key);
    case 'handoff':
      return handoffDetail(root, key);
    default:
      return assertNever(kind);
  }
}
