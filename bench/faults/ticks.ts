// Ticks: ten concurrent `relais run` with exactly one running; the spec-shaped lock.json cases
// (a live holder is honoured, a dead one reclaimed, one being written waited for); and SIGKILL
// during the tick's rollback, finished by the next run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bootId } from '../../src/engine/fs/process.js';
import { initWorkspace } from '../../src/engine/tick/workspace.js';
import { copyProject, FAKE_CLAUDE, gitIn, gitRepo, lastLines, leftovers, makeTemp, pool, readTree, relais, rng, sameTree, treeDiff, type CheckResult, type CliRun } from './util.js';

type Json = Record<string, unknown>;

const BASE_FILES: Readonly<Record<string, string>> = {
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\n',
  'README.md': '# demo\n',
};

function task(fast: string[]): Json {
  return {
    task_id: 'T-1',
    milestone_id: 'M1',
    task_kind: 'execute',
    intent: 'Change the value of a.',
    scope: { allowed_globs: ['src/**'], forbidden_globs: [], allow_new_files: true, allow_lockfile_changes: false },
    diff_limits: { max_files_touched: 5, max_lines_changed: 100 },
    verification: { fast, slow: [] },
    builder: { mode: 'claude_code', max_turns: 4, instructions: 'Set a to 2 in src/a.ts.' },
  };
}

const BUILDER_RESULT: Json = { summary: 'Changed a.', files_intended: ['src/a.ts', 'src/new/made.ts'], commands_ran: [], notes: [] };
const EDITS: Json[] = [
  { op: 'write', path: 'src/a.ts', content: 'export const a = 2;\n' },
  { op: 'write', path: 'src/new/made.ts', content: 'export const made = true;\n' },
  { op: 'delete', path: 'src/b.ts' },
];

/** A repository with Relais initialised and committed, the fake Claude configured. */
function tickRepo(): { root: string; outside: string } {
  const root = makeTemp('faults-tick-');
  const outside = makeTemp('faults-tick-out-');
  gitRepo(root, BASE_FILES);
  const init = initWorkspace(root);
  if (!init.ok) throw new Error(init.error.message);
  const configFile = path.join(root, 'relais.config.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as Json;
  (config.claude_code_cli as Json).command = FAKE_CLAUDE;
  (config.verification as Json).templates = [
    { id: 'pass', cmd: 'node', args: ['-e', 'process.exit(0)'] },
    { id: 'fail', cmd: 'node', args: ['-e', 'process.exit(3)'] },
  ];
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'relais init');
  return { root, outside };
}

function runTick(root: string, outside: string, scenario: Json, env: Readonly<Record<string, string>> = {}, name = 'scenario.json'): Promise<CliRun> {
  const scenarioFile = path.join(outside, name);
  writeFileSync(scenarioFile, JSON.stringify(scenario));
  return relais(['run', '--json'], { cwd: root, env: { FAKE_CLAUDE_SCENARIO: scenarioFile, FAKE_CLAUDE_LOG: path.join(outside, 'calls.jsonl'), ...env } });
}

function resultOf(run: CliRun): Json {
  const last = run.stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as Json;
  } catch {
    return { code: `no result line: ${lastLines(run.stdout + run.stderr)}` };
  }
}

/** Ten concurrent runs while the winner's builder waits: exactly one runs. */
export async function concurrentTicks(count: number): Promise<CheckResult> {
  const { root, outside } = tickRepo();
  const release = path.join(outside, 'release');
  const scenarioFile = path.join(outside, 'scenario.json');
  writeFileSync(scenarioFile, JSON.stringify({ orchestrator: [{ result: task(['pass']) }], builder: [{ result: BUILDER_RESULT, edits: EDITS.slice(0, 1), wait_for: release }] }));
  let ended = 0;
  const runs = Array.from({ length: count }, () =>
    relais(['run', '--json'], { cwd: root, env: { FAKE_CLAUDE_SCENARIO: scenarioFile, FAKE_CLAUDE_LOG: path.join(outside, 'calls.jsonl') } }).then((r) => {
      ended += 1;
      return r;
    }),
  );
  const deadline = Date.now() + 120_000;
  while (ended < count - 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  writeFileSync(release, '');
  const results = await Promise.all(runs);
  const codes = results.map((r) => String(resultOf(r).code));
  const success = codes.filter((c) => c === 'SUCCESS').length;
  const blocked = codes.filter((c) => c === 'BLOCKED_LOCK_HELD').length;
  const builderCalls = existsSync(path.join(outside, 'calls.jsonl')) ? readFileSync(path.join(outside, 'calls.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"builder"')).length : 0;
  const violations: string[] = [];
  if (success !== 1) violations.push(`${success} runs succeeded (codes: ${codes.join(', ')})`);
  if (blocked !== count - 1) violations.push(`${blocked} runs were BLOCKED_LOCK_HELD, not ${count - 1}`);
  if (builderCalls !== 1) violations.push(`the builder ran ${builderCalls} times`);
  if (existsSync(path.join(root, 'relais/lock.json'))) violations.push('relais/lock.json was left behind');
  return { name: `${count} concurrent relais run`, figures: { runs: count, 'ran (SUCCESS)': success, BLOCKED_LOCK_HELD: blocked, 'builder calls': builderCalls }, violations };
}

/** A process that stays alive until killed (a live pid to put in lock.json). */
function sleeper(): { pid: number; stop: () => void } {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'ignore' });
  return { pid: child.pid!, stop: () => child.kill('SIGKILL') };
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

