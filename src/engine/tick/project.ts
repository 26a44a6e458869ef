import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { headPosition, workTreeRoot } from '../git/head.js';
import type { Blocker } from './blocked.js';
import type { SourceEnv } from './claude.js';
import { TICK_CONFIG_FILE, loadTickConfig, type TickConfig } from './config.js';
import type { BuilderResult, Task } from './task.js';
import { compileSchema, type SchemaCheck } from './validate.js';
import { relativeToRoot, workspacePaths, type WorkspacePaths } from './workspace.js';
import { ownFolder, resolveInsideRoot } from '../fs/safe-path.js';

/** A repository whose config, workspace and git state were read and found usable (A1 rows 1-2). */
export interface Project {
  readonly root: string;
  readonly config: TickConfig;
  readonly paths: WorkspacePaths;
  readonly baseCommit: string;
  /** "refs/heads/<branch>", or null when HEAD is detached. */
  readonly branch: string | null;
  readonly checkTask: SchemaCheck<Task>;
  readonly checkBuilderResult: SchemaCheck<BuilderResult>;
  readonly taskSchemaText: string;
  readonly builderResultSchemaText: string;
  readonly prompts: { readonly orchestratorSystem: string; readonly orchestratorUser: string; readonly builderSystem: string; readonly builderUser: string };
}

/**
 * Who runs the tick, for the checks that depend on it. `uid` is required: a caller that left it
 * out would skip the root check (the app once did), so every runner says who it is.
 */
export interface RunnerIdentity {
  /** Environment of child processes (Claude, verification). */
  readonly env?: SourceEnv;
  /** The runner's user id; 0 is root. Null where there is no such thing (Windows). */
  readonly uid: number | null;
}

/**
 * This process as a tick runner: the environment its children get and its user id. `relais run`
 * and the app's tick engine both take their identity from here, so both meet the same checks.
 */
export function thisProcessRunner(env: SourceEnv): RunnerIdentity {
  return { env, uid: typeof process.getuid === 'function' ? process.getuid() : null };
}

const INIT_HINT = `Run \`relais init\` at the repository root, then commit ${TICK_CONFIG_FILE} and the relais/ folder.`;

function missingConfig(reason: string, remediation: string, details: readonly string[] = []): Blocker {
  return { code: 'BLOCKED_MISSING_CONFIG', reason, remediation, details };
}

function readWorkspaceFile(root: string, rel: string, problems: string[]): string {
  // Through the path chokepoint: a prompt or schema that is a link out of the repository (a
  // cloned one could point it at ~/.ssh) is not read and sent to a model.
  const where = resolveInsideRoot(root, rel, { purpose: 'read' });
  if (!where.ok) {
    problems.push(`${rel} cannot be used: ${where.error.message}`);
    return '';
  }
  try {
    return readFileSync(where.value.absolute, 'utf8');
  } catch {
    problems.push(`${rel} is missing or unreadable`);
    return '';
  }
}

function loadSchema<T>(root: string, rel: string, problems: string[]): { check: SchemaCheck<T>; text: string } | null {
  const text = readWorkspaceFile(root, rel, problems);
  if (!text) return null;
  let schema: unknown;
  try {
    schema = JSON.parse(text);
  } catch (error) {
    problems.push(`${rel} is not JSON: ${(error as Error).message}`);
    return null;
  }
  const compiled = compileSchema<T>(schema);
  if (!compiled.ok) {
    problems.push(`${rel} is not a valid JSON Schema: ${compiled.error.message}`);
    return null;
  }
  return { check: compiled.value, text };
}

/**
 * True when Claude Code will refuse the builder's permission mode: it rejects
 * bypassPermissions under root unless IS_SANDBOX=1 (or its bubblewrap sandbox) says the
 * machine is disposable.
 */
export function rootRefusesBypass(config: TickConfig, identity: RunnerIdentity): boolean {
  const env = identity.env ?? {};
  return identity.uid === 0 && config.builder.claude_code.permission_mode === 'bypassPermissions' && env.IS_SANDBOX !== '1' && !env.CLAUDE_CODE_BUBBLEWRAP;
}

