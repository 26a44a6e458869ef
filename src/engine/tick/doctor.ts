import { ownFolder } from '../fs/safe-path.js';
import { git } from '../git/core.js';
import { gitVersion, headCommit, workTreeRoot } from '../git/head.js';
import { budgetWarnings, reservationShortfalls, worstCaseTick } from './budgets.js';
import { probeClaude, resolveCommand, type SourceEnv } from './claude.js';
import { TICK_CONFIG_FILE, defaultTickConfig, loadTickConfig, type TickConfig } from './config.js';
import { inspectLock } from './lock.js';
import { rootRefusesBypass, type RunnerIdentity } from './project.js';
import { countersOf, emptyState, loadState } from './state.js';
import { compileSchema } from './validate.js';
import { relativeToRoot, workspaceFiles, workspacePaths } from './workspace.js';
import { readFileSync } from 'node:fs';

/** One line of `relais doctor`. */
export interface DoctorCheck {
  readonly name: string;
  readonly status: 'ok' | 'warn' | 'fail';
  readonly detail: string;
}

/** Everything `relais doctor` found; `ok` is false when any check failed. */
export interface DoctorReport {
  readonly ok: boolean;
  readonly checks: readonly DoctorCheck[];
}

/** The schema files compile and the prompt files exist. */
function checkWorkspace(root: string, config: TickConfig, add: (name: string, status: DoctorCheck['status'], detail: string) => void): void {
  const problems: string[] = [];
  for (const [file] of workspaceFiles(root, config)) {
    const rel = relativeToRoot(root, file);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      problems.push(`${rel} is missing`);
      continue;
    }
    if (!rel.endsWith('.json')) continue;
    try {
      const compiled = compileSchema(JSON.parse(text));
      if (!compiled.ok) problems.push(`${rel}: ${compiled.error.message}`);
    } catch (error) {
      problems.push(`${rel}: not JSON (${(error as Error).message})`);
    }
  }
  add('schemas and prompts', problems.length === 0 ? 'ok' : 'fail', problems.length === 0 ? 'the three schemas compile (draft 2020-12) and the four prompts exist' : `${problems.join('; ')} (run \`relais init\` to restore missing files)`);
}

/** A tick without a goal has nothing to aim at: the orchestrator would make one up. */
function checkGoal(config: TickConfig, add: (name: string, status: DoctorCheck['status'], detail: string) => void): void {
  const goal = config.project.goal.trim();
  if (goal) add('goal', 'ok', goal.length > 80 ? `${goal.slice(0, 77)}…` : goal);
  else add('goal', 'warn', `project.goal is empty in ${TICK_CONFIG_FILE}: say what the ticks should work towards, or the orchestrator has nothing to aim at`);
}

/** Every verification command must resolve, or the first tick that lists it stops after spending the orchestrator and builder calls. */
function checkVerification(root: string, config: TickConfig, env: SourceEnv, add: (name: string, status: DoctorCheck['status'], detail: string) => void): void {
  const templates = config.verification.templates;
  if (templates.length === 0) {
    add('verification', 'warn', `no verification commands: ticks are judged by scope and diff limits only; list your checks in verification.templates of ${TICK_CONFIG_FILE} (cmd + args)`);
    return;
  }
  const missing = new Map<string, string[]>();
  for (const template of templates) {
    if (resolveCommand(template.cmd, root, env) === null) missing.set(template.cmd, [...(missing.get(template.cmd) ?? []), template.id]);
  }
  if (missing.size === 0) {
    add('verification', 'ok', `${templates.length} command(s) found: ${[...new Set(templates.map((t) => t.cmd))].join(', ')}`);
    return;
  }
  const named = [...missing].map(([cmd, ids]) => `"${cmd}" (${ids.join(', ')})`).join(', ');
  add('verification', 'fail', `not found${[...missing.keys()].some((c) => c.includes('/')) ? '' : ' on PATH'}: ${named}; install it or change verification.templates in ${TICK_CONFIG_FILE}`);
}

