// 10,000 mutated answers through parse + plan (in a child process, so an answer that never
// finishes is stopped after a deadline and reported rather than hanging the harness).
import { fork } from 'node:child_process';
import path from 'node:path';
import type { FuzzMessage } from './fuzz-worker.js';
import { REPO_ROOT, type CheckResult } from './util.js';

const WORKER = path.join(import.meta.dirname, 'fuzz-worker.ts');
/** An answer still running after this long is reported as hanging. */
const STALL_MS = 30_000;

function runFrom(seed: number, start: number, count: number, onMessage: (m: FuzzMessage) => void): Promise<{ stalledAt: number | null; error: string | null }> {
  return new Promise((resolve) => {
    const worker = fork(WORKER, [REPO_ROOT, String(seed), String(start), String(count)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    worker.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    let last = start - 1;
    let timer = setTimeout(stall, STALL_MS * 3); // loading the engine takes a moment
    let done = false;
    function stall(): void {
      done = true;
      worker.kill('SIGKILL');
      resolve({ stalledAt: last + 1, error: null });
    }
    worker.on('message', (m: FuzzMessage) => {
      last = m.index;
      onMessage(m);
      clearTimeout(timer);
      timer = setTimeout(stall, STALL_MS);
    });
    worker.on('exit', (code) => {
      clearTimeout(timer);
      if (done) return;
      resolve({ stalledAt: null, error: code === 0 ? null : `exit ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` });
    });
  });
}

/** Runs the fuzz and returns its figures; exceptions, hangs and answers over 200 ms are violations. */
export async function parserFuzz(options: { count: number; seed: number; onProgress?: (done: number) => void }): Promise<CheckResult> {
  const times: number[] = [];
  const violations: string[] = [];
  let exceptions = 0;
  let parsed = 0;
  let planned = 0;
  let slowest = { ms: 0, index: -1, size: 0 };
  let start = 0;
  while (start < options.count) {
    const startedAt = start;
    const run = await runFrom(options.seed, start, options.count, (m) => {
      times.push(m.ms);
      if (m.parsed) parsed += 1;
      if (m.planned) planned += 1;
      if (m.ms > slowest.ms) slowest = { ms: m.ms, index: m.index, size: m.size };
      if (m.error) {
        exceptions += 1;
        if (exceptions <= 5) violations.push(`answer #${m.index} (seed ${options.seed}, ${m.size} chars) threw: ${m.error}`);
      }
      if (times.length % 1000 === 0) options.onProgress?.(times.length);
      start = m.index + 1;
    });
    if (run.error) {
      violations.push(`the fuzz worker failed at answer #${start}: ${run.error}`);
      if (run.error.includes('exit') && times.length === 0) break; // it cannot start at all
      // A worker that fails before its first answer fails while replaying the generator: every
      // restart would fail the same way, so the fuzz stops here (and says so above).
      if (start === startedAt) break;
      start += 1;
    } else if (run.stalledAt !== null) {
      violations.push(`answer #${run.stalledAt} (seed ${options.seed}) did not finish within ${STALL_MS / 1000} s`);
      times.push(STALL_MS);
      start = run.stalledAt + 1;
    }
  }
  const sorted = [...times].sort((a, b) => a - b);
  const over200 = times.filter((t) => t > 200).length;
  if (exceptions > 5) violations.push(`… ${exceptions - 5} more exceptions`);
  if (over200 > 0) violations.push(`${over200} answers took over 200 ms in parse + plan (slowest: answer #${slowest.index}, ${slowest.size} chars, ${slowest.ms.toFixed(0)} ms)`);
  return {
    name: `parser fuzz: ${options.count} mutated answers through parse + plan`,
    figures: {
      answers: times.length,
      exceptions,
      'parsed (valid answer)': parsed,
      'planned (applicable)': planned,
      'median ms': (sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(2),
      'p99 ms': (sorted[Math.floor(sorted.length * 0.99)] ?? 0).toFixed(1),
      'max ms': slowest.ms.toFixed(1),
      'over 200 ms': over200,
      'over 1 s': times.filter((t) => t > 1000).length,
    },
    violations,
  };
}
