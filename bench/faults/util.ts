// Shared pieces of the fault harness (`npm run faults`) and of its short versions in
// test/integration/faults: temp projects, real CLI child processes, tree snapshots and the
// leftover check. Plain Node: no vitest here, so the harness runs on its own.
import { spawn, execFileSync } from 'node:child_process';
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, watch, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const RELAY = path.join(REPO_ROOT, 'dist/cli/relay.js');
export const RELAIS = path.join(REPO_ROOT, 'dist/cli/relais.js');
export const FAKE_CLAUDE = path.join(REPO_ROOT, 'fixtures/fake-claude/claude.mjs');

/** Temp folders made by this run; `removeTemps` deletes them. */
const temps: string[] = [];

/** A fresh folder under the OS temp dir (or `under`). */
export function makeTemp(prefix: string, under: string = os.tmpdir()): string {
  const dir = realpathSync(mkdtempSync(path.join(under, prefix)));
  temps.push(dir);
  return dir;
}

/** Removes every temp folder made so far. */
export function removeTemps(): void {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes files (path → content) under root. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}

/** Runs git synchronously with a fixed identity (never the machine's global config). */
export function gitIn(root: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Fault Harness', '-c', 'user.email=faults@example.invalid', ...args], { cwd: root, encoding: 'utf8' });
}

/** A git repository holding `files` in one commit, with a local identity so `relay git commit` works anywhere. */
export function gitRepo(root: string, files: Readonly<Record<string, string>>): void {
  mkdirSync(root, { recursive: true });
  gitIn(root, 'init', '-q', '-b', 'main');
  gitIn(root, 'config', 'core.autocrlf', 'false');
  gitIn(root, 'config', 'user.name', 'Fault Harness');
  gitIn(root, 'config', 'user.email', 'faults@example.invalid');
  writeFiles(root, files);
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '--allow-empty', '-m', 'initial');
}

/** Copies a prepared project (with its .git and .relaycode) to a fresh folder. */
export function copyProject(template: string, prefix = 'faults-run-'): string {
  const dir = makeTemp(prefix);
  cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
  return dir;
}

/** Every file under root (but .git and .relaycode) as path → "mode:bytes" (symlinks as their target). */
export function readTree(root: string, skip: readonly string[] = ['.git', '.relaycode']): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const absolute = path.join(dir, name);
      const rel = path.relative(root, absolute).split(path.sep).join('/');
      if (skip.includes(rel)) continue;
      const stat = lstatSync(absolute);
      if (stat.isDirectory()) {
        walk(absolute);
        if (readdirSync(absolute).length === 0) out.set(`${rel}/`, 'empty folder');
      } else if (stat.isSymbolicLink()) out.set(rel, `link:${readlinkSync(absolute)}`);
      else out.set(rel, `${(stat.mode & 0o111) !== 0 ? 'x' : '-'}:${readFileSync(absolute, 'latin1')}`);
    }
  };
  walk(root);
  return out;
}

/** True when two trees are equal. */
export function sameTree(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

/** The paths where two trees differ (for a failure message). */
export function treeDiff(a: Map<string, string>, b: Map<string, string>): string[] {
  const keys = new Set([...a.keys(), ...b.keys()]);
  return [...keys].filter((k) => a.get(k) !== b.get(k)).sort();
}

/**
 * What a crash must not leave: temp files of atomic writes anywhere, and in .relaycode anything
 * but committed records (no pending record, backup, lock, break file, scratch index or commit
 * intent); git's own index.lock; relais' rollback intent.
 */
export function leftovers(root: string, stateDir = '.relaycode'): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const absolute = path.join(dir, name);
      const rel = path.relative(root, absolute).split(path.sep).join('/');
      if (rel === '.git') continue;
      if (/\.tmp(\.lock)?$/.test(name)) found.push(rel);
      if (lstatSync(absolute).isDirectory()) walk(absolute);
    }
  };
  walk(root);
  const state = path.join(root, stateDir);
  if (existsSync(state)) {
    for (const name of readdirSync(state)) {
      if (/^[A-Za-z0-9][A-Za-z0-9_-]*\.yml$/.test(name) && !name.endsWith('.pending.yml')) continue;
      if (name === 'answers' || name === 'handoffs') continue;
      found.push(`${stateDir}/${name}`);
    }
  }
  for (const gitFile of ['.git/index.lock', '.git/relais-rollback.json', '.git/HEAD.lock']) if (existsSync(path.join(root, gitFile))) found.push(gitFile);
  return [...new Set(found)].sort();
}

