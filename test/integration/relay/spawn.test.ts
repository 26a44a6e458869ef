import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnProcess } from '../../../src/engine/relay/backends/spawn.js';
import { tempDir } from '../../helpers/temp.js';

const node = process.execPath;
const env = { PATH: path.dirname(node) };

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitFor(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('spawnProcess()', () => {
  it('closes stdin when there is no input, so a reader sees EOF at once', async () => {
    const outcome = await spawnProcess({ command: node, args: ['-e', "let n=0;process.stdin.on('data',d=>n+=d.length).on('end',()=>console.log('eof '+n))"], cwd: tempDir(), env, timeoutMs: 5_000 });
    expect(outcome).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'eof 0\n' });
  });

  it('writes the input to stdin and then closes it', async () => {
    const outcome = await spawnProcess({ command: node, args: ['-e', "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(s.toUpperCase()))"], cwd: tempDir(), env, input: 'héllo', timeoutMs: 5_000 });
    expect(outcome).toMatchObject({ kind: 'exited', stdout: 'HÉLLO' });
  });

  it('runs in the given cwd with exactly the given environment, arguments taken literally', async () => {
    const cwd = tempDir();
    const outcome = await spawnProcess({
      command: node,
      args: ['-e', 'console.log(JSON.stringify({cwd:process.cwd(),keys:Object.keys(process.env).filter(k=>k!=="PWD").sort(),arg:process.argv[1]}))', '$(echo hi); rm -rf /'],
      cwd,
      env: { ...env, ONLY_THIS: 'yes' },
      timeoutMs: 5_000,
    });
    expect(outcome.kind).toBe('exited');
    const seen = JSON.parse(outcome.kind === 'exited' ? outcome.stdout : '{}');
    expect(seen).toEqual({ cwd, keys: ['ONLY_THIS', 'PATH'], arg: '$(echo hi); rm -rf /' });
  });

  it('streams output to callbacks as it is printed', async () => {
    const pieces: string[] = [];
    const outcome = await spawnProcess({ command: node, args: ['-e', "process.stdout.write('a');setTimeout(()=>process.stdout.write('b'),100)"], cwd: tempDir(), env, timeoutMs: 5_000, onStdout: (t) => pieces.push(t) });
    expect(pieces).toEqual(['a', 'b']);
    expect(outcome).toMatchObject({ stdout: 'ab' });
  });

  it('reports exit codes, signals and a program that cannot start', async () => {
    expect(await spawnProcess({ command: node, args: ['-e', 'process.stderr.write("bad");process.exit(3)'], cwd: tempDir(), env, timeoutMs: 5_000 })).toMatchObject({ kind: 'exited', exitCode: 3, stderr: 'bad' });
    expect(await spawnProcess({ command: node, args: ['-e', 'process.kill(process.pid,"SIGKILL")'], cwd: tempDir(), env, timeoutMs: 5_000 })).toMatchObject({ kind: 'signalled', signal: 'SIGKILL' });
    expect(await spawnProcess({ command: '/nonexistent/agent', args: [], cwd: tempDir(), env, timeoutMs: 5_000 })).toMatchObject({ kind: 'spawn-failed', code: 'ENOENT' });
  });

  it('kills a child that outlives its timeout', async () => {
    // The child never exits on its own: without the kill this test would hang until vitest's timeout.
    const outcome = await spawnProcess({ command: node, args: ['-e', 'setInterval(()=>{},1000)'], cwd: tempDir(), env, timeoutMs: 200 });
    expect(outcome.kind).toBe('timed-out');
  });

  it('kills the child and the processes it started when cancelled', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    // The child starts a grandchild (as agents start tools), records both pids, and waits.
    const script = `const {spawn}=require('node:child_process');const fs=require('node:fs');const g=spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});fs.writeFileSync(${JSON.stringify(pids)},process.pid+' '+g.pid);setInterval(()=>{},1000);`;
    const controller = new AbortController();
    const running = spawnProcess({ command: node, args: ['-e', script], cwd: dir, env, timeoutMs: 30_000, signal: controller.signal });
    await waitFor(() => existsSync(pids) && readFileSync(pids, 'utf8').includes(' '));
    const [child, grandchild] = readFileSync(pids, 'utf8').split(' ').map(Number) as [number, number];
    expect(alive(child) && alive(grandchild)).toBe(true);
    controller.abort();
    expect((await running).kind).toBe('cancelled');
    await waitFor(() => !alive(child) && !alive(grandchild));
  });

  it('does not start anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = path.join(tempDir(), 'ran');
    const outcome = await spawnProcess({ command: node, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)},'x')`], cwd: tempDir(), env, timeoutMs: 5_000, signal: controller.signal });
    expect(outcome.kind).toBe('cancelled');
    expect(existsSync(marker)).toBe(false);
  });
});