/** lock.json in the spec's own shape: a live holder is honoured, a dead one reclaimed, one being written waited for. */
export async function specLockCases(): Promise<CheckResult> {
  const violations: string[] = [];
  const figures: Record<string, string> = {};
  const scenario = { orchestrator: [{ result: task(['pass']) }], builder: [{ result: BUILDER_RESULT, edits: EDITS.slice(0, 1) }] };
  const lockOf = (root: string): string => path.join(root, 'relais/lock.json');

  const live = tickRepo();
  const holder = sleeper();
  try {
    const text = JSON.stringify({ pid: holder.pid, started_at: new Date().toISOString(), boot_id: bootId() });
    writeFileSync(lockOf(live.root), text);
    const run = await runTick(live.root, live.outside, scenario);
    const code = String(resultOf(run).code);
    figures['live holder'] = code;
    if (code !== 'BLOCKED_LOCK_HELD') violations.push(`a live holder's lock was not honoured: ${code}`);
    if (!existsSync(lockOf(live.root)) || readFileSync(lockOf(live.root), 'utf8') !== text) violations.push("a live holder's lock.json was changed");
  } finally {
    holder.stop();
  }

  const dead = tickRepo();
  writeFileSync(lockOf(dead.root), JSON.stringify({ pid: await deadPid(), started_at: new Date().toISOString(), boot_id: bootId() }));
  const reclaimed = String(resultOf(await runTick(dead.root, dead.outside, scenario)).code);
  figures['dead holder'] = reclaimed;
  if (reclaimed !== 'SUCCESS') violations.push(`a dead holder's lock was not reclaimed: ${reclaimed}`);
  if (existsSync(lockOf(dead.root))) violations.push('lock.json was left after reclaiming a dead holder');

  const rebooted = tickRepo();
  writeFileSync(lockOf(rebooted.root), JSON.stringify({ pid: process.pid, started_at: new Date().toISOString(), boot_id: 'an-earlier-boot' }));
  const afterReboot = String(resultOf(await runTick(rebooted.root, rebooted.outside, scenario)).code);
  figures['holder from an earlier boot (pid alive now)'] = afterReboot;
  if (afterReboot !== 'SUCCESS') violations.push(`a lock from an earlier boot was not reclaimed: ${afterReboot}`);

  const writing = tickRepo();
  writeFileSync(lockOf(writing.root), '');
  const waited = resultOf(await runTick(writing.root, writing.outside, scenario));
  figures['lock being written (empty, fresh)'] = String(waited.code);
  if (waited.code !== 'BLOCKED_LOCK_HELD') violations.push(`a lock being written was taken over: ${String(waited.code)}`);
  if (!existsSync(lockOf(writing.root))) violations.push('a lock being written was removed');
  return { name: 'spec-shaped relais/lock.json {pid, started_at, boot_id}', figures, violations };
}

/** SIGKILL at a random moment of the tick's rollback; the next run must finish it (the tree back at base, nothing left). */
export async function tickRollbackKills(count: number, jobs: number, seed: number): Promise<CheckResult> {
  const random = rng(seed);
  const template = tickRepo();
  const base = { tree: readTree(template.root, ['.git', 'relais']), head: gitIn(template.root, 'rev-parse', 'HEAD').trim() };
  const stop = { orchestrator: [{ result: task(['fail']) }], builder: [{ result: BUILDER_RESULT, edits: EDITS }] };
  const invalid = { orchestrator: [{ result: 'not a task' }], builder: [{ result: BUILDER_RESULT }] };
  const outcome = { killed: 0, finished: 0, clean: 0, notClean: 0, leftovers: 0 };
  const violations: string[] = [];
  await pool(
    Array.from({ length: count }, () => Math.round(random() * 120)),
    jobs,
    async (delay, index) => {
      const root = copyProject(template.root, 'faults-tick-run-');
      const outside = makeTemp('faults-tick-out-');
      const killed = await runTick(root, outside, stop, { RELAIS_FAULT: `rollback:${delay}` });
      if (killed.signal === 'SIGKILL') outcome.killed += 1;
      else outcome.finished += 1;
      const next = await runTick(root, outside, invalid, {}, 'next.json');
      const code = String(resultOf(next).code);
      const tree = readTree(root, ['.git', 'relais']);
      const status = gitIn(root, 'status', '--porcelain', '--untracked-files=all');
      const head = gitIn(root, 'rev-parse', 'HEAD').trim();
      const where = `rollback kill #${index} (${delay} ms into the rollback${killed.signal ? '' : '; it had ended'}; next run: ${code})`;
      if (sameTree(tree, base.tree) && status === '' && head === base.head) outcome.clean += 1;
      else {
        outcome.notClean += 1;
        violations.push(`${where}: not back at base (${treeDiff(tree, base.tree).join(', ')}; status ${status.trim().replace(/\n/g, ', ')})`);
      }
      // Temp files anywhere, git's index.lock, the rollback intent, and the lock or its break files.
      const left = leftovers(root);
      for (const name of readdirSync(path.join(root, 'relais'))) if (name === 'lock.json' || name.startsWith('lock.json.break-')) left.push(`relais/${name}`);
      if (left.length > 0) {
        outcome.leftovers += 1;
        violations.push(`${where}: left ${left.join(', ')}`);
      }
    },
  );
  return {
    name: 'SIGKILL during the tick rollback',
    figures: { kills: count, 'killed during the rollback': outcome.killed, 'ended before the kill': outcome.finished, 'back at base after the next run': outcome.clean, 'not back at base': outcome.notClean, 'runs with leftovers': outcome.leftovers },
    violations,
  };
}
