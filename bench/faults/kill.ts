// SIGKILL at random points of `relay apply`, `relay revert` and `relay git commit` (real CLI
// processes), each followed by the next command (`relay log --json`, which recovers first), then
// the checks: the tree is exactly the before or the after state, the log agrees with it, and
// nothing is left behind.
import path from 'node:path';
import { ANSWER_UUID, answerFile, commandScripts, prepareProject, SCENARIOS, type ScenarioName } from './scenarios.js';
import { copyProject, gitIn, lastLines, leftovers, pool, readTree, relay, rng, sameTree, treeDiff, type CheckResult, type CliRun } from './util.js';

type Verb = 'apply' | 'revert' | 'commit';

/** A state a kill may leave: the tree, the log (normalised) and, for commits, HEAD and the index. */
interface State {
  readonly tree: Map<string, string>;
  readonly log: string;
  readonly git: string;
}

/** The log as a comparable string: random uuids (of reverts) become "<revert>". */
function normaliseLog(stdout: string): string {
  const entries = JSON.parse(stdout) as Array<{ uuid: string; revertOf: string | null; revertedBy: string | null }>;
  const name = (u: string | null): string | null => (u === null ? null : u === ANSWER_UUID ? 'answer' : '<revert>');
  return JSON.stringify(entries.map((e) => ({ uuid: name(e.uuid), revertOf: name(e.revertOf), revertedBy: name(e.revertedBy) })));
}

/** HEAD's subject and parent count, and the index/work-tree status, for commit kills. */
function gitState(root: string): string {
  const head = gitIn(root, 'log', '-1', '--format=%s|%P').trim();
  return `${head.split('|')[0]}|${gitIn(root, 'rev-list', '--count', 'HEAD').trim()}|${gitIn(root, 'status', '--porcelain', '--untracked-files=all')}`;
}

async function stateOf(root: string, verb: Verb): Promise<{ state: State; recovery: CliRun }> {
  const recovery = await relay(['log', '--json'], { cwd: root });
  let log = 'unreadable';
  try {
    log = normaliseLog(recovery.stdout);
  } catch {
    log = `unreadable: ${lastLines(recovery.stdout + recovery.stderr)}`;
  }
  return { state: { tree: readTree(root), log, git: verb === 'commit' ? gitState(root) : '' }, recovery };
}

function argsOf(verb: Verb): string[] {
  return verb === 'apply' ? ['apply', answerFile(), '--yes'] : verb === 'revert' ? ['revert', '1', '--yes'] : ['git', 'commit', '--yes'];
}

/** One verb in one scenario: the template to copy, the before and after states, and the kill window. */
interface Setup {
  readonly verb: Verb;
  readonly scenario: ScenarioName;
  readonly template: string;
  readonly before: State;
  readonly after: State;
  /** From the lock appearing to the command's end, in a run without a kill (ms). */
  readonly windowMs: number;
}

async function runVerb(verb: Verb, root: string, kill?: { delayMs: number }): Promise<CliRun> {
  return relay(argsOf(verb), {
    cwd: root,
    ...(kill ? { kill: { delayMs: kill.delayMs, whenExists: path.join(root, '.relaycode/lock.json') } } : {}),
  });
}

async function setUp(verb: Verb, scenario: ScenarioName, scripts: ReturnType<typeof commandScripts>, referenceRuns: number): Promise<Setup> {
  const template = await prepareProject(scenario, scripts);
  if (verb !== 'apply') {
    const applied = await runVerb('apply', template);
    if (applied.code !== 0) throw new Error(`setting up ${verb}/${scenario}: apply failed: ${lastLines(applied.stderr)}`);
  }
  const before = (await stateOf(template, verb)).state;
  // The after state, and how long the command runs once it holds the lock (three runs, the longest).
  let after: State | null = null;
  const windows: number[] = [];
  for (let i = 0; i < referenceRuns; i += 1) {
    const copy = copyProject(template);
    const run = await runVerb(verb, copy, { delayMs: 1e9 });
    if (run.code !== 0) throw new Error(`setting up ${verb}/${scenario}: the reference run failed: ${lastLines(run.stderr)}`);
    after = (await stateOf(copy, verb)).state;
    windows.push(run.ms - (run.triggerMs ?? 0));
  }
  windows.sort((a, b) => a - b);
  // The fastest reference run: most kills then land while the command still runs.
  return { verb, scenario, template, before, after: after!, windowMs: windows[0]! };
}

