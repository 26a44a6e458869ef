import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandRunner } from '../../../src/engine/patch/commands.js';
import { tempDir } from '../../helpers/temp.js';
import { alive } from '../../helpers/processes.js';
import { until } from '../../helpers/wait.js';

/** A "linter" that starts a worker process (as eslint and tsc -b do), records both pids, then works forever. */
function linterWithWorker(dir: string): { script: string; pids: string } {
  const pids = path.join(dir, 'pids');
  const script = path.join(dir, 'lint.cjs');
  writeFileSync(
    script,
    `const { spawn } = require('node:child_process');
const worker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
require('node:fs').writeFileSync(${JSON.stringify(pids)}, process.pid + ' ' + worker.pid);
console.log('linting…');
setInterval(() => {}, 1000);
`,
  );
  return { script, pids };
}

async function pidsOf(file: string): Promise<[number, number]> {
  await until(`both pids in ${file}`, () => existsSync(file) && readFileSync(file, 'utf8').includes(' '));
  return readFileSync(file, 'utf8').split(' ').map(Number) as [number, number];
}

describe('commandRunner (linter, preCommand, postCommand)', () => {
  it('on cancel ends the linter and the workers it started', async () => {
    const dir = tempDir();
    const { script, pids } = linterWithWorker(dir);
    const controller = new AbortController();
    const running = commandRunner(['node', script], { cwd: dir, timeoutMs: 120_000, signal: controller.signal });
    const [linter, worker] = await pidsOf(pids);
    expect(alive(linter) && alive(worker)).toBe(true);
    controller.abort();
    const result = await running;
    expect(result).toMatchObject({ exitCode: 1, timedOut: false });
    await until('the linter and its worker to end', () => !alive(linter) && !alive(worker));
  });

  it('on timeout ends the linter and its workers, and says it timed out', async () => {
    const dir = tempDir();
    const { script, pids } = linterWithWorker(dir);
    const running = commandRunner(['node', script], { cwd: dir, timeoutMs: 5_000 });
    const [linter, worker] = await pidsOf(pids);
    const result = await running;
    expect(result).toMatchObject({ exitCode: 1, timedOut: true });
    expect(result.output).toContain('linting…');
    await until('the linter and its worker to end', () => !alive(linter) && !alive(worker));
  });

  it('reports a program that cannot start as such, with the command named', async () => {
    const result = await commandRunner(['relay-no-such-linter-xyz', '--check'], { cwd: tempDir(), timeoutMs: 30_000 });
    expect(result).toMatchObject({ exitCode: 1, startFailed: true, timedOut: false });
    expect(result.output).toContain('relay-no-such-linter-xyz --check');
  });

  it('runs argv without a shell: operators and substitutions reach the program as text', async () => {
    const dir = tempDir();
    const result = await commandRunner(['node', '-e', 'console.log(JSON.stringify(process.argv.slice(1)))', '$(touch x)', '&&', 'rm -rf /'], { cwd: dir, timeoutMs: 30_000 });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.output)).toEqual(['$(touch x)', '&&', 'rm -rf /']);
    expect(existsSync(path.join(dir, 'x'))).toBe(false);
  });
});
