// The registered projects, kept a second time outside the database: `projects.json` beside it,
// rewritten atomically whenever the list changes. A database that is damaged, missing, or lost
// its -wal can then be rebuilt without the user registering every project again. The file is
// read back as hostile input: anything that does not validate is skipped, never trusted.
import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic.js';
import { PROJECT_ID_PATTERN } from '../../shared/facts.js';
import { ProjectSettingsSchema } from '../../shared/schemas.js';
import { PRIVATE_FILE_MODE } from './paths.js';
import { DEFAULT_SETTINGS, type ProjectRecord } from './projects.js';

/** The file's name in the data folder. */
export const PROJECTS_FILE = 'projects.json';

/** Larger than any real list (thousands of projects); a bigger file is not ours. */
const MAX_BYTES = 4 * 1024 * 1024;

const EntrySchema = z.object({
  projectId: z.string().regex(PROJECT_ID_PATTERN),
  root: z.string().min(1).max(4096).refine((root) => path.isAbsolute(root) && !root.includes('\0'), 'an absolute path'),
  name: z.string().min(1).max(500),
  settings: z.unknown(),
  registeredAt: z.string().max(100),
});

const FileSchema = z.object({ version: z.literal(1), projects: z.array(z.unknown()).max(100_000) });

/** The list's path for a database file. */
export function projectListFile(databaseFile: string): string {
  return path.join(path.dirname(databaseFile), PROJECTS_FILE);
}

/** Writes the list atomically, readable by its owner only. */
export function writeProjectList(file: string, projects: readonly ProjectRecord[]): void {
  const body = { version: 1, projects: projects.map((p) => ({ projectId: p.projectId, root: p.root, name: p.name, settings: p.settings, registeredAt: p.registeredAt })) };
  writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
}

export interface ProjectListRead {
  readonly projects: readonly ProjectRecord[];
  /** What was skipped and why (the file itself, or one entry). Empty when all was well or there is no file. */
  readonly problems: readonly string[];
}

/** Each setting that validates is kept; any other falls back to its default (another build may have written it). */
function readSettings(raw: unknown): ProjectRecord['settings'] {
  const fields = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const policy = ProjectSettingsSchema.shape.approvalPolicy.safeParse(fields.approvalPolicy);
  const watching = ProjectSettingsSchema.shape.watching.safeParse(fields.watching);
  return { approvalPolicy: policy.success ? policy.data : DEFAULT_SETTINGS.approvalPolicy, watching: watching.success ? watching.data : DEFAULT_SETTINGS.watching };
}

/** Reads the list back, keeping only entries that validate (first of each projectId and root). */
export function readProjectList(file: string): ProjectListRead {
  let text: string;
  try {
    const stat = lstatSync(file);
    if (!stat.isFile()) return { projects: [], problems: [`${file} is not a regular file; ignored.`] };
    if (stat.size > MAX_BYTES) return { projects: [], problems: [`${file} is larger than ${MAX_BYTES} bytes; ignored.`] };
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { projects: [], problems: [] };
    return { projects: [], problems: [`${file} cannot be read: ${(error as Error).message}`] };
  }
  let parsed: z.infer<typeof FileSchema>;
  try {
    const result = FileSchema.safeParse(JSON.parse(text));
    if (!result.success) return { projects: [], problems: [`${file} is not a project list (version 1); ignored.`] };
    parsed = result.data;
  } catch {
    return { projects: [], problems: [`${file} is not JSON; ignored.`] };
  }
  const projects: ProjectRecord[] = [];
  const problems: string[] = [];
  const ids = new Set<string>();
  const roots = new Set<string>();
  parsed.projects.forEach((raw, index) => {
    const entry = EntrySchema.safeParse(raw);
    if (!entry.success) {
      problems.push(`${file}: entry ${index + 1} is not a valid project; skipped.`);
      return;
    }
    const { projectId, root, name, registeredAt } = entry.data;
    if (ids.has(projectId) || roots.has(root)) {
      problems.push(`${file}: entry ${index + 1} repeats project "${projectId}" or its folder; skipped.`);
      return;
    }
    ids.add(projectId);
    roots.add(root);
    projects.push({ projectId, root, name, registeredAt, settings: readSettings(entry.data.settings) });
  });
  return { projects, problems };
}
