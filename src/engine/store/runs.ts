import type BetterSqlite3 from 'better-sqlite3';
import type { Run } from '../../shared/contract.js';
import type { RunKind, RunStatus } from '../../shared/schemas.js';

/** A run as stored: the history row plus app-owned detail (JSON) for runs without a file of truth. */
export interface StoredRun extends Run {
  readonly detail: unknown;
}

export interface RunFilter {
  readonly projectId?: string;
  readonly kind?: RunKind;
  readonly status?: RunStatus;
  readonly limit: number;
  readonly cursor?: string;
}

interface Row {
  readonly id: string;
  readonly project_id: string;
  readonly kind: RunKind;
  readonly status: RunStatus;
  readonly verdict: string | null;
  readonly code: string | null;
  readonly title: string;
  readonly summary: string;
  readonly started_at: string;
  readonly ended_at: string | null;
  readonly file: string | null;
  readonly origin: 'file' | 'app';
  readonly task_id: string | null;
  readonly detail?: string | null;
}

const LIST_COLUMNS = 'id, project_id, kind, status, verdict, code, title, summary, started_at, ended_at, file, origin, task_id';

function toRun(row: Row): Run {
  return {
    id: row.id,
    projectId: row.project_id,
    kind: row.kind,
    status: row.status,
    verdict: row.verdict,
    code: row.code,
    title: row.title,
    summary: row.summary,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    file: row.file,
    origin: row.origin,
    taskId: row.task_id,
  };
}

/** ISO timestamps sort as text only when they all have one form: normalise to UTC with milliseconds. */
export function normaliseTime(value: string): string {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

/** The id of a run: unique per project, kind and the key its file of truth uses. */
export { runId } from '../../shared/facts.js';

function encodeCursor(row: Pick<Row, 'started_at' | 'id'>): string {
  return Buffer.from(JSON.stringify([row.started_at, row.id]), 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { startedAt: string; id: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') return { startedAt: value[0], id: value[1] };
  } catch {
    // fall through: an unreadable cursor is refused below
  }
  return null;
}

/** The runs table: upserts and keyset-paged listing, newest first. */
export function runsRepository(db: BetterSqlite3.Database) {
  const upsert = db.prepare(
    `INSERT INTO runs (id, project_id, kind, status, verdict, code, title, summary, started_at, ended_at, file, origin, task_id, detail)
     VALUES (@id, @projectId, @kind, @status, @verdict, @code, @title, @summary, @startedAt, @endedAt, @file, @origin, @taskId, @detail)
     ON CONFLICT (id) DO UPDATE SET
       project_id = excluded.project_id, kind = excluded.kind, status = excluded.status, verdict = excluded.verdict,
       code = excluded.code, title = excluded.title, summary = excluded.summary, started_at = excluded.started_at,
       ended_at = excluded.ended_at, file = excluded.file, origin = excluded.origin,
       task_id = COALESCE(excluded.task_id, runs.task_id), detail = COALESCE(excluded.detail, runs.detail)`,
  );
  const one = db.prepare<[string], Row>(`SELECT ${LIST_COLUMNS}, detail FROM runs WHERE id = ?`);
  const byTask = db.prepare<[string], Row>(`SELECT ${LIST_COLUMNS}, detail FROM runs WHERE task_id = ? ORDER BY started_at DESC LIMIT 1`);
  const fileIds = db.prepare<[string], { id: string }>(`SELECT id FROM runs WHERE project_id = ? AND origin = 'file'`);
  const remove = db.prepare<[string]>('DELETE FROM runs WHERE id = ?');
  const removeIndexed = db.prepare<[string]>(`DELETE FROM runs WHERE id = ? AND origin = 'file'`);
  const interrupt = db.prepare<[string, string]>(
    `UPDATE runs SET status = 'failed', code = 'INTERRUPTED', summary = ?, ended_at = ? WHERE status = 'running' AND origin = 'app'`,
  );
  const listCache = new Map<string, BetterSqlite3.Statement>();

  const withDetail = (row: Row | undefined): StoredRun | null => (row ? { ...toRun(row), detail: row.detail ? (JSON.parse(row.detail) as unknown) : null } : null);

  return {
    /** Inserts or replaces a run; a null taskId or detail keeps the stored one. */
    upsert: (run: StoredRun): void => {
      upsert.run({
        ...run,
        startedAt: normaliseTime(run.startedAt),
        endedAt: run.endedAt === null ? null : normaliseTime(run.endedAt),
        detail: run.detail === null || run.detail === undefined ? null : JSON.stringify(run.detail),
      });
    },
    get: (id: string): StoredRun | null => withDetail(one.get(id)),
    /** The run a task produced, if it produced one. */
    byTask: (taskId: string): StoredRun | null => withDetail(byTask.get(taskId)),
    /** Ids of the project's rows that index files of truth. */
    fileRunIds: (projectId: string): string[] => fileIds.all(projectId).map((r) => r.id),
    remove: (id: string): boolean => remove.run(id).changes > 0,
    /** Drops a row indexed from a file of truth (a row only the app knows is kept). */
    removeIndexed: (id: string): boolean => removeIndexed.run(id).changes > 0,
    /** Marks the app's rows of runs still in progress as failed (their process ended without finishing them). */
    markInterrupted: (endedAt: string): number => interrupt.run('Relay Desk stopped before this run ended.', normaliseTime(endedAt)).changes,
    /**
     * The newest runs matching the filter, `limit` at a time. Keyset paging on
     * (started_at, id) keeps every page as fast as the first; the indexes match each filter.
     */
    list: (filter: RunFilter): { runs: Run[]; nextCursor: string | null } | { error: 'CURSOR_INVALID' } => {
      const where: string[] = [];
      const params: Record<string, string | number> = { limit: filter.limit + 1 };
      if (filter.projectId !== undefined) {
        where.push('project_id = @projectId');
        params.projectId = filter.projectId;
      }
      if (filter.kind !== undefined) {
        where.push('kind = @kind');
        params.kind = filter.kind;
      }
      if (filter.status !== undefined) {
        where.push('status = @status');
        params.status = filter.status;
      }
      if (filter.cursor !== undefined) {
        const cursor = decodeCursor(filter.cursor);
        if (!cursor) return { error: 'CURSOR_INVALID' };
        where.push('(started_at < @cursorStarted OR (started_at = @cursorStarted AND id < @cursorId))');
        params.cursorStarted = cursor.startedAt;
        params.cursorId = cursor.id;
      }
      const sql = `SELECT ${LIST_COLUMNS} FROM runs ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY started_at DESC, id DESC LIMIT @limit`;
      let statement = listCache.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        listCache.set(sql, statement);
      }
      const rows = statement.all(params) as Row[];
      const page = rows.slice(0, filter.limit);
      const last = page.at(-1);
      return { runs: page.map(toRun), nextCursor: rows.length > filter.limit && last ? encodeCursor(last) : null };
    },
  };
}

export type RunsRepository = ReturnType<typeof runsRepository>;
