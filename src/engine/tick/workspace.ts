import { existsSync, lstatSync, mkdirSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { ownFolder } from '../fs/safe-path.js';
import { fail, ok, type Result } from '../result.js';
import { TICK_CONFIG_FILE, defaultTickConfig, loadTickConfig, type TickConfig } from './config.js';
import { detectVerification, type DetectedVerification } from './detect.js';
import { FIXTURES_README, FIXTURES_README_FILE } from './fixtures-readme.js';
import { PROMPT_FILES } from './prompts.js';
import { SCHEMA_FILES, schemaFileText } from './schemas.js';

/** Where each file of a workspace lives: absolute paths, plus root-relative ones for reports. */
export interface WorkspacePaths {
  readonly root: string;
  /** Root-relative workspace folder, "relais" by default. */
  readonly dirRel: string;
  readonly dir: string;
  readonly config: string;
  readonly state: string;
  readonly task: string;
  readonly reportJson: string;
  readonly reportMd: string;
  readonly blocked: string;
  readonly facts: string;
  readonly lock: string;
  readonly historyDir: string;
  readonly historyDirRel: string;
  readonly schemasDir: string;
  readonly promptsDir: string;
}

/** The workspace layout for `root`, from the config (or the defaults before one exists). */
export function workspacePaths(root: string, config: TickConfig = defaultTickConfig()): WorkspacePaths {
  const dirRel = config.workspace_dir.replace(/\/+$/, '');
  const dir = path.join(root, dirRel);
  return {
    root,
    dirRel,
    dir,
    config: path.join(root, TICK_CONFIG_FILE),
    state: path.join(dir, 'STATE.json'),
    task: path.join(dir, 'TASK.json'),
    reportJson: path.join(dir, 'REPORT.json'),
    reportMd: path.join(dir, 'REPORT.md'),
    blocked: path.join(dir, 'BLOCKED.json'),
    facts: path.join(dir, 'FACTS.md'),
    lock: path.join(root, config.runner.lockfile),
    historyDir: path.join(root, config.history.dir),
    historyDirRel: config.history.dir.replace(/\/+$/, ''),
    schemasDir: path.join(dir, 'schemas'),
    promptsDir: path.join(dir, 'prompts'),
  };
}

/** Root-relative, forward-slash form of an absolute path inside the root. */
export function relativeToRoot(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

/** What `initWorkspace` did, file by file (root-relative paths). */
export interface InitResult {
  readonly created: readonly string[];
  readonly kept: readonly string[];
  /** What the new config's verification commands came from; null when an existing config was kept. */
  readonly verification: DetectedVerification | null;
}

/** The mutable runner state that must stay out of `git status`. */
function ignoredState(paths: WorkspacePaths): string[] {
  return [paths.state, paths.task, paths.reportJson, paths.reportMd, paths.blocked, paths.facts, paths.lock, `${paths.lock}.break-*`].map((p) => relativeToRoot(paths.root, p));
}

function ensureIgnored(paths: WorkspacePaths, created: string[], kept: string[]): void {
  // Entries inside the workspace go to its own .gitignore; anything configured elsewhere to the root's.
  const byFile = new Map<string, string[]>();
  const add = (rel: string, isDir = false): void => {
    const inside = rel.startsWith(`${paths.dirRel}/`);
    const file = inside ? path.join(paths.dir, '.gitignore') : path.join(paths.root, '.gitignore');
    const entry = `/${inside ? rel.slice(paths.dirRel.length + 1) : rel}${isDir ? '/' : ''}`;
    byFile.set(file, [...(byFile.get(file) ?? []), entry]);
  };
  for (const rel of ignoredState(paths)) add(rel);
  add(paths.historyDirRel, true);
  add(`${paths.dirRel}/*.tmp`);
  for (const [file, entries] of byFile) {
    // A .gitignore that is a link (a cloned repository's) is neither read nor written through.
    if (lstatOrNull(file)?.isSymbolicLink()) continue;
    const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
    const lines = new Set(current.split(/\r?\n/).map((l) => l.trim()));
    const missing = entries.filter((e) => !lines.has(e));
    const rel = relativeToRoot(paths.root, file);
    if (missing.length === 0) {
      kept.push(rel);
      continue;
    }
    const header = current.length === 0 ? '# Relais runner state: written by `relais run`, never committed.\n' : current.endsWith('\n') ? '' : '\n';
    writeFileAtomic(file, `${current}${header}${missing.join('\n')}\n`);
    created.push(rel);
  }
}

/** The schema and prompt files of a workspace (where the config puts them) with their shipped text. */
export function workspaceFiles(root: string, config: TickConfig): ReadonlyArray<readonly [string, string]> {
  const paths = workspacePaths(root, config);
  const at = (rel: string): string => path.join(root, rel);
  return [
    [at(config.orchestrator.task_schema_file), schemaFileText(SCHEMA_FILES['task.schema.json'])],
    [at(config.builder.claude_code.builder_result_schema_file), schemaFileText(SCHEMA_FILES['builder_result.schema.json'])],
    [path.join(paths.schemasDir, 'report.schema.json'), schemaFileText(SCHEMA_FILES['report.schema.json'])],
    [at(config.orchestrator.system_prompt_file), PROMPT_FILES['orchestrator.system.txt']],
    [at(config.orchestrator.user_prompt_file), PROMPT_FILES['orchestrator.user.txt']],
    [at(config.builder.claude_code.system_prompt_file), PROMPT_FILES['builder.system.txt']],
    [at(config.builder.claude_code.user_prompt_file), PROMPT_FILES['builder.user.txt']],
  ];
}

function writeIfMissing(paths: WorkspacePaths, file: string, text: string, created: string[], kept: string[]): void {
  const rel = relativeToRoot(paths.root, file);
  if (existsSync(file)) {
    kept.push(rel);
    return;
  }
  writeFileAtomic(file, text);
  created.push(rel);
}

/**
 * Creates relais.config.json (every default spelled out, with verification commands for the
 * scripts the project has: see detect.ts) and the workspace: schemas, prompts, the fixture list
 * (fixtures/README.md), the history folder and the ignore rules for runner state. Existing files
 * are kept as they are.
 */
export function initWorkspace(root: string): Result<InitResult, 'CONFIG_INVALID' | 'WORKSPACE_UNSAFE'> {
  const created: string[] = [];
  const kept: string[] = [];
  let config = defaultTickConfig();
  let verification: DetectedVerification | null = null;
  if (existsSync(path.join(root, TICK_CONFIG_FILE))) {
    const loaded = loadTickConfig(root);
    if (!loaded.ok) return fail('CONFIG_INVALID', loaded.error.message);
    config = loaded.value;
    kept.push(TICK_CONFIG_FILE);
  } else {
    verification = detectVerification(root);
    config = { ...config, verification: { ...config.verification, templates: verification.templates.map((t) => ({ ...t, args: [...t.args] })) } };
    writeFileAtomic(path.join(root, TICK_CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
    created.push(TICK_CONFIG_FILE);
  }
  const paths = workspacePaths(root, config);
  // The runner's folders must be real folders inside the repository: never written through a link.
  for (const folder of [paths.dirRel, paths.historyDirRel]) {
    const checked = ownFolder(root, folder);
    if (!checked.ok) return fail('WORKSPACE_UNSAFE', checked.error.message);
  }
  mkdirSync(paths.dir, { recursive: true });
  for (const [file, text] of workspaceFiles(root, config)) writeIfMissing(paths, file, text, created, kept);
  // Documentation only: a tick never needs it, so it is not among the files doctor requires.
  writeIfMissing(paths, path.join(paths.dir, FIXTURES_README_FILE), FIXTURES_README, created, kept);
  mkdirSync(paths.historyDir, { recursive: true });
  ensureIgnored(paths, created, kept);
  return ok({ created, kept, verification });
}