export interface KillOptions {
  readonly applyKills: number;
  readonly revertKills: number;
  readonly commitKills: number;
  readonly jobs: number;
  readonly seed: number;
  readonly scenarios?: readonly ScenarioName[];
  readonly log?: (line: string) => void;
  /** Uninterrupted runs per verb and scenario that give the after state and the kill window (default 3). */
  readonly referenceRuns?: number;
}

/** Runs the kill checks and returns one result per verb. */
export async function killChecks(options: KillOptions): Promise<CheckResult[]> {
  const scripts = commandScripts();
  const scenarios = options.scenarios ?? SCENARIOS;
  const random = rng(options.seed);
  const results: CheckResult[] = [];
  const plan: Array<[Verb, number, readonly ScenarioName[]]> = [
    ['apply', options.applyKills, scenarios],
    ['revert', options.revertKills, scenarios.filter((s) => s !== 'plain').length > 0 ? scenarios : scenarios],
    ['commit', options.commitKills, ['plain', 'formatter'].filter((s) => scenarios.includes(s as ScenarioName)) as ScenarioName[]],
  ];
  for (const [verb, count, names] of plan) {
    if (count <= 0 || names.length === 0) continue;
    const setups = await Promise.all(names.map((s) => setUp(verb, s, scripts, options.referenceRuns ?? 3)));
    const runs = Array.from({ length: count }, (_, i) => ({ setup: setups[i % setups.length]!, delay: random() }));
    const outcome = { before: 0, after: 0, mixed: 0, logMismatch: 0, leftovers: 0, killedMidway: 0, exitedFirst: 0, recovered: 0 };
    const violations: string[] = [];
    let done = 0;
    await pool(runs, options.jobs, async ({ setup, delay }, index) => {
      const root = copyProject(setup.template);
      const killed = await runVerb(verb, root, { delayMs: Math.round(delay * setup.windowMs) });
      if (killed.signal === 'SIGKILL') outcome.killedMidway += 1;
      else outcome.exitedFirst += 1;
      const { state, recovery } = await stateOf(root, verb);
      if (/interrupted/i.test(recovery.stderr)) outcome.recovered += 1;
      const isBefore = sameTree(state.tree, setup.before.tree) && state.git === setup.before.git;
      const isAfter = sameTree(state.tree, setup.after.tree) && state.git === setup.after.git;
      const where = `${verb}/${setup.scenario} #${index} (kill ${Math.round(delay * setup.windowMs)} ms after the lock${killed.signal ? '' : `; it had ended with exit ${killed.code}: ${lastLines(killed.stdout + killed.stderr, 2)}`})`;
      if (isBefore) outcome.before += 1;
      else if (isAfter) outcome.after += 1;
      else {
        outcome.mixed += 1;
        const first = treeDiff(state.tree, setup.after.tree)[0];
        const detail = first ? ` (${first}: ${JSON.stringify(state.tree.get(first)?.slice(0, 60) ?? 'absent')} instead of ${JSON.stringify(setup.after.tree.get(first)?.slice(0, 60) ?? 'absent')})` : '';
        violations.push(`${where}: mixed tree (differs from before in ${treeDiff(state.tree, setup.before.tree).join(', ') || 'git state'}; from after in ${treeDiff(state.tree, setup.after.tree).join(', ') || 'git state'}${detail}) ${lastLines(recovery.stderr)}`);
      }
      const expectedLog = isBefore ? setup.before.log : isAfter ? setup.after.log : null;
      if (expectedLog !== null && state.log !== expectedLog) {
        outcome.logMismatch += 1;
        violations.push(`${where}: the log (${state.log}) does not agree with the ${isBefore ? 'before' : 'after'} tree (${expectedLog})`);
      }
      const left = leftovers(root);
      if (left.length > 0) {
        outcome.leftovers += 1;
        violations.push(`${where}: left ${left.join(', ')}`);
      }
      done += 1;
      if (done % 25 === 0 || !isBefore && !isAfter) options.log?.(`  … relay ${verb === 'commit' ? 'git commit' : verb}: ${done}/${count}${isBefore || isAfter ? '' : ' (a mixed tree)'}`);
    });
    results.push({
      name: `SIGKILL during relay ${verb === 'commit' ? 'git commit' : verb}`,
      figures: {
        kills: count,
        'killed in flight': outcome.killedMidway,
        'ended before the kill': outcome.exitedFirst,
        'recovered by the next command': outcome.recovered,
        'before state': outcome.before,
        'after state': outcome.after,
        'mixed trees': outcome.mixed,
        'log mismatches': outcome.logMismatch,
        'runs with leftovers': outcome.leftovers,
        scenarios: names.join(', '),
      },
      violations,
    });
  }
  return results;
}
