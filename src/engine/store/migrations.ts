// Append-only schema migrations. Never edit or reorder a released migration: add a new one.
// Each is applied once, inside a transaction, and recorded in the `migrations` table.
import type BetterSqlite3 from 'better-sqlite3';
import { StoreError } from './errors.js';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'projects-runs-events-settings',
    sql: `
      CREATE TABLE projects (
        project_id    TEXT PRIMARY KEY NOT NULL,
        root          TEXT NOT NULL UNIQUE,
        name          TEXT NOT NULL,
        settings      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
        registered_at TEXT NOT NULL
      ) STRICT;

      -- One row per patch transaction, tick, ask, review or handoff. Rows with origin 'file'
      -- index a file of truth in the project (file = its project-relative path) and can be
      -- rebuilt from it; rows with origin 'app' exist only here. Events link through task_id.
      CREATE TABLE runs (
        id         TEXT PRIMARY KEY NOT NULL,
        project_id TEXT NOT NULL REFERENCES projects (project_id) ON DELETE CASCADE,
        kind       TEXT NOT NULL CHECK (kind IN ('patch', 'tick', 'relay', 'review', 'handoff')),
        status     TEXT NOT NULL CHECK (status IN ('running', 'waiting', 'done', 'failed', 'cancelled')),
        verdict    TEXT,
        code       TEXT,
        title      TEXT NOT NULL DEFAULT '',
        summary    TEXT NOT NULL DEFAULT '',
        started_at TEXT NOT NULL,
        ended_at   TEXT,
        file       TEXT,
        origin     TEXT NOT NULL CHECK (origin IN ('file', 'app')),
        task_id    TEXT,
        detail     TEXT CHECK (detail IS NULL OR json_valid(detail))
      ) STRICT;
      -- History views list the newest runs, optionally of one project, kind or status.
      CREATE INDEX runs_newest ON runs (started_at DESC, id DESC);
      CREATE INDEX runs_by_project ON runs (project_id, started_at DESC, id DESC);
      CREATE INDEX runs_by_project_kind ON runs (project_id, kind, started_at DESC, id DESC);
      CREATE INDEX runs_by_kind ON runs (kind, started_at DESC, id DESC);
      CREATE INDEX runs_by_status ON runs (status, started_at DESC, id DESC);
      CREATE INDEX runs_by_task ON runs (task_id) WHERE task_id IS NOT NULL;

      -- The runtime's event log; seq continues across launches (the runtime starts after the last one).
      CREATE TABLE events (
        seq        INTEGER PRIMARY KEY,
        ts         INTEGER NOT NULL,
        type       TEXT NOT NULL,
        task_id    TEXT,
        project_id TEXT,
        payload    TEXT NOT NULL CHECK (json_valid(payload))
      ) STRICT;
      CREATE INDEX events_by_task ON events (task_id, seq) WHERE task_id IS NOT NULL;

      CREATE TABLE settings (
        key   TEXT PRIMARY KEY NOT NULL,
        value TEXT NOT NULL CHECK (json_valid(value))
      ) STRICT;
    `,
  },
];

interface AppliedRow {
  readonly version: number;
  readonly name: string;
}

/** Brings the database up to the newest migration; refuses databases it cannot trust. Returns the versions applied now. */
export function migrate(db: BetterSqlite3.Database, file: string, options: { readonly migrations?: readonly Migration[]; readonly now?: () => Date } = {}): number[] {
  const migrations = options.migrations ?? MIGRATIONS;
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`Migration list is not 1..n: position ${i} has version ${m.version}`);
  });
  db.exec('CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL) STRICT');
  const applied = db.prepare('SELECT version, name FROM migrations ORDER BY version').all() as AppliedRow[];
  for (const row of applied) {
    const known = migrations[row.version - 1];
    if (!known) {
      throw new StoreError('STORE_TOO_NEW', `${file} was written by a newer Relay Desk (migration ${row.version} "${row.name}" is unknown to this build). Update Relay Desk, or move the file aside to start a new history.`, file);
    }
    if (known.name !== row.name) {
      throw new StoreError('STORE_MIGRATION_MISMATCH', `${file} records migration ${row.version} as "${row.name}", but this build's migration ${row.version} is "${known.name}". The database does not match this build; move it aside and rebuild it.`, file);
    }
  }
  const done = new Set(applied.map((r) => r.version));
  const record = db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const now = options.now ?? (() => new Date());
  const ran: number[] = [];
  for (const migration of migrations) {
    if (done.has(migration.version)) continue;
    try {
      db.transaction(() => {
        db.exec(migration.sql);
        record.run(migration.version, migration.name, now().toISOString());
      })();
    } catch (error) {
      throw new StoreError('STORE_MIGRATION_FAILED', `Migration ${migration.version} "${migration.name}" failed and was rolled back: ${(error as Error).message}`, file, { cause: error });
    }
    ran.push(migration.version);
  }
  return ran;
}
