// Making a folder a Relay Desk project: what `relay init` does, shared with the app's
// "register a folder" so both leave the same files behind.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { STATE_DIR, defaultRelayConfig, writeRelayConfig, type RelayConfig } from './config.js';

/** What a projectId may be made of when Relay Desk picks or checks one. */
export const PROJECT_ID_PATTERN = /^[\w.-]{1,200}$/;

/** Adds `.relaycode/` to the project's .gitignore unless it is already there; true when it added it. */
export function ensureStateIgnored(root: string): boolean {
  const file = path.join(root, '.gitignore');
  const entry = `${STATE_DIR}/`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (current.split(/\r?\n/).some((l) => l.trim() === entry || l.trim() === STATE_DIR || l.trim() === `/${entry}`)) return false;
  appendFileSync(file, `${current.length > 0 && !current.endsWith('\n') ? '\n' : ''}${entry}\n`);
  return true;
}

/** Writes relay.config.json (defaults plus an optional linter), creates .relaycode/ and ignores it in git. */
export function initProject(root: string, options: { readonly projectId: string; readonly linter?: string }): { config: RelayConfig; ignored: boolean } {
  const defaults = defaultRelayConfig(options.projectId);
  const config: RelayConfig = options.linter ? { ...defaults, patch: { ...defaults.patch, linter: options.linter } } : defaults;
  writeRelayConfig(root, config);
  mkdirSync(path.join(root, STATE_DIR), { recursive: true });
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
