// What an idle `relay watch` costs the machine: CPU time of the whole process tree (relay and
// every helper it runs, clipboard readers included), measured from /proc over 20 s on a private
// Xvfb display (the current DISPLAY when Xvfb is missing), nothing copied meanwhile. Target: ≤ 0.5% of
// one core. Polling (RELAY_CLIPBOARD=poll, a read every 500 ms) is shown for comparison.
// Then, in process, what one copy costs the watcher and the router: an unchanged read is one
// hash; a changed text adds the marker scan; only text that passes it is taken in and routed
// (here among the three projects of fixtures/clipboard-non-answers, with its 75 texts).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { mayBeAnswer } from '../src/engine/patch/detect.js';
import { routeAnswer, takeForRouting } from '../src/engine/patch/route.js';
import { report } from './util.js';

const RELAY = path.join(import.meta.dirname, '../dist/cli/relay.js');
const SECONDS = 20;
const TARGET_PERCENT = 0.5;

/** utime + stime (+ cutime + cstime: children already waited for) of one process, in clock ticks. */
function processTicks(pid: number): { ticks: number; ppid: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
  } catch {
    return null;
  }
}

/** CPU ticks used so far by `root` and every process below it. */
function treeTicks(root: number): number {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = processTicks(Number(name));
    if (!info) continue;
    parents.set(Number(name), info.ppid);
    ticks.set(Number(name), info.ticks);
  }
  let total = 0;
  for (const [pid, value] of ticks) {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at)) {
      if (at === root) {
        total += value;
        break;
      }
    }
  }
  return total;
}

async function startXvfb(): Promise<{ display: string; stop: () => void } | null> {
  try {
    execFileSync('which', ['Xvfb'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const server = spawn('Xvfb', ['-displayfd', '1', '-nolisten', 'tcp', '-screen', '0', '640x480x24'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(\d+)\s*\n/.exec(out);
      if (match) resolve(`:${match[1]}`);
    });
    server.once('exit', () => reject(new Error('Xvfb exited early')));
  });
  return { display, stop: () => server.kill('SIGTERM') };
}

/** Starts `relay watch` and resolves once it says it is watching. */
function startWatch(root: string, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [RELAY, 'watch', '--yes'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes('Watching the clipboard')) resolve(child);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`relay watch exited (${code}): ${out}`)));
  });
}

async function idleShare(root: string, env: NodeJS.ProcessEnv): Promise<number> {
  const child = await startWatch(root, env);
  try {
    await new Promise((r) => setTimeout(r, 1000)); // start-up is not idle time
    const before = treeTicks(child.pid!);
    const started = process.hrtime.bigint();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    const ticks = treeTicks(child.pid!) - before;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    return (ticks / hz / seconds) * 100;
  } finally {
    child.kill('SIGTERM');
  }
}

/** Median and slowest of `fn` over `runs` runs, in ms. */
function spread(fn: () => unknown, runs: number): { median: number; max: number } {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, max: times[times.length - 1]! };
}

/** The prefilter before answers without a control block were routed (kept here for comparison). */
const previousPrefilter = (text: string): boolean => text.length > 0 && /project_?id/i.test(text) && /(```|~~~)/.test(text);

function perCopy(): void {
  const base = path.join(import.meta.dirname, '../fixtures/clipboard-non-answers');
  const texts = readdirSync(path.join(base, 'texts')).sort().map((name) => readFileSync(path.join(base, 'texts', name), 'utf8'));
  const targets = ['web', 'api', 'tool'].map((projectId) => {
    const root = mkdtempSync(path.join(os.tmpdir(), `relay-bench-route-${projectId}-`));
    cpSync(path.join(base, 'projects', projectId), root, { recursive: true });
    return { projectId, root };
  });
  try {
    const big = texts.join('\n').repeat(12).slice(0, 200_000);
    console.log(`one clipboard change, in process (${texts.length} non-answer texts of fixtures/clipboard-non-answers, 3 projects)`);
    report('  unchanged read of 200 KB: one hash', spread(() => createHash('sha1').update(big).digest('hex'), 41).median);
    const hashAndScan = (scan: (text: string) => boolean) => () => {
      for (const text of texts) if (scan(text)) createHash('sha1').update(text).digest('hex');
    };
    report(`  all ${texts.length} texts: hash + marker scan (detect.ts), total`, spread(hashAndScan(mayBeAnswer), 41).median);
    report(`  all ${texts.length} texts: hash + previous projectId prefilter, total`, spread(hashAndScan(previousPrefilter), 41).median);
    const candidates = texts.filter(mayBeAnswer);
    const routed = spread(() => {
      for (const text of candidates) routeAnswer(takeForRouting(text, targets), targets);
    }, 21);
    report(`  the ${candidates.length} that pass the scan: take + route, per text (median)`, routed.median / candidates.length);
    report(`  the ${candidates.length} that pass the scan: take + route, all (slowest run)`, routed.max);
  } finally {
    for (const target of targets) rmSync(target.root, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  perCopy();
  if (process.platform !== 'linux') {
    console.log('idle relay watch: measured on Linux only (it reads /proc)');
    return;
  }
  const own = await startXvfb();
  const display = own?.display ?? process.env.DISPLAY;
  if (!display) {
    console.log('idle relay watch: no X display and no Xvfb to start one (apt-get install -y xvfb); not measured');
    return;
  }
  const root = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-watch-'));
  try {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
    writeFileSync(path.join(root, 'a.txt'), 'start\n');
    execFileSync(process.execPath, [RELAY, 'init', '--project-id', 'bench'], { cwd: root, stdio: 'ignore' });
    const env = { ...process.env, DISPLAY: display, WAYLAND_DISPLAY: '' };
    console.log(`idle relay watch, whole process tree (relay + its helpers), ${SECONDS} s on X display ${display}`);
    const told = await idleShare(root, env);
    console.log(`  told of changes (X11 XFixes), the default   ${told.toFixed(2).padStart(6)}% of one core  (target ≤ ${TARGET_PERCENT}%: ${told <= TARGET_PERCENT ? 'met' : 'MISSED'})`);
    const polled = await idleShare(root, { ...env, RELAY_CLIPBOARD: 'poll' });
    console.log(`  polling every 500 ms (RELAY_CLIPBOARD=poll)  ${polled.toFixed(2).padStart(6)}% of one core  (for comparison)`);
  } finally {
    own?.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
