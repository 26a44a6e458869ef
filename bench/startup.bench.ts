// Whole-process cost of the CLI's common commands, as a ratio to `node -e 0` (what any Node
// program pays to start), measured interleaved in one run so that the machine's load at the
// moment weighs on every figure alike. Targets from issue 13: --version ≤ 1.3x, a one-file
// `apply --yes` ≤ 2.0x, `log` ≤ 1.5x. Uses the built CLI (npm run bench builds it first).
// Two figures: wall-clock time (median), and on Linux the CPU time the processes used (summed
// over all rounds from /proc/self/stat's cutime + cstime), which a busy machine does not inflate.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const RELAY = path.join(import.meta.dirname, '../dist/cli/relay.js');
const ROUNDS = 25;

function answer(round: number): string {
  const uuid = `5f0c6a8e-0000-4000-8000-${String(round).padStart(12, '0')}`;
  return ['Here is the change.', '```text // a.txt', `round ${round}`, '```', '```yaml', 'projectId: bench', `uuid: ${uuid}`, `gitCommitMsg: "bench: round ${round}"`, '```', ''].join('\n');
}

/** CPU ticks this process's waited-for children used so far (Linux), or null elsewhere. */
function childCpuTicks(): number | null {
  try {
    // Fields after the command name (which may hold spaces): cutime and cstime are the 14th and 15th.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[13]) + Number(fields[14]);
  } catch {
    return null;
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-startup-'));
  try {
    // Two projects: `apply` adds a transaction each round, `log` always lists the same one.
    const listed = path.join(root, 'listed');
    const applied = path.join(root, 'applied');
    for (const project of [listed, applied]) {
      mkdirSync(project);
      execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
      writeFileSync(path.join(project, 'a.txt'), 'start\n');
      execFileSync(process.execPath, [RELAY, 'init', '--project-id', 'bench'], { cwd: project, stdio: 'ignore' });
    }
    for (let round = 0; round <= ROUNDS; round += 1) writeFileSync(path.join(root, `answer-${round}.md`), answer(round));
    execFileSync(process.execPath, [RELAY, 'apply', '--yes', path.join(root, 'answer-0.md')], { cwd: listed, stdio: 'ignore' });

    const commands: ReadonlyArray<{ name: string; args: (round: number) => string[]; target?: number }> = [
      { name: 'node -e 0', args: () => ['-e', '0'] },
      { name: 'relay --version', args: () => [RELAY, '--version'], target: 1.3 },
      { name: 'relay log (one transaction)', args: () => [RELAY, '-C', listed, 'log'], target: 1.5 },
      { name: 'relay apply --yes (one-file answer)', args: (round) => [RELAY, '-C', applied, 'apply', '--yes', path.join(root, `answer-${round}.md`)], target: 2.0 },
    ];
    const times = commands.map(() => [] as number[]);
    const cpu = commands.map(() => 0);
    for (let round = 1; round <= ROUNDS; round += 1) {
      // A different order each round, so no command always runs right after another.
      for (let k = 0; k < commands.length; k += 1) {
        const index = (k + round) % commands.length;
        const ticksBefore = childCpuTicks();
        const started = performance.now();
        const ran = spawnSync(process.execPath, commands[index]!.args(round), { cwd: root, stdio: 'ignore' });
        times[index]!.push(performance.now() - started);
        const ticksAfter = childCpuTicks();
        if (ticksBefore !== null && ticksAfter !== null) cpu[index]! += ticksAfter - ticksBefore;
        if (ran.status !== 0) throw new Error(`${commands[index]!.name} exited with ${ran.status}`);
      }
    }
    const base = median(times[0]!);
    const cpuBase = cpu[0]!;
    const ratioText = (ratio: number, target: number | undefined): string => `${ratio.toFixed(2).padStart(5)}x${target === undefined ? '       ' : ratio <= target ? ' (met) ' : ' MISSED'}`;
    console.log(`whole process, ${ROUNDS} interleaved rounds; ratio to node -e 0 (target)`);
    console.log(`  ${'command'.padEnd(38)} ${'wall, median'.padStart(22)}   ${'CPU time, all rounds'.padStart(24)}`);
    commands.forEach((command, index) => {
      const ms = median(times[index]!);
      const wall = `${ms.toFixed(1).padStart(7)} ms ${ratioText(ms / base, command.target)}`;
      const cpuText = cpuBase > 0 ? `${String(cpu[index]! * 10).padStart(6)} ms ${ratioText(cpu[index]! / cpuBase, command.target)}` : 'n/a';
      console.log(`  ${`${command.name}${command.target === undefined ? '' : ` (≤ ${command.target.toFixed(1)}x)`}`.padEnd(38)} ${wall}   ${cpuText}`);
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
