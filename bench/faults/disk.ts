// A full or read-only disk: every write step of `relay apply` made to fail (RELAY_IO_FAULT, in a
// real CLI process), a real ENOSPC on a small tmpfs, and EROFS from a read-only bind mount.
// After each: one line naming the file and the cause, no stack trace, the tree before or after
// (or a pending record), and the next command recovers without error, leaving nothing behind.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ANSWER_UUID, answerFile, answerText, commandScripts, prepareProject, type ScenarioName } from './scenarios.js';
import { copyProject, lastLines, leftovers, makeTemp, pool, readTree, relay, sameTree, treeDiff, type CheckResult, type CliRun } from './util.js';

/** What the command said, minus the harness's own fault notes. */
function saidLines(run: CliRun): string[] {
  return `${run.stdout}\n${run.stderr}`.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('[RELAY_IO_FAULT]'));
}

/** The problems with a failed command's output: not exactly one ✘ line, a stack trace, or no file and cause named. */
function outputProblems(run: CliRun, cause: RegExp): string[] {
  const lines = saidLines(run);
  const problems: string[] = [];
  if (lines.some((l) => /^\s+at .+\(.+:\d+:\d+\)$|^\s+at [^ ]+:\d+:\d+$/.test(l))) problems.push('a stack trace was printed');
  const errors = lines.filter((l) => l.startsWith('✘'));
  if (errors.length !== 1 || lines.length !== 1) problems.push(`expected one line, got ${lines.length}: ${lines.slice(0, 3).join(' | ')}`);
  else if (!cause.test(errors[0]!) || !/[\w.-]+\/|\.[a-z]{2,4}\b|\.git\b/.test(errors[0]!)) problems.push(`the line does not name the file and the cause: ${errors[0]}`);
  return problems;
}

interface Reference {
  readonly template: string;
  readonly before: Map<string, string>;
  readonly after: Map<string, string>;
}

async function reference(scenario: ScenarioName, scripts: ReturnType<typeof commandScripts>): Promise<Reference> {
  const template = await prepareProject(scenario, scripts);
  const copy = copyProject(template);
  const run = await relay(['apply', answerFile(), '--yes'], { cwd: copy });
  if (run.code !== 0) throw new Error(`reference apply failed: ${lastLines(run.stderr)}`);
  return { template, before: readTree(template), after: readTree(copy) };
}

/** After a failure: the next command recovers without a word of error; then before/after, log and leftovers. */
async function recoverAndCheck(root: string, ref: Reference, where: string, violations: string[]): Promise<'before' | 'after' | 'mixed'> {
  const next = await relay(['log', '--json'], { cwd: root });
  const complaints = next.stderr.split('\n').filter((l) => /✘|could not|cannot|error/i.test(l));
  if (next.code !== 0 || complaints.length > 0) violations.push(`${where}: the next command did not recover cleanly: ${lastLines(next.stderr)}`);
  const tree = readTree(root);
  let log: Array<{ uuid: string }> = [];
  try {
    log = JSON.parse(next.stdout) as Array<{ uuid: string }>;
  } catch {
    violations.push(`${where}: relay log --json printed no JSON`);
  }
  const state = sameTree(tree, ref.before) ? 'before' : sameTree(tree, ref.after) ? 'after' : 'mixed';
  if (state === 'mixed') violations.push(`${where}: mixed tree (${treeDiff(tree, ref.before).join(', ')})`);
  const logged = log.some((e) => e.uuid === ANSWER_UUID);
  if ((state === 'before' && logged) || (state === 'after' && !logged)) violations.push(`${where}: the log disagrees with the ${state} tree`);
  const left = leftovers(root);
  if (left.length > 0) violations.push(`${where}: left ${left.join(', ')}`);
  return state;
}