export type OpenedProject = { readonly ok: true; readonly project: Project } | { readonly ok: false; readonly blocker: Blocker; readonly paths: WorkspacePaths };

/** Reads config, workspace and git: A1 rows 1 and 2, plus the root check of the builder's mode. */
export async function openProject(start: string, identity: RunnerIdentity): Promise<OpenedProject> {
  const root = existsSync(start) ? realpathSync(start) : path.resolve(start);
  const loaded = loadTickConfig(root);
  if (!loaded.ok) {
    const paths = workspacePaths(root);
    const blocker =
      loaded.error.code === 'CONFIG_MISSING'
        ? missingConfig(`${TICK_CONFIG_FILE} is missing in ${root}.`, INIT_HINT)
        : missingConfig(`${TICK_CONFIG_FILE} cannot be used.`, `Fix ${TICK_CONFIG_FILE} (see details), or delete it and run \`relais init\` to write a fresh one.`, loaded.error.message.split('\n').map((l) => l.trim()).filter(Boolean));
    return { ok: false, blocker, paths };
  }
  const config = loaded.value;
  const paths = workspacePaths(root, config);
  const blocked = (blocker: Blocker): OpenedProject => ({ ok: false, blocker, paths });
  // The runner's own folders must be real folders inside the repository: a cloned repository whose
  // relais/ (or history folder) is a link to elsewhere would otherwise receive every file the tick writes.
  for (const folder of [paths.dirRel, paths.historyDirRel, path.posix.dirname(relativeToRoot(root, paths.lock))]) {
    const checked = ownFolder(root, folder);
    if (!checked.ok) return blocked(missingConfig(`The tick runner's folder cannot be used: ${checked.error.message}`, `Make ${folder}/ a real folder inside the repository (not a symbolic link), then run again.`));
  }

  const problems: string[] = [];
  const taskSchema = loadSchema<Task>(root, config.orchestrator.task_schema_file, problems);
  const builderSchema = loadSchema<BuilderResult>(root, config.builder.claude_code.builder_result_schema_file, problems);
  const prompts = {
    orchestratorSystem: readWorkspaceFile(root, config.orchestrator.system_prompt_file, problems),
    orchestratorUser: readWorkspaceFile(root, config.orchestrator.user_prompt_file, problems),
    builderSystem: readWorkspaceFile(root, config.builder.claude_code.system_prompt_file, problems),
    builderUser: readWorkspaceFile(root, config.builder.claude_code.user_prompt_file, problems),
  };
  if (problems.length > 0 || !taskSchema || !builderSchema) {
    return blocked(missingConfig('The relais/ workspace is incomplete.', `${INIT_HINT} \`relais init\` only adds missing files; delete a broken one first to get the shipped version back.`, problems));
  }

  // Both questions at once: when `root` is no repository, the HEAD answer is simply unused.
  const [top, position] = await Promise.all([workTreeRoot(root), headPosition(root).catch(() => ({ commit: null, branch: null }))]);
  if (top === null) return blocked(missingConfig(`${root} is not inside a git repository.`, 'Relais judges every change from git: run `git init` and commit your project, then run `relais run` at its root.'));
  if (realpathSync(top) !== root) return blocked(missingConfig(`${root} is not the top of its git work tree (${top}).`, `Run relais from ${top}, with ${TICK_CONFIG_FILE} there.`));
  const { commit: base, branch } = position;
  if (base === null) return blocked(missingConfig('HEAD cannot be read: the repository has no commit yet.', `Commit your project (including ${TICK_CONFIG_FILE} and relais/), then run again.`));

  if (rootRefusesBypass(config, identity)) {
    return blocked(
      missingConfig(
        'Running as root: Claude Code refuses --permission-mode bypassPermissions for root.',
        'Run relais as a normal user; or, only inside a disposable container or VM, set IS_SANDBOX=1; or set builder.claude_code.permission_mode to "acceptEdits" in relais.config.json.',
      ),
    );
  }
  return {
    ok: true,
    project: {
      root,
      config,
      paths,
      baseCommit: base,
      branch,
      checkTask: taskSchema.check,
      checkBuilderResult: builderSchema.check,
      taskSchemaText: taskSchema.text,
      builderResultSchemaText: builderSchema.text,
      prompts,
    },
  };
}
