// The short version of `npm run faults`' kill checks: real `relay` processes killed with
// SIGKILL at each named point of a transaction (and a few random ones), then the next command;
// the tree must be the before or the after state, the log must agree, nothing may be left.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killChecks } from '../../../bench/faults/kill.js';
import { ANSWER_UUID, answerFile, commandScripts, prepareProject } from '../../../bench/faults/scenarios.js';
import { copyProject, gitIn, leftovers, makeTemp, readTree, relay, removeTemps } from '../../../bench/faults/util.js';
import { isRunning } from '../../../src/engine/fs/process.js';

afterAll(removeTemps);

const scripts = commandScripts();

async function logUuids(root: string): Promise<string[]> {
  const run = await relay(['log', '--json'], { cwd: root });
  return (JSON.parse(run.stdout) as Array<{ uuid: string }>).map((e) => e.uuid);
}

describe('SIGKILL during relay apply with a preCommand, a formatter editing files outside the answer, and a linter', () => {
  const prepared = prepareProject('all-commands', scripts);

  it.each(['pending-written', 'pre-command-done', 'file-written:0', 'file-written:2', 'all-written', 'post-command-done', 'commands-settled'])(
    'killed at %s: the next command restores the before state exactly and leaves nothing',
    async (point) => {
      const template = await prepared;
      const root = copyProject(template);
      const before = readTree(root);
      const killed = await relay(['apply', answerFile(), '--yes'], { cwd: root, env: { RELAY_FAULT: point } });
      expect(killed.signal).toBe('SIGKILL');
      const next = await relay(['log', '--json'], { cwd: root });
      expect(next.stderr).toContain('interrupted transaction');
      expect(readTree(root)).toEqual(before);
      expect(JSON.parse(next.stdout)).toEqual([]);
      expect(leftovers(root)).toEqual([]);
    },
  );

  it('killed after the record is committed: the after state stays, and the log has it', async () => {
    const template = await prepared;
    const reference = copyProject(template);
    expect((await relay(['apply', answerFile(), '--yes'], { cwd: reference })).code).toBe(0);
    const root = copyProject(template);
    const killed = await relay(['apply', answerFile(), '--yes'], { cwd: root, env: { RELAY_FAULT: 'record-committed' } });
    expect(killed.signal).toBe('SIGKILL');
    expect(await logUuids(root)).toEqual([ANSWER_UUID]);
    expect(readTree(root)).toEqual(readTree(reference));
    expect(leftovers(root)).toEqual([]);
  });

  it('a formatter still running when relay is killed is stopped by the recovery before it can write after it', async () => {
    const template = await prepared;
    const root = copyProject(template);
    const outside = makeTemp('faults-slow-');
    const marker = path.join(outside, 'formatter.pid');
    const slow = path.join(outside, 'slow-fmt.cjs');
    // Says it started (with its pid), then takes its time before touching a file outside the answer.
    writeFileSync(slow, `require('fs').writeFileSync(${JSON.stringify(marker)}, String(process.pid));\nsetTimeout(() => require('fs').appendFileSync('src/outside.ts', '// late\\n'), 60000);\n`);
    const configFile = path.join(root, 'relay.config.json');
    const config = JSON.parse(readFileSync(configFile, 'utf8')) as { patch: Record<string, unknown> };
    config.patch.postCommand = [process.execPath, slow];
    writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
    gitIn(root, 'commit', '-qam', 'slow formatter');
    const before = readTree(root);
    const running = relay(['apply', answerFile(), '--yes'], { cwd: root, kill: { delayMs: 0, whenExists: marker } });
    expect((await running).signal).toBe('SIGKILL');
    const formatter = Number(readFileSync(marker, 'utf8'));
    expect(isRunning(formatter)).toBe(true); // a SIGKILL does not reach children
    await relay(['log'], { cwd: root });
    expect(isRunning(formatter)).toBe(false);
    expect(readTree(root)).toEqual(before);
    expect(leftovers(root)).toEqual([]);
  });
});

describe('SIGKILL during relay revert', () => {
  it.each(['pending-written', 'file-written:0', 'post-command-done'])('killed at %s: the original stays applied and is not marked reverted', async (point) => {
    const root = await prepareProject('formatter', scripts);
    expect((await relay(['apply', answerFile(), '--yes'], { cwd: root })).code).toBe(0);
    const applied = readTree(root);
    const killed = await relay(['revert', '1', '--yes'], { cwd: root, env: { RELAY_FAULT: point } });
    expect(killed.signal).toBe('SIGKILL');
    const log = JSON.parse((await relay(['log', '--json'], { cwd: root })).stdout) as Array<{ uuid: string; revertedBy: string | null }>;
    expect(readTree(root)).toEqual(applied);
    expect(log).toMatchObject([{ uuid: ANSWER_UUID, revertedBy: null }]);
    expect(leftovers(root)).toEqual([]);
  });

  it('killed after the revert record is committed: the original reads as reverted, from the revert record alone', async () => {
    const root = await prepareProject('plain', scripts);
    expect((await relay(['apply', answerFile(), '--yes'], { cwd: root })).code).toBe(0);
    const killed = await relay(['revert', '1', '--yes'], { cwd: root, env: { RELAY_FAULT: 'record-committed' } });
    expect(killed.signal).toBe('SIGKILL');
    const log = JSON.parse((await relay(['log', '--json'], { cwd: root })).stdout) as Array<{ uuid: string; revertOf: string | null; revertedBy: string | null }>;
    expect(log).toHaveLength(2);
    expect(log[1]).toMatchObject({ uuid: ANSWER_UUID, revertedBy: log[0]!.uuid });
    expect(log[0]!.revertOf).toBe(ANSWER_UUID);
    // The original record was not rewritten: "reverted" is derived.
    expect(readFileSync(path.join(root, `.relaycode/${ANSWER_UUID}.yml`), 'utf8')).not.toContain('revertedBy');
    expect(leftovers(root)).toEqual([]);
  });
});

describe('random SIGKILLs (a few of what npm run faults does by the hundred)', () => {
  it('apply, revert and git commit: never mixed, the log agrees, nothing left', async () => {
    const results = await killChecks({ applyKills: 3, revertKills: 2, commitKills: 2, jobs: 2, seed: 14, scenarios: ['formatter'], referenceRuns: 1 });
    expect(results.flatMap((r) => r.violations)).toEqual([]);
    expect(results.map((r) => r.figures.kills)).toEqual([3, 2, 2]);
  }, 240_000);

  it('an interrupted relay git commit leaves no index.lock and HEAD either before or after', async () => {
    const root = await prepareProject('plain', scripts);
    expect((await relay(['apply', answerFile(), '--yes'], { cwd: root })).code).toBe(0);
    const head = gitIn(root, 'rev-parse', 'HEAD').trim();
    const run = await relay(['git', 'commit', '--yes'], { cwd: root, kill: { delayMs: 30, whenExists: path.join(root, '.relaycode/git-commit.pending.json') } });
    await relay(['log'], { cwd: root });
    expect(existsSync(path.join(root, '.git/index.lock'))).toBe(false);
    expect(leftovers(root)).toEqual([]);
    const now = gitIn(root, 'rev-parse', 'HEAD').trim();
    const status = gitIn(root, 'status', '--porcelain');
    if (now === head) expect(status).not.toBe('');
    else {
      expect(gitIn(root, 'log', '-1', '--format=%s|%P').trim()).toBe(`feat: fault harness change|${head}`);
      expect(status).toBe(''); // the index was brought in line with the commit
    }
    expect(run.code === 0 || run.signal === 'SIGKILL').toBe(true);
  }, 60_000);
});