/** RELAY_IO_FAULT at every write step (once, and "sticky": the disk stays full), for each scenario. */
export async function injectedWriteFaults(options: { scenarios: readonly ScenarioName[]; code?: string; maxSteps?: number; stickyEvery?: number; jobs?: number; stride?: number }): Promise<CheckResult> {
  const jobs = options.jobs ?? 2;
  const scripts = commandScripts();
  const code = options.code ?? 'ENOSPC';
  const cause = code === 'ENOSPC' ? /no space left on device/i : new RegExp(code, 'i');
  const violations: string[] = [];
  const counts = { steps: 0, failures: 0, before: 0, after: 0, mixed: 0, pendingLeft: 0, recoveryFaults: 0 };
  for (const scenario of options.scenarios) {
    const ref = await reference(scenario, scripts);
    for (const sticky of [false, true]) {
      // Sticky (the disk stays full, so the rollback fails too) on every `stickyEvery`-th step.
      const every = sticky ? (options.stickyEvery ?? 3) : (options.stride ?? 1);
      let last = Infinity;
      for (let batch = 1; batch <= (options.maxSteps ?? 400) && batch <= last; batch += every * jobs) {
        const steps = Array.from({ length: jobs }, (_, k) => batch + k * every).filter((n) => n <= last);
        await pool(steps, jobs, async (step) => {
          const root = copyProject(ref.template);
          const fault = `${code}@${step}${sticky ? '+' : ''}`;
          const where = `${scenario} ${fault}`;
          const run = await relay(['apply', answerFile(), '--yes'], { cwd: root, env: { RELAY_IO_FAULT: fault } });
          if (!run.stderr.includes('[RELAY_IO_FAULT]')) {
            last = Math.min(last, step - 1); // the apply has fewer write steps: every step was covered
            rmSync(root, { recursive: true, force: true });
            return;
          }
          counts.steps += 1;
          if (run.code !== 0) {
            counts.failures += 1;
            for (const problem of outputProblems(run, cause)) violations.push(`${where}: ${problem}`);
          }
          const pending = leftovers(root).some((f) => f.endsWith('.pending.yml'));
          if (pending) counts.pendingLeft += 1;
          else if (!sameTree(readTree(root), ref.before) && !sameTree(readTree(root), ref.after)) violations.push(`${where}: mixed tree right after the failure, and no pending record to finish it`);
          // The disk is still full when the next command starts: it must say so in one line and keep the pending record.
          if (pending && sticky) {
            counts.recoveryFaults += 1;
            const stuck = await relay(['log', '--json'], { cwd: root, env: { RELAY_IO_FAULT: `${code}@1+` } });
            const said = stuck.stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('[RELAY_IO_FAULT]'));
            if (said.some((l) => /^\s+at /.test(l)) || said.length !== 1) violations.push(`${where}: recovery on a full disk did not say it in one line: ${said.slice(0, 3).join(' | ')}`);
          }
          const state = await recoverAndCheck(root, ref, where, violations);
          counts[state] += 1;
          rmSync(root, { recursive: true, force: true });
        });
      }
    }
  }
  return {
    name: `${code} at every write step of relay apply (injected)`,
    figures: { 'fault points': counts.steps, 'failed with one line': counts.failures, 'pending left for recovery': counts.pendingLeft, 'recovery itself on a full disk': counts.recoveryFaults, 'before state': counts.before, 'after state': counts.after, 'mixed trees': counts.mixed, scenarios: options.scenarios.join(', ') },
    violations,
  };
}

function tryMount(args: readonly string[]): string | null {
  try {
    execFileSync('mount', [...args], { stdio: 'pipe' });
    return null;
  } catch (error) {
    return ((error as { stderr?: Buffer }).stderr?.toString() || (error as Error).message).trim().split('\n')[0] ?? 'mount failed';
  }
}

function unmount(dir: string): void {
  try {
    execFileSync('umount', [dir], { stdio: 'pipe' });
  } catch {
    // already gone
  }
}

