// Shared set-up for the tick integration tests: a real git repository with a committed Relais
// workspace, the fake Claude CLI on disk, and readers for what a tick leaves behind.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { relais, REPO_ROOT, type CliRun } from '../../helpers/cli.js';
import { gitIn, gitRepo, readTree, tempDir, writeFiles } from '../../helpers/temp.js';
import { initWorkspace } from '../../../src/engine/tick/workspace.js';
import { checkReport } from '../../../src/engine/tick/validate.js';
import { renderReportMd } from '../../../src/engine/tick/render.js';
import type { TickReport } from '../../../src/engine/tick/report.js';
import type { Task } from '../../../src/engine/tick/task.js';

export const FAKE_CLAUDE = path.join(REPO_ROOT, 'fixtures/fake-claude/claude.mjs');

/** One call the fake Claude recorded. */
export interface FakeCall {
  readonly role: 'orchestrator' | 'builder';
  readonly index: number;
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly stdin: string;
}

export type Json = Record<string, unknown>;

export const BASE_FILES: Readonly<Record<string, string>> = {
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\nexport const c = 3;\n',
  'README.md': '# demo\n',
  'package.json': '{ "name": "demo" }\n',
  'pnpm-lock.yaml': 'lockfileVersion: 9\n',
};

/** A test repository with Relais initialised and committed, and the fake Claude configured. */
export class TickRepo {
  readonly root: string;
  readonly outside: string;
  readonly logFile: string;
  readonly scenarioFile: string;
  /** A file outside the repository that verification commands append to, to prove they ran. */
  readonly marker: string;
  /** Where a fake Claude step or the `orphan` check writes the pid of the grandchild it started. */
  readonly pidFile: string;

  constructor(options: { files?: Readonly<Record<string, string>>; config?: (config: Json) => void } = {}) {
    this.root = gitRepo(options.files ?? BASE_FILES);
    this.outside = tempDir('relais-out-');
    this.logFile = path.join(this.outside, 'claude-calls.jsonl');
    this.scenarioFile = path.join(this.outside, 'scenario.json');
    this.marker = path.join(this.outside, 'verify-marker.txt');
    this.pidFile = path.join(this.outside, 'grandchild.pid');
    const init = initWorkspace(this.root);
    if (!init.ok) throw new Error(init.error.message);
    const config = this.config();
    (config.claude_code_cli as Json).command = FAKE_CLAUDE;
    (config.verification as Json).templates = this.templates();
    options.config?.(config);
    this.writeConfig(config);
    this.commit('relais init');
  }

  private orphanScript(): string {
    const script = path.join(this.outside, 'orphan.cjs');
    writeFileSync(script, `const c = require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: ['ignore', 'inherit', 'inherit'] });\nrequire('fs').writeFileSync(${JSON.stringify(this.pidFile)}, String(c.pid));\nsetTimeout(() => {}, 60000);\n`);
    return script;
  }

