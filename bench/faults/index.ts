// `npm run faults`: the fault harness. Kills real `relay` and `relais` processes at random
// points, stresses the locks, fills and freezes the disk and fuzzes the parser, then prints
// figures and one final PASS/FAIL line (exit 1 on any violation). `--quick` runs a small
// version of everything; flags set each count (see --help).
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { injectedWriteFaults, readOnlyDisk, tmpfsEnospc } from './disk.js';
import { parserFuzz } from './fuzz.js';
import { killChecks } from './kill.js';
import { lockStress } from './locks.js';
import { SCENARIOS } from './scenarios.js';
import { concurrentTicks, specLockCases, tickRollbackKills } from './ticks.js';
import { removeTemps, type CheckResult } from './util.js';

const HELP = `npm run faults -- [flags]

  --quick               a small run of every check (about a minute)
  --only <list>         comma-separated: kills, locks, ticks, disk, fuzz (default: all)
  --apply <n>           SIGKILLs during relay apply            (default 200)
  --revert <n>          SIGKILLs during relay revert           (default 100)
  --commit <n>          SIGKILLs during relay git commit       (default 30)
  --tick-rollback <n>   SIGKILLs during a tick's rollback      (default 20)
  --lock-procs <n>      processes taking the project lock      (default 6)
  --lock-takes <n>      takes per process                      (default 1000)
  --lock-kills <n>      holders SIGKILLed in the chaos round   (default 8; 0 skips it)
  --ticks <n>           concurrent relais run                  (default 10)
  --tmpfs-points <n>    fill levels of the real ENOSPC check   (default 16)
  --fuzz <n>            mutated answers through parse + plan   (default 10000)
  --jobs <n>            kill runs at once                      (default 2)
  --seed <n>            random seed (a failing run can be replayed)
  --keep                keep the temp folders (to look at a failure)
`;

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean' },
    only: { type: 'string' },
    apply: { type: 'string' },
    revert: { type: 'string' },
    commit: { type: 'string' },
    'tick-rollback': { type: 'string' },
    'lock-procs': { type: 'string' },
    'lock-takes': { type: 'string' },
    'lock-kills': { type: 'string' },
    ticks: { type: 'string' },
    'tmpfs-points': { type: 'string' },
    fuzz: { type: 'string' },
    jobs: { type: 'string' },
    seed: { type: 'string' },
    keep: { type: 'boolean' },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const quick = values.quick === true;
const num = (name: keyof typeof values, full: number, small: number): number => {
  const raw = values[name];
  if (typeof raw === 'string') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) {
      process.stderr.write(`--${name} must be a whole number\n`);
      process.exit(2);
    }
    return n;
  }
  return quick ? small : full;
};
const seed = num('seed', Date.now() % 100_000, Date.now() % 100_000);
const jobs = Math.max(1, num('jobs', 2, 2));
const only = new Set((values.only ?? 'kills,locks,ticks,disk,fuzz').split(',').map((s) => s.trim()));

const results: CheckResult[] = [];
const started = performance.now();

function print(result: CheckResult, time: string): void {
  const verdict = result.skipped ? 'SKIPPED' : result.violations.length === 0 ? 'ok' : `${result.violations.length} VIOLATION(S)`;
  console.log(`\n■ ${result.name} — ${verdict} (${time})`);
  if (result.skipped) console.log(`  notice: ${result.skipped}`);
  for (const [key, value] of Object.entries(result.figures)) console.log(`  ${key.padEnd(40)} ${value}`);
  for (const v of result.violations.slice(0, 20)) console.log(`  ✘ ${v}`);
  if (result.violations.length > 20) console.log(`  ✘ … and ${result.violations.length - 20} more`);
}

async function step(run: () => Promise<CheckResult | CheckResult[]>): Promise<void> {
  const t0 = performance.now();
  let out: CheckResult[];
  try {
    const r = await run();
    out = Array.isArray(r) ? r : [r];
  } catch (error) {
    out = [{ name: 'a check crashed', figures: {}, violations: [(error as Error).stack ?? String(error)] }];
  }
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  for (const r of out) {
    results.push(r);
    print(r, out.length === 1 ? `${seconds} s` : `${seconds} s for these ${out.length} checks`);
  }
}

console.log(`Fault harness (seed ${seed}${quick ? ', quick' : ''}; replay with --seed ${seed})`);
try {
  if (only.has('kills')) {
    await step(() => killChecks({ applyKills: num('apply', 200, 20), revertKills: num('revert', 100, 10), commitKills: num('commit', 30, 6), jobs, seed, scenarios: SCENARIOS, log: (line) => console.log(line) }));
    await step(() => tickRollbackKills(num('tick-rollback', 20, 4), jobs, seed));
  }
  if (only.has('locks')) {
    await step(() => lockStress({ processes: num('lock-procs', 6, 6), takes: num('lock-takes', 1000, 200), kills: 0, seed }));
    const chaos = num('lock-kills', 8, 4);
    if (chaos > 0) await step(() => lockStress({ processes: 4, takes: quick ? 100 : 200, kills: chaos, seed, holdSpins: 3_000_000 }));
  }
  if (only.has('ticks')) {
    await step(() => concurrentTicks(num('ticks', 10, 10)));
    await step(() => specLockCases());
  }
  if (only.has('disk')) {
    await step(() => injectedWriteFaults({ scenarios: quick ? ['plain'] : ['plain', 'all-commands'], stickyEvery: quick ? 4 : 3, jobs }));
    await step(() => tmpfsEnospc({ points: num('tmpfs-points', 16, 6) }));
    await step(() => readOnlyDisk());
  }
  if (only.has('fuzz')) await step(() => parserFuzz({ count: num('fuzz', 10_000, 1000), seed }));
} finally {
  if (!values.keep) removeTemps();
}

const failed = results.filter((r) => r.violations.length > 0);
const skipped = results.filter((r) => r.skipped);
const minutes = ((performance.now() - started) / 60_000).toFixed(1);
console.log(`\n${failed.length === 0 ? 'PASS' : 'FAIL'}: ${results.length - failed.length - skipped.length} checks passed, ${failed.length} failed${skipped.length ? `, ${skipped.length} skipped` : ''} (${minutes} min, seed ${seed})${failed.length ? ` — failed: ${failed.map((r) => r.name).join('; ')}` : ''}`);
process.exit(failed.length === 0 ? 0 : 1);
