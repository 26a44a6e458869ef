// Making a folder a Relay Desk project: what `relay init` does, shared with the app's
// "register a folder" so both leave the same files behind.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { writeInsideRoot } from '../fs/project-write.js';
import { ownFolder, resolveInsideRoot } from '../fs/safe-path.js';
import { STATE_DIR, defaultRelayConfig, writeRelayConfig, type RelayConfig } from './config.js';

/** What a projectId may be made of when Relay Desk picks or checks one. */
export { PROJECT_ID_PATTERN } from '../../shared/facts.js';

/**
 * Adds `.relaycode/` to the project's .gitignore unless it is already there; true when it added
 * it. Through the path chokepoint: a cloned repository's `.gitignore` that is a link (to
 * ~/.bashrc, say) is neither read nor written, and nothing is added.
 */
export function ensureStateIgnored(root: string): boolean {
  const where = resolveInsideRoot(root, '.gitignore');
  if (!where.ok) return false;
  const entry = `${STATE_DIR}/`;
  const current = existsSync(where.value.absolute) ? readFileSync(where.value.absolute, 'utf8') : '';
  if (current.split(/\r?\n/).some((l) => l.trim() === entry || l.trim() === STATE_DIR || l.trim() === `/${entry}`)) return false;
  return writeInsideRoot(root, '.gitignore', `${current}${current.length > 0 && !current.endsWith('\n') ? '\n' : ''}${entry}\n`).ok;
}

/** Writes relay.config.json (defaults plus an optional linter), creates .relaycode/ and ignores it in git. */
export function initProject(root: string, options: { readonly projectId: string; readonly linter?: string }): { config: RelayConfig; ignored: boolean } {
  const defaults = defaultRelayConfig(options.projectId);
  const config: RelayConfig = options.linter ? { ...defaults, patch: { ...defaults.patch, linter: options.linter } } : defaults;
  writeRelayConfig(root, config);
  ownFolder(root, STATE_DIR, { create: true }); // a linked .relaycode is left alone; every later write refuses it
  return { config, ignored: ensureStateIgnored(root) };
}

/** A linter worth suggesting for the kind of project at `root` (from its manifest files), or null. */
export function suggestLinter(root: string): string | null {
  if (existsSync(path.join(root, 'tsconfig.json'))) return 'npx tsc --noEmit';
  if (existsSync(path.join(root, 'pyproject.toml'))) return 'ruff check .';
  if (existsSync(path.join(root, 'go.mod'))) return 'go vet ./...';
  if (existsSync(path.join(root, 'Cargo.toml'))) return 'cargo check';
  return null;
}
