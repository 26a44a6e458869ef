import { existsSync, readFileSync } from 'node:fs';
import { lastCommitLine, trackedFiles } from '../git/ls-files.js';
import { budgetsSummary } from './budgets.js';
import type { TickConfig } from './config.js';
import type { TickContext } from './context.js';
import { capText } from './render.js';
import type { Counters } from './state.js';
import type { Task } from './task.js';

const FACTS_MAX_CHARS = 4000;
const REPO_SUMMARY_MAX_CHARS = 1500;

function readCapped(file: string, max: number, none: string): string {
  if (!existsSync(file)) return none;
  try {
    const text = readFileSync(file, 'utf8').trim();
    return text ? capText(text, max) : none;
  } catch {
    return none;
  }
}

/** A short description of the repository for the orchestrator: branch, last commit, layout. */
export function summariseRepo(branch: string | null, lastCommit: string, files: readonly string[]): string {
  const top = new Map<string, number>();
  for (const file of files) {
    const slash = file.indexOf('/');
    const key = slash === -1 ? file : `${file.slice(0, slash)}/`;
    top.set(key, (top.get(key) ?? 0) + 1);
  }
  const entries = [...top.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, n]) => (name.endsWith('/') ? `${name} (${n} files)` : name));
  const lines = [`branch: ${branch ? branch.replace(/^refs\/heads\//, '') : '(detached HEAD)'}`, `last commit: ${lastCommit}`, `tracked files: ${files.length}`, `top level: ${entries.join(', ')}`];
  return capText(lines.join('\n'), REPO_SUMMARY_MAX_CHARS);
}

function templateList(config: TickConfig): string {
  if (config.verification.templates.length === 0) return '(none: use empty fast and slow lists)';
  return config.verification.templates
    .map((t) => {
      const params = Object.entries(t.params ?? {}).map(([name, p]) => `${name}: ${p.kind}`);
      return `- ${t.id}: ${[t.cmd, ...t.args].join(' ')}${params.length > 0 ? ` (params: ${params.join(', ')})` : ''}`;
    })
    .join('\n');
}

function scopeDefaults(config: TickConfig): string {
  return [
    `- allowed_globs: ${JSON.stringify(config.scope.default_allowed_globs)}`,
    `- forbidden_globs (always enforced): ${JSON.stringify(config.scope.default_forbidden_globs)}`,
    `- allow_new_files: ${config.scope.default_allow_new_files}`,
    `- allow_lockfile_changes: ${config.scope.default_allow_lockfile_changes} (lockfiles: ${config.scope.lockfiles.join(', ')})`,
    `- diff limits (caps): max_files_touched ${config.diff_limits.default_max_files_touched}, max_lines_changed ${config.diff_limits.default_max_lines_changed}`,
    `- builder max_turns cap: ${config.builder.claude_code.max_turns}`,
    `- builder modes: claude_code${config.builder.allow_patch_mode ? ', patch (builder.patch holds a unified diff the runner applies)' : ''}; prefer ${config.builder.default_mode}`,
  ].join('\n');
}

/** Patch attempts left in the milestone, or null when patch mode is off. */
export function patchAttemptsLeft(config: TickConfig, used: Counters): number | null {
  return config.builder.allow_patch_mode ? Math.max(0, config.builder.patch.max_patch_attempts_per_milestone - used.patch_attempts) : null;
}

/** The values of the orchestrator's user prompt placeholders. */
export async function orchestratorValues(ctx: TickContext): Promise<Record<string, string>> {
  const { project } = ctx;
  const { config, paths } = project;
  const [files, lastCommit] = await Promise.all([trackedFiles(project.root), lastCommitLine(project.root)]);
  const used = ctx.ledger.counters;
  return {
    PROJECT_GOAL: config.project.goal.trim() || '(no goal set: the user can add project.goal to relais.config.json)',
    MILESTONE_ID: ctx.milestone,
    BUDGETS_SUMMARY: budgetsSummary(used, config.budgets.per_milestone, ctx.warnings, patchAttemptsLeft(config, used)),
    VERIFY_TEMPLATE_IDS: templateList(config),
    SCOPE_DEFAULTS: scopeDefaults(config),
    REPO_SUMMARY: summariseRepo(project.branch, lastCommit, files),
    FACTS_MD: readCapped(paths.facts, FACTS_MAX_CHARS, '(none)'),
    LAST_REPORT_MD: readCapped(paths.reportMd, config.runner.render_report_md.max_chars, '(no earlier tick)'),
    BLOCKED_JSON_OR_EMPTY: readCapped(paths.blocked, 4000, ''),
    TASK_SCHEMA: project.taskSchemaText.trim(),
  };
}

/** The values of the builder's user prompt placeholders. */
export function builderValues(task: Task, limits: { maxFiles: number; maxLines: number }, forbidden: readonly string[], builderResultSchema: string): Record<string, string> {
  return {
    TASK_JSON: JSON.stringify(task, null, 2),
    ALLOWED_GLOBS: JSON.stringify(task.scope.allowed_globs),
    FORBIDDEN_GLOBS: JSON.stringify(forbidden),
    ALLOW_NEW_FILES: String(task.scope.allow_new_files),
    ALLOW_LOCKFILE_CHANGES: String(task.scope.allow_lockfile_changes),
    MAX_FILES_TOUCHED: String(limits.maxFiles),
    MAX_LINES_CHANGED: String(limits.maxLines),
    BUILDER_RESULT_SCHEMA: builderResultSchema.trim(),
  };
}
