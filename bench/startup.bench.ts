// Whole-process cost of the CLI's common commands, as a ratio to `node -e 0` (what any Node
// program pays to start), measured interleaved in one run so that the machine's load at the
// moment weighs on every figure alike. Targets from issue 13: --version ≤ 1.3x, a one-file
// `apply --yes` ≤ 2.0x, `log` ≤ 1.5x. Uses the built CLI (npm run bench builds it first).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const RELAY = path.join(import.meta.dirname, '../dist/cli/relay.js');
const ROUNDS = 25;

function answer(round: number): string {
  const uuid = `5f0c6a8e-0000-4000-8000-${String(round).padStart(12, '0')}`;
  return ['Here is the change.', '```text // a.txt', `round ${round}`, '```', '```yaml', 'projectId: bench', `uuid: ${uuid}`, `gitCommitMsg: "bench: round ${round}"`, '```', ''].join('\n');
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-startup-'));
  try {
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: root });
    writeFileSync(path.join(root, 'a.txt'), 'start\n');
    execFileSync(process.execPath, [RELAY, 'init', '--project-id', 'bench'], { cwd: root, stdio: 'ignore' });
    for (let round = 0; round <= ROUNDS; round += 1) writeFileSync(path.join(root, `answer-${round}.md`), answer(round));
    execFileSync(process.execPath, [RELAY, 'apply', '--yes', 'answer-0.md'], { cwd: root, stdio: 'ignore' }); // so `log` lists one

    const commands: ReadonlyArray<{ name: string; args: (round: number) => string[]; target?: number }> = [
      { name: 'node -e 0', args: () => ['-e', '0'] },
      { name: 'relay --version', args: () => [RELAY, '--version'], target: 1.3 },
      { name: 'relay log', args: () => [RELAY, 'log'], target: 1.5 },
      { name: 'relay apply --yes (one-file answer)', args: (round) => [RELAY, 'apply', '--yes', `answer-${round}.md`], target: 2.0 },
    ];
    const times = commands.map(() => [] as number[]);
    for (let round = 1; round <= ROUNDS; round += 1) {
      // A different order each round, so no command always runs right after another.
      for (let k = 0; k < commands.length; k += 1) {
        const index = (k + round) % commands.length;
        const started = performance.now();
        const ran = spawnSync(process.execPath, commands[index]!.args(round), { cwd: root, stdio: 'ignore' });
        times[index]!.push(performance.now() - started);
        if (ran.status !== 0) throw new Error(`${commands[index]!.name} exited with ${ran.status}`);
      }
    }
    const base = median(times[0]!);
    console.log(`whole process, median of ${ROUNDS} interleaved runs (ratio to node -e 0)`);
    commands.forEach((command, index) => {
      const ms = median(times[index]!);
      const ratio = ms / base;
      const verdict = command.target === undefined ? '' : ratio <= command.target ? `  (target ≤ ${command.target.toFixed(1)}x: met)` : `  (target ≤ ${command.target.toFixed(1)}x: MISSED)`;
      console.log(`  ${command.name.padEnd(40)} ${ms.toFixed(1).padStart(7)} ms  ${ratio.toFixed(2).padStart(5)}x${verdict}`);
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
