// Project registration and settings: the files of truth (relay.config.json) first, then the
// store, then the runtime, so a failure part-way leaves nothing half-registered that matters.
import { existsSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChannelArgs } from '../shared/contract.js';
import type { Project } from '../shared/schemas.js';
import { loadRelayConfig, writeRelayConfig } from '../engine/patch/config.js';
import { toArgv } from '../engine/patch/commands.js';
import { PROJECT_ID_PATTERN, initProject } from '../engine/patch/init.js';
import type { Runtime } from '../engine/runtime/index.js';
import { DEFAULT_SETTINGS, type ProjectRecord, type Store } from '../engine/store/index.js';
import { fail, ok, type Result } from '../engine/result.js';
import type { Recorder } from './recorder.js';

export interface ProjectDeps {
  readonly runtime: Runtime;
  readonly store: Store;
  /** Indexes a newly registered project's history (the recorder is the one writer of runs). */
  readonly recorder: Pick<Recorder, 'reindex'>;
  readonly now: () => Date;
}

/** A stored project as the UI sees it, with what relay.config.json says now. */
export function toProject(record: ProjectRecord): Project {
  const config = loadRelayConfig(record.root);
  const linter = config.ok ? config.value.patch.linter : null;
  const hasLinter = Array.isArray(linter) ? linter.length > 0 : typeof linter === 'string' && linter.trim() !== '';
  return {
    projectId: record.projectId,
    name: record.name,
    root: record.root,
    settings: record.settings,
    linter: hasLinter ? linter : null,
    configError: config.ok ? null : config.error.message,
    registeredAt: record.registeredAt,
  };
}

/**
 * Registers a folder. A folder without relay.config.json is initialised as `relay init` would;
 * one with it keeps its projectId. Its existing history (made with the CLI) is indexed at once.
 */
export function registerProject(deps: ProjectDeps, args: ChannelArgs<'registerProject'>): Result<Project> {
  if (!path.isAbsolute(args.root)) return fail('ROOT_INVALID', `The project folder must be an absolute path: ${args.root}`);
  if (!existsSync(args.root) || !statSync(args.root).isDirectory()) return fail('ROOT_NOT_FOUND', `No folder at ${args.root}.`);
  const root = realpathSync(args.root);
  const config = loadRelayConfig(root);
  if (!config.ok && config.error.code === 'ROOT_INSIDE_GIT') return config;
  let projectId: string;
  if (config.ok) {
    projectId = config.value.projectId;
    if (args.projectId !== undefined && args.projectId !== projectId) {
      return fail('PROJECT_ID_MISMATCH', `${root} already has projectId "${projectId}" in its relay.config.json, not "${args.projectId}". Change it there if you mean to.`);
    }
  } else if (config.error.code === 'CONFIG_MISSING') {
    projectId = args.projectId ?? path.basename(root);
    if (!PROJECT_ID_PATTERN.test(projectId)) return fail('PROJECT_ID_INVALID', `A projectId must be letters, digits, ".", "_" or "-": ${JSON.stringify(projectId)}`);
  } else {
    return fail(config.error.code, `${root} cannot be registered until its relay.config.json is fixed: ${config.error.message}`);
  }
  const sameRoot = deps.store.projects.getByRoot(root);
  if (sameRoot && sameRoot.projectId !== projectId) {
    return fail('ROOT_REGISTERED', `${root} is already registered as project "${sameRoot.projectId}". Remove that registration first.`);
  }
  const existing = deps.store.projects.get(projectId);
  if (existing && existing.root !== root) {
    return fail('PROJECT_EXISTS', `Project "${projectId}" is already registered at ${existing.root}. Two folders cannot share a projectId; give one another id in its relay.config.json.`);
  }
  const record: ProjectRecord = {
    projectId,
    root,
    name: args.name ?? existing?.name ?? path.basename(root),
    settings: existing?.settings ?? DEFAULT_SETTINGS,
    registeredAt: existing?.registeredAt ?? deps.now().toISOString(),
  };
  if (!config.ok) initProject(root, { projectId });
  const registered = deps.runtime.send({ type: 'RegisterProject', projectId, root, name: record.name, policy: record.settings.approvalPolicy });
  if (!registered.ok) return registered;
  deps.store.projects.upsert(record);
  deps.recorder.reindex({ projectId, root });
  return ok(toProject(record));
}

/** Forgets a project (its files stay untouched); refused while it has tasks. */
export function removeProject(deps: ProjectDeps, projectId: string): Result<{ projectId: string }> {
  if (!deps.store.projects.get(projectId)) return fail('UNKNOWN_PROJECT', `No project "${projectId}" is registered.`);
  const removed = deps.runtime.send({ type: 'RemoveProject', projectId });
  // A project the store knows but the runtime does not (e.g. its registration failed at start) can still be removed.
  if (!removed.ok && removed.error.code !== 'UNKNOWN_PROJECT') return removed;
  deps.store.projects.remove(projectId);
  return ok({ projectId });
}

/** Changes a project's approval policy, linter (in relay.config.json) and clipboard watching. */
export function updateProjectSettings(deps: ProjectDeps, args: ChannelArgs<'updateProjectSettings'>): Result<Project> {
  const record = deps.store.projects.get(args.projectId);
  if (!record) return fail('UNKNOWN_PROJECT', `No project "${args.projectId}" is registered.`);
  if (args.linter !== undefined) {
    const config = loadRelayConfig(record.root);
    if (!config.ok) return config;
    const linter = args.linter ?? '';
    if (linter !== '' && !(Array.isArray(linter) && linter.length === 0)) {
      const argv = toArgv(linter);
      if (!argv.ok) return argv;
    }
    writeRelayConfig(record.root, { ...config.value, patch: { ...config.value.patch, linter } });
  }
  if (args.approvalPolicy !== undefined) {
    const set = deps.runtime.send({ type: 'SetApprovalPolicy', projectId: record.projectId, policy: args.approvalPolicy });
    if (!set.ok) return set;
  }
  const updated: ProjectRecord = {
    ...record,
    settings: {
      approvalPolicy: args.approvalPolicy ?? record.settings.approvalPolicy,
      watching: args.watching ?? record.settings.watching,
    },
  };
  deps.store.projects.upsert(updated);
  return ok(toProject(updated));
}
