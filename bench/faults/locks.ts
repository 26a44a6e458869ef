// Lock stress: P processes each take the project lock N times, with a shared witness file that
// proves at every take that nobody else holds it. Optionally ("chaos") holders are SIGKILLed at
// random and replaced, so stale locks are broken under contention too.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeTemp, REPO_ROOT, rng, type CheckResult } from './util.js';

const WORKER = path.join(import.meta.dirname, 'lock-worker.ts');

interface WorkerReport {
  takes: number;
  doubleHolds: number;
  busy: number;
  staleWitnesses: number;
}

interface Worker {
  readonly done: Promise<{ report: WorkerReport | null; killed: boolean; stderr: string }>;
  readonly ready: Promise<void>;
  readonly pid: number;
  kill(): void;
}

function startWorker(root: string, witness: string, takes: number, holdSpins: number): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, root, witness, String(takes), String(holdSpins)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (stdout.startsWith('ready\n')) markReady();
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ report: WorkerReport | null; killed: boolean; stderr: string }>((resolve) => {
    child.on('close', (_code, signal) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      let report: WorkerReport | null = null;
      try {
        report = JSON.parse(line) as WorkerReport;
      } catch {
        report = null;
      }
      markReady();
      resolve({ report, killed: signal === 'SIGKILL', stderr });
    });
  });
  return { done, ready, pid: child.pid ?? -1, kill: () => child.kill('SIGKILL') };
}

function readHolderPid(file: string): number | null {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid;
  } catch {
    return null;
  }
}

export interface LockStressOptions {
  readonly processes: number;
  readonly takes: number;
  /** SIGKILL this many holders at random moments (each replaced by a fresh process). */
  readonly kills: number;
  readonly seed: number;
  /** How long each take holds the lock (loop iterations); longer makes kills hit holders. */
  readonly holdSpins?: number;
}

/** Runs the lock stress check. */
export async function lockStress(options: LockStressOptions): Promise<CheckResult> {
  const root = makeTemp('faults-lock-');
  mkdirSync(path.join(root, '.relaycode'));
  const witness = path.join(root, 'witness');
  const random = rng(options.seed);
  const start = performance.now();
  const violations: string[] = [];
  const totals: WorkerReport = { takes: 0, doubleHolds: 0, busy: 0, staleWitnesses: 0 };
  let killed = 0;
  let killedHolding = 0;
  const workers = Array.from({ length: options.processes }, () => startWorker(root, witness, options.takes, options.holdSpins ?? 200));
  const live = new Set(workers);
  for (const w of workers) void w.done.then(() => live.delete(w));
  const all = [...workers];
  // Chaos: once they run, kill a random living worker now and then; a fresh one takes over part of its work.
  await Promise.all(workers.map((w) => w.ready));
  for (let k = 0; k < options.kills && live.size > 0; k += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20 + random() * 80));
    // Prefer the holder: killing it mid-hold leaves a stale lock that the others must break.
    const holderPid = readHolderPid(path.join(root, '.relaycode/lock.json'));
    const victim = [...live].find((w) => w.pid === holderPid) ?? [...live][Math.floor(random() * live.size)]!;
    victim.kill();
    if (victim.pid === holderPid) killedHolding += 1;
    live.delete(victim);
    killed += 1;
    const fresh = startWorker(root, witness, Math.ceil(options.takes / 4), options.holdSpins ?? 200);
    all.push(fresh);
    live.add(fresh);
    void fresh.done.then(() => live.delete(fresh));
  }
  const results = await Promise.all(all.map((w) => w.done));
  for (const result of results) {
    if (result.report) {
      totals.takes += result.report.takes;
      totals.doubleHolds += result.report.doubleHolds;
      totals.busy += result.report.busy;
      totals.staleWitnesses += result.report.staleWitnesses;
    } else if (!result.killed) violations.push(`a worker ended without a report: ${result.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    for (const line of result.stderr.split('\n')) if (line.startsWith('double hold')) violations.push(line);
  }
  const ms = performance.now() - start;
  // After everything ended (killed holders included), a last take must find the lock free or stale, and leave nothing.
  const { acquireProjectLock } = await import('../../src/engine/patch/lock.js');
  const last = acquireProjectLock(root);
  if (!('release' in last)) violations.push(`after the stress the lock could not be taken: ${JSON.stringify(last)}`);
  else last.release();
  const left = readdirSync(path.join(root, '.relaycode'));
  if (left.length > 0) violations.push(`left in .relaycode after the stress: ${left.join(', ')}`);
  if (existsSync(witness) && killed === 0) violations.push('the witness file was left behind');
  if (totals.doubleHolds > 0) violations.push(`${totals.doubleHolds} double holds`);
  return {
    name: `lock stress: ${options.processes} processes × ${options.takes} takes${options.kills ? `, ${options.kills} holders SIGKILLed` : ''}`,
    figures: { processes: options.processes, 'takes completed': totals.takes, 'double holds': totals.doubleHolds, 'refused (busy) attempts': totals.busy, 'processes killed': killed, 'killed while holding the lock': killedHolding, 'witnesses left by killed holders': totals.staleWitnesses, 'takes per second': Math.round(totals.takes / (ms / 1000)) },
    violations,
  };
}
