import type BetterSqlite3 from 'better-sqlite3';
import { ProjectSettingsSchema, type ProjectSettings } from '../../shared/schemas.js';
import { DEFAULT_POLICY } from '../runtime/policy.js';

/** A registered project as the store keeps it. */
export interface ProjectRecord {
  readonly projectId: string;
  readonly root: string;
  readonly name: string;
  readonly settings: ProjectSettings;
  readonly registeredAt: string;
}

export const DEFAULT_SETTINGS: ProjectSettings = { approvalPolicy: DEFAULT_POLICY, watching: true };

interface Row {
  readonly project_id: string;
  readonly root: string;
  readonly name: string;
  readonly settings: string;
  readonly registered_at: string;
}

function fromRow(row: Row): ProjectRecord {
  // Settings written by an older or newer build may not match this shape: fall back to defaults, never fail.
  const parsed = ProjectSettingsSchema.partial().safeParse(JSON.parse(row.settings));
  const settings = { ...DEFAULT_SETTINGS, ...(parsed.success ? parsed.data : {}) };
  return { projectId: row.project_id, root: row.root, name: row.name, settings, registeredAt: row.registered_at };
}

/** The projects table. */
export function projectsRepository(db: BetterSqlite3.Database) {
  const all = db.prepare<[], Row>('SELECT * FROM projects ORDER BY name COLLATE NOCASE, project_id');
  const one = db.prepare<[string], Row>('SELECT * FROM projects WHERE project_id = ?');
  const byRoot = db.prepare<[string], Row>('SELECT * FROM projects WHERE root = ?');
  const upsert = db.prepare(
    `INSERT INTO projects (project_id, root, name, settings, registered_at) VALUES (@projectId, @root, @name, @settings, @registeredAt)
     ON CONFLICT (project_id) DO UPDATE SET root = excluded.root, name = excluded.name, settings = excluded.settings`,
  );
  const remove = db.prepare<[string]>('DELETE FROM projects WHERE project_id = ?');
  return {
    /** Every registered project, by name. */
    list: (): ProjectRecord[] => all.all().map(fromRow),
    get: (projectId: string): ProjectRecord | null => {
      const row = one.get(projectId);
      return row ? fromRow(row) : null;
    },
    getByRoot: (root: string): ProjectRecord | null => {
      const row = byRoot.get(root);
      return row ? fromRow(row) : null;
    },
    /** Inserts or updates a project (registeredAt is kept from the first registration). */
    upsert: (project: ProjectRecord): void => {
      upsert.run({ ...project, settings: JSON.stringify(project.settings) });
    },
    /** Removes a project and, through the foreign key, its runs. */
    remove: (projectId: string): boolean => remove.run(projectId).changes > 0,
  };
}

export type ProjectsRepository = ReturnType<typeof projectsRepository>;
