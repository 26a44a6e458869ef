// Where a project keeps each kind of file of truth. The transaction records, answers and briefs
// live at fixed places in `.relaycode/`; the tick history folder and the tick workspace are where
// relais.config.json puts them (`history.dir`, `workspace_dir`), so every reader asks here instead
// of assuming `relais/history`.
import { normaliseRelativePath } from '../fs/safe-path.js';
import { STATE_DIR } from '../patch/names.js';
import { defaultTickConfig, loadTickConfig } from '../tick/config.js';

/** The kinds of files of truth, one reader each in this module. */
export type RecordKind = 'transaction' | 'tick' | 'answer' | 'handoff';

/** Every kind, in the order they are indexed. */
export const RECORD_KINDS: readonly RecordKind[] = ['transaction', 'tick', 'answer', 'handoff'];

/** Where answers are kept, inside `.relaycode/`. */
export const ANSWERS_DIR = 'answers';
/** Where answers are kept, relative to the project root. */
export const ANSWER_FOLDER = `${STATE_DIR}/${ANSWERS_DIR}`;
/** Where handoff briefs are kept, relative to the project root. */
export const HANDOFFS_DIR = `${STATE_DIR}/handoffs`;

/** A project's record folders, project-relative with forward slashes. */
export interface RecordFolders {
  readonly transaction: string;
  readonly answer: string;
  readonly handoff: string;
  /** The tick history folder: relais.config.json's `history.dir` ("relais/history" by default). */
  readonly tick: string;
  /** The tick workspace: relais.config.json's `workspace_dir` ("relais" by default): STATE.json, TASK.json, REPORT.json. */
  readonly tickWorkspace: string;
}

/**
 * The record folders of the project at `root`. A missing or unreadable relais.config.json gives
 * the defaults (the project may not use ticks at all); the config's own schema already refuses
 * absolute paths and `..` there.
 */
export function recordFolders(root: string): RecordFolders {
  const loaded = loadTickConfig(root);
  const config = loaded.ok ? loaded.value : defaultTickConfig();
  const defaults = defaultTickConfig();
  return {
    transaction: STATE_DIR,
    answer: ANSWER_FOLDER,
    handoff: HANDOFFS_DIR,
    tick: normaliseRelativePath(config.history.dir) ?? defaults.history.dir,
    tickWorkspace: normaliseRelativePath(config.workspace_dir) ?? defaults.workspace_dir,
  };
}