/** How a CLI child ended. */
export interface CliRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
  /** For a killed run: ms from the trigger to the kill, or null when the child ended first. */
  readonly killedAfterMs: number | null;
  /** When the kill trigger fired (ms after spawn), or null when it never did. */
  readonly triggerMs: number | null;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly input?: string;
  /**
   * Kill the child with SIGKILL: `delayMs` after `whenExists` appears (watched), or after spawn
   * when `whenExists` is not given.
   */
  readonly kill?: { readonly delayMs: number; readonly whenExists?: string };
}

/** Runs a Node script (a built CLI) as a real child process, optionally killing it. */
export function runNode(script: string, args: readonly string[], options: RunOptions): Promise<CliRun> {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(process.execPath, [script, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    if (options.input !== undefined) {
      child.stdin!.on('error', () => undefined); // the child may end before reading it all
      child.stdin!.end(options.input);
    }
    let killedAfterMs: number | null = null;
    let timer: NodeJS.Timeout | undefined;
    let watcher: ReturnType<typeof watch> | undefined;
    let triggered = false;
    let triggerMs: number | null = null;
    const arm = (): void => {
      if (triggered || !options.kill) return;
      triggered = true;
      const at = performance.now();
      triggerMs = at - start;
      timer = setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) {
          killedAfterMs = performance.now() - at;
          child.kill('SIGKILL');
        }
      }, options.kill.delayMs);
    };
    if (options.kill?.whenExists) {
      const target = options.kill.whenExists;
      const dir = path.dirname(target);
      const base = path.basename(target);
      try {
        watcher = watch(dir, (_event, name) => {
          if (name === base && existsSync(target)) arm();
        });
      } catch {
        arm();
      }
    } else if (options.kill) arm();
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      watcher?.close();
      resolve({ code, signal, stdout, stderr, ms: performance.now() - start, killedAfterMs: signal === 'SIGKILL' ? killedAfterMs : null, triggerMs });
    });
  });
}

/** `relay <args>` as a child process. */
export function relay(args: readonly string[], options: RunOptions): Promise<CliRun> {
  return runNode(RELAY, args, options);
}

/** `relais <args>` as a child process. */
export function relais(args: readonly string[], options: RunOptions): Promise<CliRun> {
  // The fake Claude's FAKE_* settings reach it only because they are named: agents get an
  // allow-list environment (engine/secrets), like the real claude does.
  return runNode(RELAIS, args, { ...options, env: { IS_SANDBOX: '1', RELAY_PASS_ENV: 'FAKE_*', ...options.env } });
}

/** A small seeded random generator (mulberry32), so a failing run can be replayed with --seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs `work` over `items` with at most `jobs` at once. */
export async function pool<T, R>(items: readonly T[], jobs: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** A check's result: figures to print, and violations (each one line). */
export interface CheckResult {
  readonly name: string;
  readonly figures: Readonly<Record<string, string | number>>;
  readonly violations: readonly string[];
  /** Set when the check could not run here (e.g. no permission to mount); not a failure. */
  readonly skipped?: string;
}

/** The last lines of a text, for messages. */
export function lastLines(text: string, n = 3): string {
  return text.trim().split('\n').slice(-n).join(' | ');
}