/** Checks git, the Claude CLI (path, version, permission modes, root), config, schemas and budgets. */
export async function doctor(options: RunnerIdentity & { readonly root: string; readonly claudeCommand?: string }): Promise<DoctorReport> {
  const checks: DoctorCheck[] = [];
  const add = (name: string, status: DoctorCheck['status'], detail: string): void => {
    checks.push({ name, status, detail });
  };
  const env: SourceEnv = options.env ?? {};

  try {
    const version = await gitVersion(options.root);
    add('git', 'ok', `git ${version ?? '(unknown version)'}`);
  } catch (error) {
    add('git', 'fail', `git cannot be run: ${(error as Error).message}`);
  }
  const top = await workTreeRoot(options.root);
  const head = top ? await headCommit(options.root) : null;
  add('repository', top && head ? 'ok' : 'fail', !top ? `${options.root} is not in a git repository` : !head ? 'no commit yet: HEAD cannot be read' : `${top} at ${head.slice(0, 12)}`);

  const loaded = loadTickConfig(options.root);
  if (!loaded.ok) add('config', 'fail', `${loaded.error.message} (the checks below use the defaults)`);
  else add('config', 'ok', `relais.config.json is valid (milestone ${loaded.value.project.milestone_id})`);
  const config = loaded.ok ? loaded.value : defaultTickConfig();
  const paths = workspacePaths(options.root, config);

  // The folders a tick writes (relais/, its history folder) must be real folders inside the
  // project: `relais run` refuses a link (a cloned repository can ship one), so the doctor says so too.
  const unsafe = ['relais', paths.historyDirRel].map((folder) => ownFolder(options.root, folder)).find((checked) => !checked.ok);
  add('state folders', unsafe && !unsafe.ok ? 'fail' : 'ok', unsafe && !unsafe.ok ? `${unsafe.error.code}: ${unsafe.error.message}` : `relais/ and ${paths.historyDirRel}/ are real folders inside the project (or not made yet)`);

  if (loaded.ok) {
    checkWorkspace(options.root, config, add);
    checkGoal(config, add);
    checkVerification(options.root, config, env, add);
  }

  const command = options.claudeCommand ?? config.claude_code_cli.command;
  const resolved = resolveCommand(command, options.root, env);
  if (!resolved) {
    add('claude', 'fail', `"${command}" was not found${command.includes('/') ? '' : ' on PATH'}; install Claude Code or set claude_code_cli.command to its absolute path`);
  } else {
    const probe = await probeClaude(resolved, options.root, options.env);
    add('claude', probe.problem ? 'fail' : 'ok', probe.problem ?? `${resolved} (version ${probe.version ?? 'unknown'})`);
    const wanted = [config.orchestrator.permission_mode, config.builder.claude_code.permission_mode];
    if (probe.permissionModes.length === 0) add('permission modes', 'warn', 'could not read the accepted --permission-mode names from `--help`');
    else {
      const missing = wanted.filter((m) => !probe.permissionModes.includes(m));
      add('permission modes', missing.length === 0 ? 'ok' : 'fail', `accepted: ${probe.permissionModes.join(', ')}${missing.length > 0 ? `; not accepted: ${missing.join(', ')}` : ''}`);
    }
  }
  if (rootRefusesBypass(config, options)) add('root', 'fail', 'running as root: Claude Code refuses bypassPermissions for root; run as a normal user, or set IS_SANDBOX=1 only inside a disposable container');
  else if (options.uid === 0) add('root', 'warn', 'running as root (allowed: IS_SANDBOX=1 or a permission mode other than bypassPermissions)');
  else add('root', 'ok', 'not running as root');

  if (top && loaded.ok) {
    const probe = await git(options.root, ['check-ignore', '-q', '--', relativeToRoot(options.root, paths.state)], { okExitCodes: [1, 128] });
    add('ignore rules', probe.exitCode === 0 ? 'ok' : 'warn', probe.exitCode === 0 ? 'runner state is ignored by git' : 'relais/STATE.json is not ignored: run `relais init` to add relais/.gitignore');
  }

  const state = loadState(paths);
  if (loaded.ok && !state.ok) add('budgets', 'fail', state.error.message);
  else if (loaded.ok && state.ok) {
    const used = countersOf(state.value ?? emptyState(new Date(0)), config.project.milestone_id);
    const limits = config.budgets.per_milestone;
    const short = reservationShortfalls(used, limits, worstCaseTick(config));
    const warnings = budgetWarnings(used, limits, config.budgets.warn_at_fraction);
    const left = `ticks ${limits.max_ticks - used.ticks}, orchestrator calls ${limits.max_orchestrator_calls - used.orchestrator_calls}, builder calls ${limits.max_builder_calls - used.builder_calls}, verify runs ${limits.max_verify_runs - used.verify_runs}, $${(limits.max_estimated_cost_usd - used.estimated_cost_usd).toFixed(2)} left`;
    add('budgets', short.length > 0 ? 'fail' : warnings.length > 0 ? 'warn' : 'ok', short.length > 0 ? `${left}; cannot reserve a tick: ${short.join('; ')}` : warnings.length > 0 ? `${left}; ${warnings.join('; ')}` : left);
  }
  const lock = inspectLock(paths.lock);
  add('lock', lock.state === 'free' ? 'ok' : 'warn', lock.state === 'free' ? 'no tick is running' : lock.state === 'held' ? `a tick is running (process ${lock.holder?.pid ?? 'unknown'})` : 'a stale lock is left; the next run reclaims it');
  return { ok: checks.every((c) => c.status !== 'fail'), checks };
}
