import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { isProcessAlive } from '../fs/process.js';
import { status } from '../git/status.js';
import { readBlocked, type Blocker } from './blocked.js';
import { budgetWarnings, reservationShortfalls, worstCaseTick } from './budgets.js';
import { folderSizeBytes } from './history.js';
import type { Project } from './project.js';
import { countersOf, emptyState, loadState, type TickState } from './state.js';
import { checkReport } from './validate.js';
import { relativeToRoot } from './workspace.js';

/** Preflight passed: the state to start from, and what it noticed on the way. */
export interface Startable {
  readonly state: TickState;
  readonly warnings: readonly string[];
  /** Stale temp files removed (mode "run") or that would be removed (mode "check"). */
  readonly staleTmp: readonly string[];
}

export type StartCheck = { readonly ok: true; readonly value: Startable } | { readonly ok: false; readonly blocker: Blocker };

/** Files under the workspace (history excluded: it is large and holds no temp files of ours). */
function workspaceFiles(project: Project): string[] {
  const out: string[] = [];
  const skip = project.paths.historyDir;
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir, { withFileTypes: true }).map((d) => (d.isDirectory() ? `${d.name}/` : d.name));
    } catch {
      return;
    }
    for (const name of names) {
      const absolute = path.join(dir, name);
      if (name.endsWith('/')) {
        if (path.resolve(absolute) !== path.resolve(skip)) walk(absolute);
      } else out.push(absolute);
    }
  };
  walk(project.paths.dir);
  return out;
}

/**
 * True when a temp file's writer is still running: atomic writes name their temp file
 * ".<name>.<pid>.<random>.tmp", and a run refused by the lock may be writing BLOCKED.json right
 * now. Temp files without a pid (e.g. "STATE.json.tmp") are always stale.
 */
export function tempFileWriterAlive(name: string, isAlive: (pid: number) => boolean = isProcessAlive): boolean {
  const match = /^\..+\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name);
  return match !== null && Number(match[1]) !== process.pid && isAlive(Number(match[1]));
}

/** Temp files left by an interrupted atomic write, matched by runner.crash_cleanup.delete_tmp_glob. */
export function staleTempFiles(project: Project): string[] {
  const isTmp = picomatch(project.config.runner.crash_cleanup.delete_tmp_glob, { dot: true });
  return workspaceFiles(project)
    .filter((file) => !tempFileWriterAlive(path.basename(file)))
    .map((f) => relativeToRoot(project.root, f))
    .filter((rel) => isTmp(rel))
    .sort();
}

/** Checks each runner-owned JSON file against its schema; one line per broken file. */
export function invalidRunnerJson(project: Project): string[] {
  const problems: string[] = [];
  const { paths } = project;
  const rel = (file: string): string => relativeToRoot(project.root, file);
  const state = loadState(paths);
  if (!state.ok) problems.push(`${rel(paths.state)}: ${state.error.message}`);
  const checkJson = (file: string, check: (value: unknown) => string[]): void => {
    if (!existsSync(file)) return;
    try {
      const errors = check(JSON.parse(readFileSync(file, 'utf8')));
      if (errors.length > 0) problems.push(`${rel(file)}: ${errors.slice(0, 3).join('; ')}`);
    } catch (error) {
      problems.push(`${rel(file)}: not JSON (${(error as Error).message})`);
    }
  };
  checkJson(paths.task, (v) => {
    const r = project.checkTask(v);
    return r.ok ? [] : [...r.errors];
  });
  checkJson(paths.reportJson, (v) => {
    const r = checkReport(v);
    return r.ok ? [] : [...r.errors];
  });
  if (readBlocked(paths.blocked) === 'invalid') problems.push(`${rel(paths.blocked)}: does not match the BLOCKED record schema`);
  return problems;
}

/**
 * A1 rows 4 to 7, in order, once the lock is held (mode "run": stale temp files are deleted)
 * or without it (mode "check", for `relais status --preflight`: nothing is changed).
 */
export async function checkStartable(project: Project, mode: 'run' | 'check'): Promise<StartCheck> {
  const { config, paths } = project;
  const dirty = await status(project.root);
  if (dirty.length > 0) {
    return {
      ok: false,
      blocker: {
        code: 'BLOCKED_DIRTY_WORKTREE',
        reason: `The work tree has ${dirty.length} uncommitted or untracked path(s).`,
        remediation:
          'Commit or stash them (`git add -A && git commit -m "..."`, or `git stash -u`), then run again. After a SUCCESS tick this is expected: review the diff and commit it; the runner never commits for you.',
        details: dirty.slice(0, 50).map((e) => `${e.code} ${e.path}`),
      },
    };
  }

  if (config.history.enabled) {
    const bytes = folderSizeBytes(paths.historyDir);
    const cap = config.history.max_mb * 1024 * 1024;
    if (bytes > cap) {
      return {
        ok: false,
        blocker: {
          code: 'BLOCKED_HISTORY_CAP_CLEANUP_REQUIRED',
          reason: `${paths.historyDirRel}/ holds ${(bytes / 1048576).toFixed(2)} MB, over its cap of ${config.history.max_mb} MB.`,
          remediation: `Delete or archive old run folders under ${paths.historyDirRel}/ (each is history/<run_id>/), or raise history.max_mb in relais.config.json.`,
        },
      };
    }
  }

  const staleTmp = staleTempFiles(project);
  if (mode === 'run') for (const rel of staleTmp) rmSync(path.join(project.root, rel), { force: true });
  if (config.runner.crash_cleanup.validate_runner_json_files) {
    const broken = invalidRunnerJson(project);
    if (broken.length > 0) {
      return {
        ok: false,
        blocker: {
          code: 'BLOCKED_CRASH_RECOVERY_REQUIRED',
          reason: `${broken.length} runner-owned JSON file(s) are corrupt${staleTmp.length > 0 ? ` (stale temp files were found: ${staleTmp.join(', ')})` : ''}.`,
          remediation: `Inspect the files listed in details. Restore each from the newest ${paths.historyDirRel}/<run_id>/ copy if there is one, or delete it: a deleted STATE.json restarts the milestone counters at zero, a deleted TASK.json, REPORT.json or BLOCKED.json is simply rewritten by the next tick.`,
          details: broken,
        },
      };
    }
  }

  const loaded = loadState(paths);
  const state = (loaded.ok ? loaded.value : null) ?? emptyState(new Date(0));
  const milestone = config.project.milestone_id;
  const used = countersOf(state, milestone);
  const limits = config.budgets.per_milestone;
  const shortfalls = reservationShortfalls(used, limits, worstCaseTick(config));
  if (shortfalls.length > 0) {
    return {
      ok: false,
      blocker: {
        code: 'BLOCKED_BUDGET_EXHAUSTED',
        reason: `Milestone ${milestone} cannot reserve a worst-case tick.`,
        remediation: `Raise budgets.per_milestone in relais.config.json, or start a new milestone by changing project.milestone_id (each milestone has its own counters).`,
        details: shortfalls,
      },
    };
  }
  return { ok: true, value: { state, warnings: budgetWarnings(used, limits, config.budgets.warn_at_fraction), staleTmp } };
}
