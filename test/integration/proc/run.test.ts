import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../../../src/engine/proc/index.js';
import { buildChildEnv } from '../../../src/engine/secrets/index.js';
import { tempDir } from '../../helpers/temp.js';
import { alive, ended } from '../../helpers/processes.js';
import { until } from '../../helpers/wait.js';

const node = process.execPath;
const env = buildChildEnv({ from: { PATH: path.dirname(node) }, profile: 'base' });

/** A script that starts a grandchild which ignores SIGTERM, writes "<child pid> <grandchild pid>" to `pids`, then waits forever. */
function parentOfStubbornChild(pids: string): string {
  const grandchild = "process.on('SIGTERM',()=>{});setInterval(()=>{},1000)";
  return `const {spawn}=require('node:child_process');const fs=require('node:fs');const g=spawn(process.execPath,['-e',${JSON.stringify(grandchild)}],{stdio:'ignore'});fs.writeFileSync(${JSON.stringify(pids)},process.pid+' '+g.pid);setInterval(()=>{},1000);`;
}

async function pidsOf(file: string): Promise<[number, number]> {
  await until(`both pids in ${file}`, () => existsSync(file) && readFileSync(file, 'utf8').includes(' '));
  return readFileSync(file, 'utf8').split(' ').map(Number) as [number, number];
}

