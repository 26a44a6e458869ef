import path from 'node:path';
import { findOnPath, isExecutableFile } from '../../fs/which.js';
import type { Env } from '../depth.js';

/** Where a CLI backend's program was found, or why it was not. */
export type Located =
  | { readonly ok: true; readonly path: string }
  | { readonly ok: false; readonly message: string };

/** The environment variable that names a backend program's absolute path, e.g. RELAY_CODEX_BIN. */
export function binEnvName(program: string): string {
  return `RELAY_${program.toUpperCase()}_BIN`;
}

/**
 * Finds a backend program: the absolute path named by RELAY_<NAME>_BIN when set, else the
 * first executable `name` on the environment's PATH. Resolving it ourselves (rather than
 * letting spawn search) gives one clear "not found" message and pins the exact file run.
 */
export function locateProgram(name: string, env: Env, installHint: string): Located {
  const variable = binEnvName(name);
  const configured = env[variable]?.trim();
  if (configured) {
    if (!path.isAbsolute(configured)) return { ok: false, message: `${variable} must be an absolute path, got: ${configured}` };
    if (!isExecutableFile(configured)) return { ok: false, message: `${variable} does not name an executable file: ${configured}` };
    return { ok: true, path: configured };
  }
  const found = findOnPath(name, env.PATH ?? '');
  if (found) return { ok: true, path: found };
  return { ok: false, message: `${name} CLI not found on PATH. Install it (${installHint}) or set ${variable} to its absolute path.` };
}
