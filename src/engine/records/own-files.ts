// How every reader of the files of truth touches the disk. Records are input like any answer
// (a cloned repository can carry any `.relaycode/` or history folder), so a record folder is
// read only when each of its components is a real folder inside the project, and a record file
// only when it is a plain file: a symbolic link anywhere on the way is never followed.
import { lstatSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ownFolder } from '../fs/safe-path.js';

/** A record file that exists but is not read, and why (shown to people; never followed). */
export interface Skipped {
  /** Project-relative path, forward slashes. */
  readonly file: string;
  readonly reason: string;
}

/** The largest record file read (a transaction record holds whole files; anything larger is not Relay Desk's). */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** The absolute path of one of the project's record folders, or null when it is missing, a link, or not a folder. */
export function recordFolder(root: string, folder: string): string | null {
  let where: ReturnType<typeof ownFolder>;
  try {
    where = ownFolder(root, folder);
  } catch {
    return null; // the project folder itself is gone
  }
  if (!where.ok) return null;
  try {
    return lstatSync(where.value).isDirectory() ? where.value : null;
  } catch {
    return null;
  }
}

/** The names in a record folder (none when the folder is missing or is not one Relay Desk reads). */
export function listRecordFolder(root: string, folder: string): string[] {
  const absolute = recordFolder(root, folder);
  if (!absolute) return [];
  try {
    return readdirSync(absolute).sort();
  } catch {
    return [];
  }
}

/** The names of the real sub-folders of a record folder (a link to a folder is not one). */
export function listRecordSubfolders(root: string, folder: string): string[] {
  const absolute = recordFolder(root, folder);
  if (!absolute) return [];
  try {
    return readdirSync(absolute, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** What reading one record file gave: its text, nothing (absent), or why it was refused. */
export type RecordText = { readonly text: string } | { readonly absent: true } | { readonly refused: string };

/** Reads one record file: a plain file in a real record folder, never through a link. */
export function readRecordText(root: string, folder: string, name: string): RecordText {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\\') || name.includes('\0')) return { refused: `${JSON.stringify(name)} is not a record file name` };
  const absolute = recordFolder(root, folder);
  if (!absolute) return { absent: true };
  const file = path.join(absolute, name);
  let stat;
  try {
    stat = lstatSync(file);
  } catch {
    return { absent: true };
  }
  const shown = `${folder}/${name}`;
  if (stat.isSymbolicLink()) return { refused: `${shown} is a symbolic link (records are never read through a link)` };
  if (!stat.isFile()) return { refused: `${shown} is not a plain file` };
  if (stat.size > MAX_RECORD_BYTES) return { refused: `${shown} is larger than ${MAX_RECORD_BYTES / 1048576} MB` };
  try {
    return { text: readFileSync(file, 'utf8') };
  } catch (error) {
    return { refused: `${shown} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}

/** The text of a record file, or null when it is absent or refused. */
export function readRecordTextOrNull(root: string, folder: string, name: string): string | null {
  const read = readRecordText(root, folder, name);
  return 'text' in read ? read.text : null;
}

type Json = Record<string, unknown>;

/** A record file parsed as a JSON object: the value, nothing (absent), or why it is not usable. */
export function readRecordJson(root: string, folder: string, name: string): { readonly value: Json | null; readonly error: string | null } {
  const read = readRecordText(root, folder, name);
  if ('absent' in read) return { value: null, error: null };
  if ('refused' in read) return { value: null, error: read.refused };
  try {
    const value: unknown = JSON.parse(read.text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { value: value as Json, error: null } : { value: null, error: 'not a JSON object' };
  } catch (error) {
    return { value: null, error: `not valid JSON (${(error as Error).message.split('\n')[0]})` };
  }
}

/** When a record folder last changed (ISO), for records that carry no time of their own. */
export function folderTime(root: string, folder: string): string {
  const absolute = recordFolder(root, folder);
  try {
    return absolute ? statSync(absolute).mtime.toISOString() : new Date(0).toISOString();
  } catch {
    return new Date(0).toISOString();
  }
}

/** `a/b` from folder parts, forward slashes (project-relative paths are shown this way everywhere). */
export function joinRecordPath(...parts: string[]): string {
  return path.posix.join(...parts);
}
