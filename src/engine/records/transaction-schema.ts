// The shape of a transaction record (`.relaycode/<uuid>.yml`, pending: `<uuid>.pending.yml`),
// shared by its writer (engine/patch/state.ts) and its reader (transactions.ts). A leaf module:
// zod only, so both sides can import it without importing each other.
// zod's functional API: see ../zod-mini.ts.
import '../zod-mini.js';
import * as z from 'zod/mini';

/** Where an operation came from in the answer (its format and line). */
const OriginSchema = z.optional(z.object({ format: z.enum(['relay', 'git-diff', 'v4a', 'search-replace', 'whole-file']), line: z.number().check(z.int()) }));

const FileOperationSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('write'), path: z.string(), strategy: z.enum(['replace', 'unified', 'search-replace', 'v4a']), body: z.string(), declaredStrategy: z.optional(z.string()), inferred: z.optional(z.boolean()), origin: OriginSchema }),
  z.object({ kind: z.literal('delete'), path: z.string(), origin: OriginSchema }),
  z.object({ kind: z.literal('rename'), from: z.string(), to: z.string(), origin: OriginSchema }),
]);

/** One file a transaction changed, with its +/- line counts. */
export const FileStatSchema = z.object({
  path: z.string(),
  change: z.enum(['create', 'modify', 'delete']),
  added: z.number().check(z.int(), z.gte(0)),
  removed: z.number().check(z.int(), z.gte(0)),
});
export type FileStat = z.infer<typeof FileStatSchema>;

/** The record of one transaction, kept in `.relaycode/{uuid}.yml` (pending: `{uuid}.pending.yml`). */
export const TransactionRecordSchema = z.object({
  schemaVersion: z._default(z.literal(1), 1),
  uuid: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/)),
  /** The uuid the response's control block gave (differs from `uuid` when an assistant reused one). */
  responseUuid: z.optional(z.string()),
  projectId: z.string(),
  createdAt: z.string(),
  source: z._default(z.enum(['clipboard', 'paste', 'file', 'revert']), 'file'),
  contentHash: z._default(z.string(), ''),
  gitCommitMsg: z.optional(z.string()),
  promptSummary: z.optional(z.string()),
  reasoning: z._default(z.array(z.string()), []),
  operations: z._default(z.array(FileOperationSchema), []),
  /** Content of every touched file before the transaction (null: did not exist). */
  snapshot: z.record(z.string(), z.nullable(z.string())),
  /** Content after the transaction, for files kept by the approval (null: deleted). */
  result: z._default(z.record(z.string(), z.nullable(z.string())), {}),
  /** Folders the transaction created, removed again on rollback when empty. */
  createdDirs: z._default(z.array(z.string()), []),
  files: z._default(z.array(FileStatSchema), []),
  approved: z.boolean(),
  decision: z.optional(
    z.object({
      by: z.enum(['auto', 'user']),
      kept: z.array(z.string()),
      rolledBack: z.array(z.string()),
    }),
  ),
  linter: z.optional(z.object({ errorsBefore: z.number(), errorsAfter: z.number(), output: z.string() })),
  branch: z.optional(z.string()),
  /** Only on pending records: the branch ref HEAD was on before autoGitBranch switched to `branch`. */
  branchFrom: z.optional(z.string()),
  /**
   * Only on pending records, while pre/post commands and the linter may run: the whole work
   * tree (tracked and untracked files that are not ignored) as a git tree taken before them,
   * so recovery can put back any file they changed.
   */
  worktree: z.optional(z.object({ tree: z.string().check(z.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)) })),
  revertOf: z.optional(z.string()),
  /**
   * Legacy: older versions marked the reverted record in a second write. Whether a record is
   * reverted is now derived from the records (a committed record with `revertOf`), see
   * `withDerivedReverts`; records that still carry these fields read as before.
   */
  revertedBy: z.optional(z.string()),
  revertedAt: z.optional(z.string()),
  warnings: z._default(z.array(z.string()), []),
  /** Only on pending records: the process running the transaction, so recovery spares live ones. */
  owner: z.optional(z.object({ pid: z.number().check(z.int()), bootId: z.string(), startedAt: z.string() })),
  /**
   * Only on the record crash recovery leaves for a transaction it rolled back (with `approved`
   * false): when, and which files it put back. `result` then holds what the interrupted apply had
   * written, so the rolled-back change can still be looked at. Such a record is not an applied
   * transaction: it is not in `relay log`'s list, cannot be reverted, and does not count as
   * "already applied" for the same answer.
   */
  recovered: z.optional(z.object({ at: z.string(), restored: z.array(z.string()) })),
});
export type TransactionRecord = z.infer<typeof TransactionRecordSchema>;
