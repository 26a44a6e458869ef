import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_FILES, STATE_FOLDER, isCommandOrStatePath } from '../fs/protected.js';
import { isInside } from '../fs/safe-path.js';
import { BlockedRecordSchema } from './blocked.js';
import type { JudgeRules } from './judge.js';
import { changedPaths, takeSnapshot, type FileSnapshot } from './owned.js';
import type { Project } from './project.js';
import { globMatcher } from './scope.js';
import { relativeToRoot } from './workspace.js';

/** The rules the judge takes from the config. */
export function judgeRules(project: Project): JudgeRules {
  const { config, paths } = project;
  const ownedGlobs = globMatcher(config.runner.runner_owned_globs);
  const configRel = relativeToRoot(project.root, paths.config);
  return {
    // The config is protected too: a builder that rewrites it could raise its own budgets. So are
    // the files that define commands and Relay Desk's state at any depth (relay.config.json,
    // relay.handoff.json, .relaycode/…): a builder that wrote one could run anything later.
    isRunnerOwned: (p) => p === configRel || p === paths.dirRel || p.startsWith(`${paths.dirRel}/`) || ownedGlobs(p) || isCommandOrStatePath(p),
    forbiddenFloor: config.scope.default_forbidden_globs,
    lockfiles: config.scope.lockfiles,
    maxFilesCap: config.diff_limits.default_max_files_touched,
    maxLinesCap: config.diff_limits.default_max_lines_changed,
  };
}

/**
 * Watches the files git cannot judge while the builder runs: runner-owned files (most are
 * ignored, so `git status` never shows them) by content, and .git's config, hooks and info/
 * (where an ignore rule or a hook could be slipped in).
 */
export class BuilderGuard {
  #ownedBefore: FileSnapshot | null = null;
  #gitBefore: FileSnapshot | null = null;
  #ownedChanged: string[] = [];
  #gitChanged: string[] = [];

  constructor(
    private readonly project: Project,
    private readonly runId: string,
  ) {}

  private ownedSpec() {
    const { paths, config } = this.project;
    const literal = config.runner.runner_owned_globs.filter((g) => !/[*?[\]{}!]/.test(g)).map((g) => path.join(this.project.root, g));
    // Relay Desk's state and command files are usually ignored by git, so they are watched here;
    // .relaycode's own entries by stat only (records can be large): detected, not restored.
    const state = path.join(this.project.root, STATE_FOLDER);
    const commandFiles = Object.keys(COMMAND_FILES).map((f) => path.join(this.project.root, f));
    return {
      dirs: isInside(paths.dir, paths.historyDir) ? [paths.dir] : [paths.dir, paths.historyDir],
      files: [paths.config, paths.lock, ...literal, ...commandFiles],
      statOnly: [paths.historyDir, state],
      flat: [state],
    };
  }

  private gitSpec() {
    const gitDir = path.join(this.project.root, '.git');
    if (!existsSync(gitDir) || !statSync(gitDir).isDirectory()) return null; // worktrees and submodules: .git is a file
    return { dirs: [path.join(gitDir, 'hooks'), path.join(gitDir, 'info')], files: [path.join(gitDir, 'config')], statOnly: [] };
  }

  /** Takes the "before" fingerprints; call right before the builder starts. */
  start(): void {
    this.#ownedBefore = takeSnapshot(this.project.root, this.ownedSpec());
    const git = this.gitSpec();
    this.#gitBefore = git ? takeSnapshot(this.project.root, git) : null;
  }

  /** Compares with the "after" fingerprints; call right after the builder ends, before the runner writes. */
  stop(): void {
    if (!this.#ownedBefore) return;
    const after = takeSnapshot(this.project.root, this.ownedSpec());
    this.#ownedChanged = changedPaths(this.#ownedBefore, after).filter((rel) => !this.writtenByAnotherRun(rel));
    const git = this.gitSpec();
    if (this.#gitBefore && git) this.#gitChanged = changedPaths(this.#gitBefore, takeSnapshot(this.project.root, git));
  }

  /**
   * While this tick runs, a second `relais run` is refused and writes BLOCKED.json naming this
   * run as the lock holder (through an atomic temp file): those writes are not the builder's.
   */
  private writtenByAnotherRun(rel: string): boolean {
    const { paths } = this.project;
    const absolute = path.join(this.project.root, rel);
    if (path.dirname(absolute) === paths.dir && /^\..+\.tmp$/.test(path.basename(absolute))) return true;
    if (absolute !== paths.blocked || !existsSync(absolute)) return false;
    try {
      const record = BlockedRecordSchema.safeParse(JSON.parse(readFileSync(absolute, 'utf8')));
      return record.success && record.data.code === 'BLOCKED_LOCK_HELD' && record.data.lock_holder?.run_id === this.runId;
    } catch {
      return false;
    }
  }

  /** Runner-owned paths the builder created, changed or removed. */
  get ownedChanged(): readonly string[] {
    return this.#ownedChanged;
  }

  /** Guarded .git/ paths the builder created, changed or removed. */
  get gitChanged(): readonly string[] {
    return this.#gitChanged;
  }

  /** The snapshots a rollback needs to put guarded files back. */
  restorePoints(): { before: FileSnapshot; changed: readonly string[] }[] {
    const points: { before: FileSnapshot; changed: readonly string[] }[] = [];
    if (this.#ownedBefore && this.#ownedChanged.length > 0) points.push({ before: this.#ownedBefore, changed: this.#ownedChanged });
    if (this.#gitBefore && this.#gitChanged.length > 0) points.push({ before: this.#gitBefore, changed: this.#gitChanged });
    return points;
  }
}