/** A real ENOSPC: the project on a small tmpfs, filled so the apply runs out of space at varying points. */
export async function tmpfsEnospc(options: { points: number }): Promise<CheckResult> {
  const name = 'ENOSPC on a real full disk (tmpfs)';
  const mountPoint = makeTemp('faults-tmpfs-');
  const refused = tryMount(['-t', 'tmpfs', '-o', 'size=6m', 'tmpfs', mountPoint]);
  if (refused) return { name, figures: {}, violations: [], skipped: `cannot mount a tmpfs here (${refused})` };
  const violations: string[] = [];
  const counts = { runs: 0, failed: 0, before: 0, after: 0, mixed: 0, pendingLeft: 0 };
  const failedAt = new Set<string>();
  try {
    const scripts = commandScripts();
    const ref = await reference('formatter', scripts);
    // A big answer: three files of ~180 KB, so the records and files need well over a megabyte.
    const big = (tag: string): string => Array.from({ length: 6000 }, (_, i) => `export const ${tag}${i} = ${i}; // ${'x'.repeat(8)}`).join('\n');
    const text = answerText().replace('```yaml', [`\`\`\`text // src/big/one.ts\n${big('one')}\n\`\`\``, `\`\`\`text // src/big/two.ts\n${big('two')}\n\`\`\``, `\`\`\`text // docs/big.md\n${big('doc')}\n\`\`\``, '```yaml'].join('\n\n'));
    const bigFile = answerFile(text);
    // The sizes it needs: measured once on the tmpfs with room to spare.
    const project = path.join(mountPoint, 'project');
    cpSync(ref.template, project, { recursive: true });
    const free0 = statfsSync(mountPoint).bavail * statfsSync(mountPoint).bsize;
    const full = await relay(['apply', bigFile, '--yes'], { cwd: project });
    if (full.code !== 0) throw new Error(`the big apply fails even with room: ${lastLines(full.stderr)}`);
    const after = readTree(project);
    const needed = free0 - statfsSync(mountPoint).bavail * statfsSync(mountPoint).bsize;
    rmSync(project, { recursive: true, force: true });
    const bigRef: Reference = { template: ref.template, before: ref.before, after };
    for (let i = 0; i < options.points; i += 1) {
      cpSync(ref.template, project, { recursive: true });
      // Leave between 0 and ~1.6× what the apply needs.
      const leave = Math.round((needed * 1.6 * i) / Math.max(1, options.points - 1));
      const stat = statfsSync(mountPoint);
      const fill = Math.max(0, stat.bavail * stat.bsize - leave);
      const filler = path.join(mountPoint, 'filler');
      try {
        writeFileSync(filler, Buffer.alloc(fill));
      } catch {
        // filled to the last byte: what we wanted
      }
      const where = `tmpfs with ${Math.round(leave / 1024)} KB free`;
      const run = await relay(['apply', bigFile, '--yes'], { cwd: project });
      counts.runs += 1;
      if (run.code !== 0) {
        counts.failed += 1;
        for (const problem of outputProblems(run, /no space left on device|ENOSPC/i)) violations.push(`${where}: ${problem}`);
        // Where it ran out: the file the line names (the lock, the pending record, a project file, git's objects).
        const line = saidLines(run)[0] ?? '';
        const named = /writing in \.git/.test(line) ? '.git/objects (git)' : (/(?:write|lock)\s+([^\s:(]+)/.exec(line)?.[1] ?? '?');
        failedAt.add(named.replace(/[0-9a-f-]{36}/, '<uuid>'));
      }
      if (leftovers(project).some((f) => f.endsWith('.pending.yml'))) counts.pendingLeft += 1;
      rmSync(filler, { force: true }); // space again: the next command must finish whatever is left
      const state = await recoverAndCheck(project, bigRef, where, violations);
      counts[state] += 1;
      rmSync(project, { recursive: true, force: true });
    }
    return { name, figures: { 'fill levels': counts.runs, 'bytes the apply needs': needed, 'failed with one line': counts.failed, 'ran out of space at': [...failedAt].sort().join(', '), 'pending left for recovery': counts.pendingLeft, 'before state': counts.before, 'after state': counts.after, 'mixed trees': counts.mixed }, violations };
  } finally {
    unmount(mountPoint);
  }
}

/** EROFS: a read-only bind mount over src/ (answer files cannot be written) and over the whole project (nor the lock). */
export async function readOnlyDisk(): Promise<CheckResult> {
  const name = 'EROFS (read-only bind mounts)';
  const scripts = commandScripts();
  const ref = await reference('plain', scripts);
  const violations: string[] = [];
  const figures: Record<string, string> = {};
  const cases: Array<[string, string]> = [
    ['src/ read-only', 'src'],
    ['whole project read-only', '.'],
  ];
  for (const [label, sub] of cases) {
    const root = copyProject(ref.template);
    const target = path.join(root, sub);
    mkdirSync(target, { recursive: true });
    const refused = tryMount(['--bind', target, target]) ?? tryMount(['-o', 'remount,ro,bind', target]);
    if (refused) {
      unmount(target);
      return { name, figures: {}, violations: [], skipped: `cannot make a read-only bind mount here (${refused})` };
    }
    let run: CliRun;
    try {
      run = await relay(['apply', answerFile(), '--yes'], { cwd: root });
      const tree = readTree(root);
      if (!sameTree(tree, ref.before)) violations.push(`${label}: the tree changed (${treeDiff(tree, ref.before).join(', ')})`);
      for (const problem of outputProblems(run, /read-only file system/i)) violations.push(`${label}: ${problem}`);
      figures[label] = saidLines(run)[0] ?? '';
    } finally {
      unmount(target);
    }
    await recoverAndCheck(root, ref, label, violations);
  }
  return { name, figures, violations };
}