describe('runProcess()', () => {
  it('closes stdin when there is no input, so a reader sees EOF at once', async () => {
    const outcome = await runProcess({ command: node, args: ['-e', "let n=0;process.stdin.on('data',d=>n+=d.length).on('end',()=>console.log('eof '+n))"], cwd: tempDir(), env, timeoutMs: 30_000 });
    expect(outcome).toMatchObject({ kind: 'exited', exitCode: 0, stdout: 'eof 0\n' });
  });

  it('writes the input to stdin and then closes it', async () => {
    const outcome = await runProcess({ command: node, args: ['-e', "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>process.stdout.write(s.toUpperCase()))"], cwd: tempDir(), env, input: 'héllo', timeoutMs: 30_000 });
    expect(outcome).toMatchObject({ kind: 'exited', stdout: 'HÉLLO' });
  });

  it('runs in the given cwd with exactly the given environment', async () => {
    const cwd = tempDir();
    const outcome = await runProcess({
      command: node,
      args: ['-e', 'console.log(JSON.stringify({cwd:process.cwd(),keys:Object.keys(process.env).filter(k=>k!=="PWD").sort()}))'],
      cwd,
      env: buildChildEnv({ from: { PATH: path.dirname(node), GITHUB_TOKEN: 'x', NODE_OPTIONS: '--no-warnings' }, profile: 'base', set: { ONLY_THIS: 'yes' } }),
      timeoutMs: 30_000,
    });
    expect(outcome.kind).toBe('exited');
    expect(JSON.parse(outcome.kind === 'exited' ? outcome.stdout : '{}')).toEqual({ cwd, keys: ['ONLY_THIS', 'PATH'] });
  });

  it('hands argv to the child intact and never through a shell', async () => {
    const cwd = tempDir();
    const args = ['two words', `it's "quoted"`, '$(touch pwned-subst)', '`touch pwned-tick`', 'a;touch pwned-semi', '*', '$HOME', '', 'back\\slash', 'new\nline'];
    const outcome = await runProcess({ command: node, args: ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', ...args], cwd, env, timeoutMs: 30_000 });
    expect(outcome.kind).toBe('exited');
    expect(JSON.parse(outcome.kind === 'exited' ? outcome.stdout : '[]')).toEqual(args);
    // Nothing a shell would have done happened: no file was created, `*` was not expanded.
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('streams output to callbacks as it is printed, and keeps both streams interleaved', async () => {
    const pieces: string[] = [];
    const script = "process.stdout.write('a');setTimeout(()=>{process.stderr.write('b');setTimeout(()=>process.stdout.write('c'),50)},50)";
    const outcome = await runProcess({ command: node, args: ['-e', script], cwd: tempDir(), env, timeoutMs: 30_000, onStdout: (t) => pieces.push(t) });
    expect(pieces).toEqual(['a', 'c']);
    expect(outcome).toMatchObject({ stdout: 'ac', stderr: 'b', all: 'abc', truncated: false });
  });

  it('keeps at most maxOutputBytes per stream and says output was cut, while callbacks still see all of it', async () => {
    let streamed = 0;
    const outcome = await runProcess({
      command: node,
      args: ['-e', "process.stdout.write('x'.repeat(100000));process.stderr.write('short')"],
      cwd: tempDir(),
      env,
      timeoutMs: 30_000,
      maxOutputBytes: 1000,
      onStdout: (t) => (streamed += t.length),
    });
    expect(outcome).toMatchObject({ kind: 'exited', exitCode: 0, stderr: 'short', truncated: true });
    expect(outcome.kind === 'exited' && outcome.stdout).toBe('x'.repeat(1000));
    expect(streamed).toBe(100000);
  });

  it('does not cut a multi-byte character in half at the cap', async () => {
    const outcome = await runProcess({ command: node, args: ['-e', "process.stdout.write('é'.repeat(10))"], cwd: tempDir(), env, timeoutMs: 30_000, maxOutputBytes: 5 });
    expect(outcome).toMatchObject({ kind: 'exited', stdout: 'éé', truncated: true });
  });

  it('reports exit codes, signals and a program that cannot start', async () => {
    expect(await runProcess({ command: node, args: ['-e', 'process.stderr.write("bad");process.exit(3)'], cwd: tempDir(), env, timeoutMs: 30_000 })).toMatchObject({ kind: 'exited', exitCode: 3, stderr: 'bad' });
    expect(await runProcess({ command: node, args: ['-e', 'process.kill(process.pid,"SIGKILL")'], cwd: tempDir(), env, timeoutMs: 30_000 })).toMatchObject({ kind: 'signalled', signal: 'SIGKILL' });
    expect(await runProcess({ command: '/nonexistent/agent', args: [], cwd: tempDir(), env, timeoutMs: 30_000 })).toMatchObject({ kind: 'spawn-failed', code: 'ENOENT' });
  });

  it('on timeout ends the child and a grandchild that ignores SIGTERM (SIGKILL after the grace period)', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    const running = runProcess({ command: node, args: ['-e', parentOfStubbornChild(pids)], cwd: dir, env, timeoutMs: 5_000, graceMs: 200 });
    const [child, grandchild] = await pidsOf(pids);
    const outcome = await running;
    expect(outcome.kind).toBe('timed-out');
    await until('the child and the grandchild to end', () => !alive(child) && !alive(grandchild));
  });

  it('on cancel ends the child and the processes it started', async () => {
    const dir = tempDir();
    const pids = path.join(dir, 'pids');
    const controller = new AbortController();
    const running = runProcess({ command: node, args: ['-e', parentOfStubbornChild(pids)], cwd: dir, env, timeoutMs: 60_000, graceMs: 200, signal: controller.signal });
    const [child, grandchild] = await pidsOf(pids);
    expect(alive(child) && alive(grandchild)).toBe(true);
    controller.abort();
    expect((await running).kind).toBe('cancelled');
    await until('the child and the grandchild to end', () => !alive(child) && !alive(grandchild));
  });

  it('when the child exits, a process it left running in its group is ended too', async () => {
    const dir = tempDir();
    const pidFile = path.join(dir, 'pid');
    const leave = `const {spawn}=require('node:child_process');const g=spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});require('fs').writeFileSync(${JSON.stringify(pidFile)},String(g.pid));g.unref();`;
    const outcome = await runProcess({ command: node, args: ['-e', leave], cwd: dir, env, timeoutMs: 60_000, graceMs: 200 });
    expect(outcome).toMatchObject({ kind: 'exited', exitCode: 0 });
    const leftover = Number(readFileSync(pidFile, 'utf8'));
    await ended(leftover);
  });

  it('does not start anything when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const marker = path.join(tempDir(), 'ran');
    const outcome = await runProcess({ command: node, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)},'x')`], cwd: tempDir(), env, timeoutMs: 30_000, signal: controller.signal });
    expect(outcome.kind).toBe('cancelled');
    expect(existsSync(marker)).toBe(false);
  });

  it('runs a script file whose path holds spaces', async () => {
    const dir = tempDir('relay proc dir ');
    const script = path.join(dir, 'my script.cjs');
    writeFileSync(script, 'console.log(process.argv.length)');
    expect(await runProcess({ command: node, args: [script, 'a b'], cwd: dir, env, timeoutMs: 30_000 })).toMatchObject({ kind: 'exited', stdout: '3\n' });
  });
});
