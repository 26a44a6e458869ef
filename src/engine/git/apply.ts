import { git } from './core.js';

/** Outcome of `git apply`: applied, or refused with git's explanation. */
export type ApplyOutcome = { readonly applied: true } | { readonly applied: false; readonly reason: string };

/** Applies the unified diff in `patchFile` to the work tree (not the index), all hunks or none. */
export async function applyPatchFile(cwd: string, patchFile: string): Promise<ApplyOutcome> {
  try {
    await git(cwd, ['apply', '--whitespace=nowarn', '--', patchFile]);
    return { applied: true };
  } catch (error) {
    return { applied: false, reason: (error as Error).message };
  }
}
