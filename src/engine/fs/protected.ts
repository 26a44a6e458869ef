// What outside input (an answer, a record read back, a tick's builder) may never write: git's
// folder, Relay Desk's own state, and the files that define the commands Relay Desk runs. An
// answer that could edit relay.config.json could add a postCommand; one that could edit
// relay.handoff.json could make `relay handoff --to <profile>` run its own program; one that
// could write .relaycode/ could plant a transaction record that recovery acts on. Each would be
// a way to run anything, so they are refused by name, wherever they are and however spelled.
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { namesSameEntry } from './path-names.js';

/** Relay Desk's state folder (transaction records, answers, briefs, the lock). */
export const STATE_FOLDER = '.relaycode';

/**
 * Files that define commands, environment passing or profiles. Refused at ANY depth: relay
 * finds its project by walking up from the current folder, so a `src/relay.config.json` would
 * be the config of every command run from src/.
 */
export const COMMAND_FILES: Readonly<Record<string, string>> = {
  'relay.config.json': 'defines the commands Relay Desk runs after a patch (linter, preCommand, postCommand)',
  'relay.handoff.json': 'defines the programs and environment `relay handoff --to <profile>` runs',
  'relais.config.json': "defines the tick runner's commands, verification templates and budgets",
};

/** Where the tick runner keeps its own files, read from relais.config.json (only ever adds protection). */
const TICK_PATH_KEYS: ReadonlyArray<readonly string[]> = [
  ['workspace_dir'],
  ['history', 'dir'],
  ['runner', 'lockfile'],
  ['orchestrator', 'system_prompt_file'],
  ['orchestrator', 'user_prompt_file'],
  ['orchestrator', 'task_schema_file'],
  ['builder', 'claude_code', 'system_prompt_file'],
  ['builder', 'claude_code', 'user_prompt_file'],
  ['builder', 'claude_code', 'builder_result_schema_file'],
];

/**
 * Root-relative paths the tick runner owns in this project: its workspace (`relais/` unless
 * configured otherwise), history, lock, prompts and schemas. Empty when the project does not use
 * the tick runner (no relais.config.json), so a plain `relais/` folder stays an ordinary folder.
 */
export function tickOwnedPaths(root: string): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(root, 'relais.config.json'), 'utf8');
  } catch {
    return [];
  }
  const owned = new Set(['relais']);
  let config: unknown;
  try {
    config = JSON.parse(text);
  } catch {
    return [...owned]; // a broken config still means "this project uses the tick runner"
  }
  for (const keys of TICK_PATH_KEYS) {
    let value: unknown = config;
    for (const key of keys) value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    if (typeof value !== 'string') continue;
    const clean = value.replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/\/+$/, '');
    if (clean && clean !== '.' && !clean.startsWith('/') && !clean.split('/').includes('..')) owned.add(clean);
  }
  return [...owned];
}

/** Why a path belongs to git or Relay Desk: which rule, the component or prefix that hit, and why. */
export interface ProtectedHit {
  readonly kind: 'git' | 'state' | 'command-file' | 'tick-owned';
  /** The protected name as Relay Desk spells it (`.git`, `.relaycode`, `relay.config.json`, `relais`). */
  readonly name: string;
  readonly why: string;
}

/**
 * The first protected name in a project-relative path (forward slashes, already normalised), or
 * null. Every component is compared the way each file system would see it (case, trailing dots
 * and spaces, 8.3 short names, HFS+ ignorables). `tickOwned` is `tickOwnedPaths(root)`.
 */
export function protectedHit(relative: string, tickOwned: readonly string[] = []): ProtectedHit | null {
  const segments = relative.split('/');
  for (const segment of segments) {
    if (namesSameEntry(segment, '.git')) return { kind: 'git', name: '.git', why: "is git's own folder (its config and hooks run code)" };
    if (namesSameEntry(segment, STATE_FOLDER)) return { kind: 'state', name: STATE_FOLDER, why: "is Relay Desk's state (transaction records that recovery and revert act on)" };
  }
  for (const [name, why] of Object.entries(COMMAND_FILES)) {
    // A folder named like a config file is refused too: `relay.config.json/x` cannot be written
    // without first making the name unusable for the real file.
    if (segments.some((s) => namesSameEntry(s, name))) return { kind: 'command-file', name, why };
  }
  for (const owned of tickOwned) {
    const ownedSegments = owned.split('/');
    if (ownedSegments.length > segments.length) continue;
    if (ownedSegments.every((s, i) => namesSameEntry(segments[i]!, s))) {
      return { kind: 'tick-owned', name: owned, why: "belongs to the tick runner (its state, prompts and verification setup)" };
    }
  }
  return null;
}

/** True for paths a tick's builder must never change: git, Relay Desk's state, command files (any depth). */
export function isCommandOrStatePath(relative: string): boolean {
  const hit = protectedHit(relative);
  return hit !== null && hit.kind !== 'git';
}

/**
 * Why a folder can never be a project root, or null: it is (or lies inside) a `.git` folder, or
 * it is a bare repository. Every path in such a "project" is git's own (its config and hooks run
 * code), so an answer applied there could make git run anything.
 */
export function gitInternalRoot(root: string): string | null {
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    real = path.resolve(root);
  }
  const inside = real.split(path.sep).find((segment) => segment !== '' && namesSameEntry(segment, '.git'));
  if (inside !== undefined) return `${real} is inside a git folder (${inside}): its files are git's own (config, hooks), which run code. Use the repository's work tree (the folder that holds .git) as the project.`;
  const bare = ['HEAD', 'objects', 'refs'].every((name) => existsSync(path.join(real, name))) && !existsSync(path.join(real, '.git'));
  if (bare && existsSync(path.join(real, 'config'))) return `${real} is a bare git repository: its files are git's own (config, hooks), which run code. Use a clone's work tree as the project.`;
  return null;
}
