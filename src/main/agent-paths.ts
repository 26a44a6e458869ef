import path from 'node:path';
import { findOnPath, isExecutableFile } from '../engine/fs/which.js';
import { runProcess } from '../engine/proc/index.js';
import { buildChildEnv } from '../engine/secrets/index.js';

/**
 * A desktop-launched app gets a minimal PATH (no Homebrew, nvm or ~/.local/bin), so agent CLIs
 * are resolved to absolute paths: a configured path first, then the user's login-shell PATH,
 * then the app's own PATH.
 */
export interface AgentPathOptions {
  /** Absolute paths the user configured, by agent name. */
  readonly configured?: Readonly<Record<string, string>>;
  /** The PATH a login shell reports (see loginShellPath). */
  readonly loginPath?: string | null;
  /** The app's own PATH. */
  readonly processPath?: string;
  readonly platform?: NodeJS.Platform;
}

export { findOnPath };

export type AgentPath = { readonly path: string; readonly source: 'configured' | 'login-shell' | 'process' } | { readonly path: null; readonly tried: readonly string[] };

/** Resolves an agent CLI to an absolute path, saying where it was found or what was tried. */
export function resolveAgentPath(name: string, options: AgentPathOptions): AgentPath {
  const configured = options.configured?.[name];
  if (configured) {
    if (path.isAbsolute(configured) && isExecutableFile(configured)) return { path: configured, source: 'configured' };
    return { path: null, tried: [`configured path ${configured} (not an executable file)`] };
  }
  const tried: string[] = [];
  if (options.loginPath) {
    const found = findOnPath(name, options.loginPath, options.platform);
    if (found) return { path: found, source: 'login-shell' };
    tried.push('login shell PATH');
  }
  const found = findOnPath(name, options.processPath ?? '', options.platform);
  if (found) return { path: found, source: 'process' };
  tried.push('app PATH');
  return { path: null, tried };
}

/** Asks the user's login shell for its PATH (macOS/Linux); null when that fails or on Windows. */
export async function loginShellPath(shell = process.env.SHELL, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  if (platform === 'win32' || !shell) return null;
  // A fixed script, no user input: prints PATH between markers so shell banners are ignored. The
  // shell's rc files rebuild PATH; it needs no credentials for that (engine/proc's base allow-list).
  const run = await runProcess({
    command: shell,
    args: ['-l', '-i', '-c', 'printf "__RELAY_PATH__%s__RELAY_PATH__" "$PATH"'],
    cwd: process.env.HOME ?? process.cwd(),
    env: buildChildEnv({ from: process.env, profile: 'base', platform }),
    timeoutMs: 5_000,
    maxOutputBytes: 1024 * 1024,
  });
  if (run.kind === 'spawn-failed') return null;
  const m = /__RELAY_PATH__(.*)__RELAY_PATH__/s.exec(run.stdout);
  return m ? m[1]! : null;
}