  /** Verification templates that run node and leave a trace in `marker`. */
  private templates(): Json[] {
    const trace = (name: string) => `require('fs').appendFileSync(${JSON.stringify(this.marker)}, ${JSON.stringify(`${name}\n`)})`;
    const mark = (name: string, exit: number) => `${trace(name)}; process.exit(${exit})`;
    return [
      { id: 'pass', cmd: 'node', args: ['-e', mark('pass', 0)] },
      { id: 'pass2', cmd: 'node', args: ['-e', mark('pass2', 0)] },
      { id: 'fail', cmd: 'node', args: ['-e', mark('fail', 3)] },
      { id: 'slow_pass', cmd: 'node', args: ['-e', mark('slow_pass', 0)] },
      { id: 'slow_fail', cmd: 'node', args: ['-e', mark('slow_fail', 4)] },
      { id: 'sleep', cmd: 'node', args: ['-e', `${trace('sleep')}; setTimeout(() => {}, 10000)`] },
      // Starts a grandchild that holds the output pipes (as `pnpm test` starting workers does), then hangs.
      { id: 'orphan', cmd: 'node', args: [this.orphanScript()] },
      // Leaves a folder where REPORT.json goes, so the runner cannot write its report (A6 row 1).
      { id: 'block_report', cmd: 'node', args: ['-e', "require('fs').mkdirSync('relais/REPORT.json', { recursive: true })"] },
      {
        id: 'echo',
        cmd: 'node',
        args: ['-e', `require('fs').appendFileSync(${JSON.stringify(this.marker)}, 'echo ' + process.argv[1] + '\\n')`, '{{value}}'],
        params: { value: { kind: 'string_token' } },
      },
      {
        id: 'cat',
        cmd: 'node',
        args: ['-e', `require('fs').appendFileSync(${JSON.stringify(this.marker)}, 'cat ' + require('fs').readFileSync(process.argv[1], 'utf8'))`, '{{file}}'],
        params: { file: { kind: 'path' } },
      },
    ];
  }

  config(): Json {
    return JSON.parse(readFileSync(path.join(this.root, 'relais.config.json'), 'utf8')) as Json;
  }

  writeConfig(config: Json): void {
    writeFileSync(path.join(this.root, 'relais.config.json'), `${JSON.stringify(config, null, 2)}\n`);
  }

  commit(message: string): void {
    gitIn(this.root, 'add', '-A');
    gitIn(this.root, 'commit', '-q', '--allow-empty', '-m', message);
  }

  /** Sets what the fake Claude answers: one step per call, per role. */
  scenario(scenario: { orchestrator?: readonly Json[]; builder?: readonly Json[] }): this {
    writeFileSync(this.scenarioFile, JSON.stringify(scenario));
    return this;
  }

  /** Runs the built `relais` CLI in the repository. */
  async relais(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
    return relais(args, { cwd: this.root, env: { IS_SANDBOX: '1', FAKE_CLAUDE_LOG: this.logFile, FAKE_CLAUDE_SCENARIO: this.scenarioFile, ...env } });
  }

  /** `relais run --json`, parsed: the events and the final result line. */
  async run(env: Record<string, string> = {}): Promise<{ exitCode: number; events: Json[]; result: Json; stderr: string }> {
    const run = await this.relais(['run', '--json'], env);
    const lines = run.stdout.split('\n').filter((l) => l.trim() !== '');
    let parsed: Json[];
    try {
      parsed = lines.map((l) => JSON.parse(l) as Json);
    } catch {
      throw new Error(`relais run --json printed something that is not JSON lines:\n${run.stdout}\n${run.stderr}`);
    }
    const result = parsed[parsed.length - 1];
    if (!result || result.type !== 'result') throw new Error(`no result line:\n${run.stdout}\n${run.stderr}`);
    return { exitCode: run.exitCode, events: parsed.slice(0, -1), result, stderr: run.stderr };
  }

  calls(role?: FakeCall['role']): FakeCall[] {
    if (!existsSync(this.logFile)) return [];
    const all = readFileSync(this.logFile, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as FakeCall);
    return role ? all.filter((c) => c.role === role) : all;
  }

  /** True while the grandchild recorded in `pidFile` still runs (a zombie counts as ended). */
  grandchildRunning(): boolean {
    const pid = Number(readFileSync(this.pidFile, 'utf8'));
    try {
      return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    }
  }

  markerLines(): string[] {
    return existsSync(this.marker) ? readFileSync(this.marker, 'utf8').split('\n').filter(Boolean) : [];
  }

  file(rel: string): string {
    return readFileSync(path.join(this.root, rel), 'utf8');
  }

  exists(rel: string): boolean {
    return existsSync(path.join(this.root, rel));
  }

  write(files: Readonly<Record<string, string>>): void {
    writeFiles(this.root, files);
  }

  head(): string {
    return gitIn(this.root, 'rev-parse', 'HEAD').trim();
  }

