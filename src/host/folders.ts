// Adding a project from the window: a folder path checked as it is typed (does it exist, is it
// a folder, is it already a Relay Desk project, is it registered), and, in the desktop app, the
// system's folder picker behind a small interface the Electron shell implements.
import { existsSync, realpathSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadRelayConfig } from '../engine/patch/config.js';
import type { Store } from '../engine/store/index.js';

/** The system's "choose a folder" dialog (Electron's dialog.showOpenDialog); absent in a browser. */
export interface FolderPicker {
  /** Resolves with the chosen folder's absolute path, or null when the person cancelled. */
  pick(options: { readonly title: string }): Promise<string | null>;
}

/** What the register form shows under its path field. */
export interface FolderCheck {
  /** The absolute, resolved path to register (`~` expanded, links followed); null when there is none. */
  readonly root: string | null;
  /** Why it cannot be registered; null when it can. */
  readonly problem: { readonly code: string; readonly message: string } | null;
  /** relay.config.json's projectId, when the folder has one (it keeps it). */
  readonly projectId: string | null;
  /** The project it is already registered as. */
  readonly registeredAs: string | null;
  readonly gitRepository: boolean;
}

/** "~/code/x" → "<home>/code/x"; anything else unchanged. */
export function expandHome(input: string, home: string = os.homedir()): string {
  return input === '~' ? home : input.startsWith('~/') ? path.join(home, input.slice(2)) : input;
}

/** Checks a typed folder path without changing anything. */
export function checkFolder(store: Store, input: string): FolderCheck {
  const none = { projectId: null, registeredAs: null, gitRepository: false };
  const typed = expandHome(input.trim());
  if (typed === '') return { root: null, problem: { code: 'ROOT_INVALID', message: 'Type the folder’s path.' }, ...none };
  if (!path.isAbsolute(typed)) return { root: null, problem: { code: 'ROOT_INVALID', message: `The path must be absolute (start with / or ~/): ${input.trim()}` }, ...none };
  if (!existsSync(typed)) return { root: null, problem: { code: 'ROOT_NOT_FOUND', message: `No folder at ${typed}.` }, ...none };
  let root: string;
  try {
    root = realpathSync(typed);
    if (!statSync(root).isDirectory()) return { root: null, problem: { code: 'ROOT_NOT_FOLDER', message: `${typed} is a file, not a folder.` }, ...none };
  } catch (error) {
    return { root: null, problem: { code: 'ROOT_UNREADABLE', message: `${typed} cannot be read: ${(error as Error).message}` }, ...none };
  }
  const config = loadRelayConfig(root);
  const gitRepository = existsSync(path.join(root, '.git'));
  const registeredAs = store.projects.getByRoot(root)?.projectId ?? null;
  if (!config.ok && config.error.code === 'ROOT_INSIDE_GIT') return { root, problem: { code: config.error.code, message: config.error.message }, projectId: null, registeredAs, gitRepository };
  if (!config.ok && config.error.code !== 'CONFIG_MISSING') {
    return { root, problem: { code: config.error.code, message: `Its relay.config.json must be fixed first: ${config.error.message}` }, projectId: null, registeredAs, gitRepository };
  }
  return { root, problem: null, projectId: config.ok ? config.value.projectId : null, registeredAs, gitRepository };
}
