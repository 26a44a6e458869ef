// The command lines' manners, through the real built CLIs: help with examples and exit codes
// everywhere, usage errors exit 2, outside a project every command says how to set one up,
// a closed pipe ends quietly, and `relay mcp` on a terminal says what it waits for.
import { execa } from 'execa';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relais, relay, REPO_ROOT } from '../../helpers/cli.js';
import { answer } from '../../helpers/patches.js';
import { gitRepo, tempDir } from '../../helpers/temp.js';

const RELAY = path.join(REPO_ROOT, 'dist/cli/relay.js');

/** The subcommands a program's --help lists (without commander's own `help`). */
function commandsOf(help: string): string[] {
  const section = help.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  return section
    .split('\n')
    .map((line) => /^ {2}(\S+)/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined && name !== 'help');
}

describe('--help', () => {
  it('every relay and relais command, nested ones too, shows examples and its exit codes', async () => {
    const cwd = tempDir();
    const checked: string[] = [];
    for (const [cli, run] of [['relay', relay], ['relais', relais]] as const) {
      const top = await run(['--help'], { cwd });
      expect(top.exitCode).toBe(0);
      expect(top.stdout).toContain('Examples:');
      expect(top.stdout).toContain('Exit codes: 0');
      const queue = commandsOf(top.stdout).map((name) => [name]);
      expect(queue.length).toBeGreaterThan(3);
      while (queue.length > 0) {
        const command = queue.shift()!;
        const help = await run([...command, '--help'], { cwd });
        const name = `${cli} ${command.join(' ')}`;
        expect(help.exitCode, name).toBe(0);
        expect(help.stdout, name).toContain('\nExamples:\n');
        const flat = help.stdout.replace(/\s+/g, ' ');
        expect(flat, name).toMatch(/ Exit codes: 0 .*, 2 the command line was wrong/);
        queue.push(...commandsOf(help.stdout).map((sub) => [...command, sub]));
        checked.push(name);
      }
    }
    expect(checked).toContain('relay git commit');
    expect(checked).toContain('relais doctor');
  });
});

describe('usage errors exit 2 everywhere', () => {
  it.each([
    [['log', '--limit', 'many']],
    [['log', '--bogus']],
    [['ask']],
    [['ask', 'q', '--backend', 'nope']],
    [['review', 'extra']],
    [['git']],
    [['watch', '--interval', '5']],
    [['no-such-command']],
  ])('relay %j', async (args) => {
    const run = await relay(args, { cwd: gitRepo() });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it.each([[['run', '--bogus']], [['launch']], [['status', 'extra']]])('relais %j', async (args) => {
    expect((await relais(args, { cwd: gitRepo() })).exitCode).toBe(2);
  });
});

describe('outside a project', () => {
  it.each([
    [['log']],
    [['log', '--json']],
    [['watch']],
    [['revert', '--yes']],
    [['git', 'commit', '--yes']],
    [['handoff']],
    [['mcp']],
  ])('relay %j says how to set one up and exits 1', async (args) => {
    const cwd = tempDir('relay-nowhere-');
    const run = await relay(args, { cwd });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('No Relay project here: there is no relay.config.json');
    expect(run.stderr).toContain(`in ${cwd} or any folder above it.`);
    expect(run.stderr).toContain('`relay init`');
  });

  it('relay apply --json reports it as its result object; relay prompt still prints, with a note on how to set one up', async () => {
    const cwd = tempDir('relay-nowhere-');
    const applied = await relay(['apply', '-', '--json'], { cwd, input: answer([{ path: 'a.txt', body: 'x' }]) });
    expect(applied.exitCode).toBe(1);
    expect(JSON.parse(applied.stdout)).toMatchObject({ status: 'rejected', error: { code: 'CONFIG_MISSING', message: expect.stringContaining('`relay init`') } });
    const prompt = await relay(['prompt'], { cwd });
    expect(prompt.exitCode).toBe(0);
    expect(prompt.stdout).toContain(`projectId: ${path.basename(cwd)}`);
    expect(prompt.stderr).toContain('`relay init`');
  });

  it('relais status and doctor say to run relais init', async () => {
    const cwd = gitRepo();
    const status = await relais(['status'], { cwd });
    expect(status.stdout).toContain('Run `relais init` in the repository root first.');
    const doctor = await relais(['doctor'], { cwd });
    expect(doctor.exitCode).toBe(1);
    expect(doctor.stdout).toContain('Run `relais init` in the repository root first.');
  });
});

describe('a closed pipe', () => {
  it('ends the command quietly (`relay log | head -1`), with no EPIPE trace', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    const files = Array.from({ length: 40 }, (_, i) => ({ path: `f${i}.txt`, body: `file ${i}` }));
    expect((await relay(['apply', '-', '--yes'], { cwd: root, input: answer(files) })).exitCode).toBe(0);
    // The reader goes away before relay writes anything: every write meets a closed pipe.
    const child = execa(process.execPath, [RELAY, 'log'], { cwd: root, reject: false, stdout: 'pipe', stderr: 'pipe' });
    child.stdout.destroy();
    const ended = await child;
    expect(ended.stderr).toBe('');
    expect(ended.exitCode).toBe(0);
    // And as a shell pipeline reads it.
    const piped = await execa('sh', ['-c', `"${process.execPath}" "${RELAY}" log | head -1`], { cwd: root, reject: false });
    expect(piped.stdout).toMatch(/^ {2}1\. \S+ {2}\d{4}-/);
    expect(piped.stderr).toBe('');
  });
});

describe('relay mcp on a terminal', () => {
  it('says on stderr what it is waiting for (and nothing on a pipe, where stdout is the protocol)', async () => {
    const root = gitRepo();
    await relay(['init', '--project-id', 'demo'], { cwd: root });
    // util-linux `script` gives relay a terminal; stdin at end-of-file ends the server.
    const onTerminal = await execa('script', ['-qec', `"${process.execPath}" "${RELAY}" mcp`, '/dev/null'], { cwd: root, reject: false, stdin: 'ignore', timeout: 20_000 });
    expect(onTerminal.stdout).toContain(`relay mcp: serving the handoff tools of ${root} over MCP on stdin/stdout, waiting for an MCP client`);
    const onPipe = execa(process.execPath, [RELAY, 'mcp'], { cwd: root, reject: false, stdin: 'pipe' });
    onPipe.stdin.end();
    const piped = await onPipe;
    expect(piped.stderr).toBe('');
    expect(piped.stdout).toBe('');
  });
});