  gitStatus(): string {
    return gitIn(this.root, 'status', '--porcelain', '--untracked-files=all');
  }

  /** REPORT.json, checked against report.schema.json and its REPORT.md rendering. */
  report(): TickReport {
    const data: unknown = JSON.parse(this.file('relais/REPORT.json'));
    const checked = checkReport(data);
    expect(checked.ok, JSON.stringify(checked)).toBe(true);
    const report = data as TickReport;
    expect(this.file('relais/REPORT.md')).toBe(renderReportMd(report, (this.config().runner as { render_report_md: { max_chars: number } }).render_report_md.max_chars));
    return report;
  }

  blocked(): Json {
    return JSON.parse(this.file('relais/BLOCKED.json')) as Json;
  }

  state(): { milestones: Record<string, Record<string, number>>; budget_warning: boolean } {
    return JSON.parse(this.file('relais/STATE.json')) as { milestones: Record<string, Record<string, number>>; budget_warning: boolean };
  }

  counters(milestone = 'M1'): Record<string, number> {
    return this.exists('relais/STATE.json') ? (this.state().milestones[milestone] ?? {}) : {};
  }

  /** The work tree's files except .git and the runner's workspace, as path → bytes. */
  tree(): Map<string, string> {
    return readTree(this.root, ['.git', 'relais', 'relais.config.json']);
  }

  /** Everything a rollback must restore, taken before a tick. */
  snapshot(): { tree: Map<string, string>; head: string } {
    return { tree: this.tree(), head: this.head() };
  }

  /** The repository is exactly as in `before`: same bytes, no untracked file, same HEAD. */
  expectRolledBack(before: { tree: Map<string, string>; head: string }): void {
    expect(this.tree()).toEqual(before.tree);
    expect(this.gitStatus()).toBe('');
    expect(this.head()).toBe(before.head);
  }
}

/** A valid TASK, changed by `patch`. */
export function makeTask(patch: {
  kind?: Task['task_kind'];
  allowed?: string[];
  forbidden?: string[];
  newFiles?: boolean;
  lockfileChanges?: boolean;
  maxFiles?: number;
  maxLines?: number;
  fast?: string[];
  slow?: string[];
  params?: Record<string, Record<string, string | number | boolean | null>>;
  maxTurns?: number;
  mode?: 'claude_code' | 'patch';
  patchText?: string;
  milestone?: string;
} = {}): Json {
  const kind = patch.kind ?? 'execute';
  return {
    task_id: 'T-1',
    milestone_id: patch.milestone ?? 'M1',
    task_kind: kind,
    intent: 'Change the value of a.',
    ...(kind === 'question' ? { question: { prompt: 'Which value should a have?' } } : {}),
    scope: { allowed_globs: patch.allowed ?? ['src/**'], forbidden_globs: patch.forbidden ?? [], allow_new_files: patch.newFiles ?? false, allow_lockfile_changes: patch.lockfileChanges ?? false },
    diff_limits: { max_files_touched: patch.maxFiles ?? 5, max_lines_changed: patch.maxLines ?? 100 },
    verification: { fast: patch.fast ?? [], slow: patch.slow ?? [], ...(patch.params ? { params: patch.params } : {}) },
    builder: { mode: patch.mode ?? 'claude_code', max_turns: patch.maxTurns ?? 4, instructions: 'Set a to 2 in src/a.ts.', ...(patch.patchText ? { patch: patch.patchText } : {}) },
  };
}

export const BUILDER_RESULT: Json = { summary: 'Changed a.', files_intended: ['src/a.ts'], commands_ran: [], notes: [] };

/** A builder step that answers a valid builder_result after making `edits`. */
export function builderDoes(...edits: Json[]): Json {
  return { result: BUILDER_RESULT, edits };
}

export const EDIT_A: Json = { op: 'write', path: 'src/a.ts', content: 'export const a = 2;\n' };
