// The tick runner's own overhead: one `runTick` on a 5,000-file repository whose builder changes
// 20 files, minus the time inside the (fake) Claude calls, beside the raw git commands a tick
// needs. Figures only; the target (overhead under 2x raw git) is read by people.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runTick } from '../src/engine/tick/index.js';
import { initWorkspace } from '../src/engine/tick/workspace.js';

const FILES = 5000;
const CHANGED = 20;
const RUNS = 7;
const FAKE_CLAUDE = path.resolve(import.meta.dirname, '../fixtures/fake-claude/claude.mjs');

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=bench@relay-desk.invalid', ...args], { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

function makeRepo(): { root: string; scenario: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'relais-bench-'));
  git(root, 'init', '-q', '-b', 'main');
  for (let d = 0; d < FILES / 100; d += 1) {
    const dir = path.join(root, 'src', `mod${d}`);
    mkdirSync(dir, { recursive: true });
    for (let f = 0; f < 100; f += 1) writeFileSync(path.join(dir, `file${f}.ts`), Array.from({ length: 20 }, (_, i) => `export const v${i} = ${d * 100 + f + i};`).join('\n') + '\n');
  }
  const init = initWorkspace(root);
  if (!init.ok) throw new Error(init.error.message);
  const configFile = path.join(root, 'relais.config.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { claude_code_cli: { command: string }; verification: { templates: unknown[] }; diff_limits: { default_max_files_touched: number } };
  config.claude_code_cli.command = FAKE_CLAUDE;
  config.verification.templates = [];
  config.diff_limits.default_max_files_touched = 50;
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench repository');
  const task = {
    task_id: 'B-1',
    milestone_id: 'M1',
    task_kind: 'execute',
    intent: 'Touch twenty files.',
    scope: { allowed_globs: ['src/**'], forbidden_globs: [], allow_new_files: false, allow_lockfile_changes: false },
    diff_limits: { max_files_touched: CHANGED, max_lines_changed: 400 },
    verification: { fast: [], slow: [] },
    builder: { mode: 'claude_code', max_turns: 4, instructions: 'Append a line to twenty files.' },
  };
  const edits = Array.from({ length: CHANGED }, (_, i) => ({ op: 'append', path: `src/mod${i}/file${i}.ts`, content: `export const changed${i} = true;\n` }));
  const scenario = path.join(os.tmpdir(), `relais-bench-scenario-${process.pid}.json`);
  writeFileSync(scenario, JSON.stringify({ orchestrator: [{ result: task }], builder: [{ result: { summary: 'done', files_intended: [], commands_ran: [], notes: [] }, edits }] }));
  return { root, scenario };
}

/** The git commands a successful tick runs, run directly: the floor the runner is compared with. */
function rawGit(root: string, base: string): void {
  git(root, 'rev-parse', '--show-toplevel');
  git(root, 'rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD');
  git(root, 'status', '--porcelain=v1', '-z', '--untracked-files=all');
  git(root, 'ls-files', '-z');
  git(root, 'log', '-1', '--format=%h %s');
  git(root, 'diff', '--raw', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', base, '--');
  git(root, 'status', '--porcelain=v1', '-z', '--untracked-files=all');
  git(root, 'rev-parse', 'HEAD', '--symbolic-full-name', 'HEAD');
  git(root, 'diff', '--binary', '--no-renames', '--no-ext-diff', '--no-color', base, '--');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<void> {
  const { root, scenario } = makeRepo();
  const base = git(root, 'rev-parse', 'HEAD').trim();
  // Children get an allow-list environment: the fake's FAKE_* settings pass as the user's declaration.
  const env = { ...process.env, IS_SANDBOX: '1', FAKE_CLAUDE_SCENARIO: scenario, RELAY_PASS_ENV: 'FAKE_*' };
  const uid = typeof process.getuid === 'function' ? process.getuid() : null;
  const overheads: number[] = [];
  const totals: number[] = [];
  const gitTimes: number[] = [];
  const ratios: number[] = [];
  try {
    // Each tick is followed by the raw git commands on the state it leaves (the 20-file change in
    // the work tree), so both see the same load on a busy machine; the ratio is taken per pair.
    for (let i = 0; i <= RUNS; i += 1) {
      git(root, 'checkout', '-q', '--', '.');
      rmSync(path.join(root, 'relais/history'), { recursive: true, force: true });
      rmSync(path.join(root, 'relais/STATE.json'), { force: true });
      const start = performance.now();
      const outcome = await runTick({ root, env, uid });
      const total = performance.now() - start;
      if (outcome.code !== 'SUCCESS') throw new Error(`bench tick ended with ${outcome.code}: ${outcome.detail}`);
      const meta = JSON.parse(readFileSync(path.join(root, 'relais/history', outcome.runId, 'meta.json'), 'utf8')) as { orchestrator: { calls: { duration_ms: number }[] }; builder: { call: { duration_ms: number } } };
      const claudeMs = meta.orchestrator.calls.reduce((n, c) => n + c.duration_ms, 0) + meta.builder.call.duration_ms;
      const gitStart = performance.now();
      rawGit(root, base);
      const gitMs = performance.now() - gitStart;
      if (i === 0) continue; // warm-up: module loading and schema compilation happen once per process
      totals.push(total);
      overheads.push(total - claudeMs);
      gitTimes.push(gitMs);
      ratios.push((total - claudeMs) / gitMs);
    }
    console.log(`repository: ${FILES} files, builder change: ${CHANGED} files; median of ${RUNS} ticks`);
    console.log(`${'tick, wall clock (Claude calls included)'.padEnd(58)} ${median(totals).toFixed(2).padStart(9)} ms`);
    console.log(`${'runner overhead (everything but Claude and verification)'.padEnd(58)} ${median(overheads).toFixed(2).padStart(9)} ms`);
    console.log(`${'raw git commands of one tick (9 commands)'.padEnd(58)} ${median(gitTimes).toFixed(2).padStart(9)} ms`);
    const ratio = median(ratios);
    console.log(`${'ratio overhead / raw git (median of the pairs)'.padEnd(58)} ${ratio.toFixed(2).padStart(9)} x  (target < 2x: ${ratio < 2 ? 'met' : 'MISSED'})`);
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(scenario, { force: true });
  }
}
