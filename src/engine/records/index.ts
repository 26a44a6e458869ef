// engine/records: the one reader and summary builder of each kind of file of truth — transaction
// records (.relaycode/*.yml, pending included), tick history (the folder relais.config.json
// configures), relay answers (.relaycode/answers/) and handoff briefs (.relaycode/handoffs/).
// The store's indexer, the recorder, run detail, briefs and `relay log` all read through here.
export { ANSWER_FOLDER, HANDOFFS_DIR, RECORD_KINDS, recordFolders, type RecordFolders, type RecordKind } from './folders.js';
export { listRecordFolder, readRecordText, recordFolder, type Skipped } from './own-files.js';
export { parseRunId, runId, type IndexedRun } from './rows.js';
export { FileStatSchema, TransactionRecordSchema, type FileStat, type TransactionRecord } from './transaction-schema.js';
export {
  damagedRecords,
  findByContentHash,
  findRevertOf,
  hasCommitted,
  isRolledBack,
  listCommitted,
  listPending,
  listTransactionIds,
  loadRecord,
  reachedCommitPoint,
  readRecord,
  readTransaction,
  rolledBackRecord,
  scanCommitted,
  scanTransactions,
  TRANSACTION_ID,
  withDerivedRevert,
  withDerivedReverts,
  type CommittedScan,
  type DamagedRecord,
  type ReadTransaction,
  type RecordProblemCode,
} from './transactions.js';
export { APPLY_INTERRUPTED, describeRollback, summariseTransaction, transactionRun, transactionState, transactionTitle, type TransactionState, type TransactionSummary } from './transaction-summary.js';
export { transactionDetail, unrecordedPatchDetail } from './transaction-detail.js';
export { COMMIT_FILE, latestTickWithReport, listTickRunIds, readTickCommit, readTickFiles, readTickText, readWorkspaceJson, readWorkspaceText, reportedTouchedPaths, scanTicks, tickFolder, TICK_RUN_ID, type ReportedPaths, type TickCommitRecord, type TickFiles } from './ticks.js';
export { describeBlastRadius, parseTickRun, parseTickTask, tickTime, type TickRun, type TickTask, type TickVerification } from './tick-report.js';
export { currentTask, loadTicks, MAX_TICK_TEXT_CHARS, tickDetail, tickRun, tickSummary, toTickCommit } from './tick-summary.js';
export { ANSWER_ID, ANSWER_SCHEMA_VERSION, answerDetail, answerRun, loadAnswers, readAnswer, RecordedAnswerSchema, type LoadedAnswers, type RecordedAnswer } from './answers.js';
export { briefExists, handoffDetail, handoffRun, isBriefId, listBriefArtifacts, listBriefIds, readBriefMarkdown, readBriefText, type BriefReadCode } from './handoffs.js';
export { readProjectRuns, readRecordRuns, readRunById, readRunDetail, recordKeyOfName, type ProjectRef, type ProjectRuns, type RecordRuns } from './runs.js';
