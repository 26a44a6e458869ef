import { readTextOrNull } from '../fs/read.js';
import { git } from '../git/core.js';
import { statusHere, type StatusEntry } from '../git/status.js';

/** Dirty entries that are not ours: the patch's own files and the tool's state are excluded. */
async function foreignEntries(root: string, touched: ReadonlySet<string>): Promise<StatusEntry[]> {
  return (await statusHere(root)).filter((e) => !touched.has(e.path) && !e.path.startsWith('.relaycode/'));
}

/** Files a post command (a formatter) changed outside the patch, with their content before. */
export interface OutsideCapture {
  changedSince(): Promise<Map<string, string | null>>;
}


/**
 * Remembers the project's dirty files before a post command runs, so that any file the command
 * changes can be restored on rollback: dirty files from what was captured, clean tracked files
 * from the index, files it creates by deleting them.
 */
export async function captureOutsideChanges(root: string, touched: ReadonlySet<string>): Promise<OutsideCapture> {
  const before = new Map<string, string | null>();
  for (const entry of await foreignEntries(root, touched)) before.set(entry.path, readTextOrNull(root, entry.path));
  return {
    async changedSince() {
      const changed = new Map<string, string | null>();
      for (const entry of await foreignEntries(root, touched)) {
        const now = readTextOrNull(root, entry.path);
        if (before.has(entry.path)) {
          const was = before.get(entry.path)!;
          if (was !== now) changed.set(entry.path, was);
          continue;
        }
        if (entry.code === '??') {
          changed.set(entry.path, null);
          continue;
        }
        const { stdout, exitCode } = await git(root, ['show', `:./${entry.path}`], { okExitCodes: [128] }); // ./ : relative to root, not the repository's top
        changed.set(entry.path, exitCode === 0 ? stdout : null);
      }
      return changed;
    },
  };
}
