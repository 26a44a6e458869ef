// The terminal launcher's plans: which terminal each platform gets and the exact argv, built
// from argv arrays only; the macOS script quotes every word (run here with /bin/sh to prove it).
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { BRIEF_ID_PATTERN } from '../../../src/engine/handoff/types.js';
import { currentRelayInvocation, KEEP_OPEN_SCRIPT, planTerminalLaunch, relayDispatchArgv, RELAY_CLI_FLAG, TARGET_PATTERN, type RelayInvocation } from '../../../src/engine/handoff/terminal.js';
import { contract } from '../../../src/shared/contract.js';
import { tempDir } from '../../helpers/temp.js';

const NODE: RelayInvocation = { command: '/opt/node/bin/node', args: ['/opt/relay desk/dist/cli/relay.js'], electronRunAsNode: false };
/** A development Electron (`npm run dev`): its binary can still run as Node. */
const ELECTRON: RelayInvocation = { command: '/home/me/relay-desk/node_modules/electron/dist/electron', args: ['/home/me/relay-desk/dist/cli/relay.js'], electronRunAsNode: true };
/** The packaged app: RunAsNode is fused off, so it runs itself in its --relay-cli mode. */
const PACKAGED: RelayInvocation = { command: '/opt/Relay Desk/relay-desk', args: ['--relay-cli'], electronRunAsNode: false };
const ROOT = "/home/me/it's a project";
const BRIEF = 'brief-1715350000000-k3x9qz';

function argv(relay: RelayInvocation = NODE): string[] {
  const built = relayDispatchArgv(relay, { root: ROOT, briefId: BRIEF, target: 'codex' });
  if (!built.ok) throw new Error(built.error.message);
  return built.value;
}

/** A folder holding empty executables with these names. */
function binDir(...names: string[]): string {
  const dir = tempDir('relay-bin-');
  for (const name of names) {
    writeFileSync(path.join(dir, name), '#!/bin/sh\n');
    chmodSync(path.join(dir, name), 0o755);
  }
  return dir;
}

describe('currentRelayInvocation', () => {
  const versions = (electron?: string) => ({ node: '22.0.0', ...(electron ? { electron } : {}) });

  it('under Node (relay ui): node and the package\'s dist/cli/relay.js', () => {
    const relay = currentRelayInvocation({ execPath: '/usr/bin/node', versions: versions() });
    expect(relay.command).toBe('/usr/bin/node');
    expect(relay.args).toHaveLength(1);
    expect(relay.args[0]!.endsWith(path.join('dist', 'cli', 'relay.js'))).toBe(true);
    expect(existsSync(path.dirname(path.dirname(path.dirname(relay.args[0]!))) + '/package.json')).toBe(true);
    expect(relay.electronRunAsNode).toBe(false);
  });

  it('under a development Electron: the same script, run as Node', () => {
    const relay = currentRelayInvocation({ execPath: '/repo/node_modules/electron/dist/electron', versions: versions('45.4.1'), packaged: false });
    expect(relay).toMatchObject({ command: '/repo/node_modules/electron/dist/electron', electronRunAsNode: true });
    expect(relay.args[0]!.endsWith(path.join('dist', 'cli', 'relay.js'))).toBe(true);
  });

  it('in the packaged app: the app itself with --relay-cli, never ELECTRON_RUN_AS_NODE (the fuse is off)', () => {
    expect(currentRelayInvocation({ execPath: '/opt/Relay Desk/relay-desk', versions: versions('45.4.1'), packaged: true })).toEqual(PACKAGED);
    expect(RELAY_CLI_FLAG).toBe('--relay-cli');
  });

  it('a "packaged" flag without Electron changes nothing (Node has no packaged mode)', () => {
    expect(currentRelayInvocation({ execPath: '/usr/bin/node', versions: versions(), packaged: true }).electronRunAsNode).toBe(false);
    expect(currentRelayInvocation({ execPath: '/usr/bin/node', versions: versions(), packaged: true }).args[0]).toMatch(/relay\.js$/);
  });
});

describe('relayDispatchArgv', () => {
  it('builds relay -C <root> handoff --resume <id> --to <target> after the node binary and the script', () => {
    expect(argv()).toEqual([NODE.command, ...NODE.args, '-C', ROOT, 'handoff', '--resume', BRIEF, '--to', 'codex']);
  });

  it('for the packaged app: the app binary, --relay-cli, then the same relay arguments', () => {
    expect(argv(PACKAGED)).toEqual(['/opt/Relay Desk/relay-desk', '--relay-cli', '-C', ROOT, 'handoff', '--resume', BRIEF, '--to', 'codex']);
  });

  it('refuses brief ids and targets outside their patterns', () => {
    for (const briefId of ['latest', '../brief-1-a', 'brief-1-a b', 'brief-1-a;id', `brief-1-${'a'.repeat(80)}`]) {
      expect(relayDispatchArgv(NODE, { root: ROOT, briefId, target: 'codex' })).toMatchObject({ ok: false, error: { code: 'BRIEF_ID_INVALID' } });
    }
    for (const target of ['-e', '--print', 'a b', '', '$(id)']) {
      expect(relayDispatchArgv(NODE, { root: ROOT, briefId: BRIEF, target })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_DESTINATION' } });
    }
  });

  it('agrees with the contract: the channel accepts exactly the ids and targets the engine does', () => {
    const input = contract.startHandoffInTerminal.input;
    for (const briefId of [BRIEF, 'brief-1-a', 'brief-1-A', '../x', 'brief-1-a\n', '']) {
      expect(input.safeParse({ projectId: 'demo', briefId, target: 'codex' }).success, briefId).toBe(BRIEF_ID_PATTERN.test(briefId));
    }
    for (const target of ['codex', 'my.profile-2', '-x', 'a b', '']) {
      expect(input.safeParse({ projectId: 'demo', briefId: BRIEF, target }).success, target).toBe(TARGET_PATTERN.test(target));
    }
  });
});

describe('planTerminalLaunch on Linux', () => {
  it('takes the first known terminal on PATH, wrapping the command in the fixed keep-open script', () => {
    const dir = binDir('xterm', 'konsole');
    const plan = planTerminalLaunch(argv(), NODE, ROOT, { platform: 'linux', env: { PATH: dir, TERMINAL: '' } });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value).toMatchObject({ terminal: 'konsole', command: path.join(dir, 'konsole'), cwd: ROOT, env: { PATH: dir, TERMINAL: '' } });
    expect(plan.value.args).toEqual(['-e', '/bin/sh', '-c', KEEP_OPEN_SCRIPT, 'relay-handoff', ...argv()]);
    // The line to paste by hand is quoted: a shell splits it back into exactly the argv.
    expect(parse(plan.value.byHand)).toEqual(argv());
  });

  it('prefers $TERMINAL with the flag that terminal takes', () => {
    const dir = binDir('gnome-terminal', 'xterm');
    const plan = planTerminalLaunch(argv(), NODE, ROOT, { platform: 'linux', env: { PATH: dir, TERMINAL: 'gnome-terminal' } });
    expect(plan.ok && plan.value.terminal).toBe('gnome-terminal');
    expect(plan.ok && plan.value.args.slice(0, 2)).toEqual(['--', '/bin/sh']);
    const missing = planTerminalLaunch(argv(), NODE, ROOT, { platform: 'linux', env: { PATH: binDir('xterm'), TERMINAL: 'no-such-term' } });
    expect(missing.ok && missing.value.terminal).toBe('xterm');
  });

  it('under Electron: relay runs through `env ELECTRON_RUN_AS_NODE=1`, the terminal itself never gets that variable', () => {
    const dir = binDir('xfce4-terminal');
    const plan = planTerminalLaunch(argv(ELECTRON), ELECTRON, ROOT, { platform: 'linux', env: { PATH: dir, ELECTRON_RUN_AS_NODE: '1' } });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.args).toEqual(['-x', '/bin/sh', '-c', KEEP_OPEN_SCRIPT, 'relay-handoff', 'env', 'ELECTRON_RUN_AS_NODE=1', ...argv(ELECTRON)]);
    expect(plan.value.env).toEqual({ PATH: dir });
  });

  it('packaged: the app runs in its --relay-cli mode, with no ELECTRON_RUN_AS_NODE anywhere (the fuse would ignore it)', () => {
    const dir = binDir('xterm');
    const plan = planTerminalLaunch(argv(PACKAGED), PACKAGED, ROOT, { platform: 'linux', env: { PATH: dir, ELECTRON_RUN_AS_NODE: '1' } });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.args).toEqual(['-e', '/bin/sh', '-c', KEEP_OPEN_SCRIPT, 'relay-handoff', '/opt/Relay Desk/relay-desk', '--relay-cli', '-C', ROOT, 'handoff', '--resume', BRIEF, '--to', 'codex']);
    expect(plan.value.env).toEqual({ PATH: dir });
    expect(plan.value.byHand.startsWith("'/opt/Relay Desk/relay-desk' --relay-cli -C ")).toBe(true);
    expect(parse(plan.value.byHand)).toEqual(argv(PACKAGED));
  });

  it('fails with TERMINAL_NOT_FOUND naming what it tried and the command to run by hand', () => {
    const plan = planTerminalLaunch(argv(), NODE, ROOT, { platform: 'linux', env: { PATH: '', TERMINAL: 'kitty' } });
    expect(plan).toMatchObject({ ok: false, error: { code: 'TERMINAL_NOT_FOUND' } });
    if (plan.ok) return;
    expect(plan.error.message).toContain('$TERMINAL (kitty), x-terminal-emulator, gnome-terminal, konsole, xfce4-terminal, xterm');
    expect(plan.error.message).toContain(`handoff --resume ${BRIEF} --to codex`);
  });
});

describe('planTerminalLaunch on macOS', () => {
  // Runs the script with /bin/sh: POSIX hosts only.
  it.skipIf(process.platform === 'win32')('opens Terminal on a .command script whose quoted words come back exactly as the argv', () => {
    const dir = tempDir('relay-mac-');
    // A stand-in for node: prints its argv and folder, so /bin/sh running the script shows what relay would get.
    const fakeNode = path.join(dir, 'fake node');
    writeFileSync(fakeNode, `#!/bin/sh\n${JSON.stringify(process.execPath)} -e 'console.log(JSON.stringify({ argv: process.argv.slice(1), cwd: process.cwd(), electron: process.env.ELECTRON_RUN_AS_NODE ?? null }))' -- "$@"\n`);
    chmodSync(fakeNode, 0o755);
    const root = tempDir("relay-it's $(id) `x` \"q\"-");
    const relay: RelayInvocation = { command: fakeNode, args: ['/tmp/a b/relay.js'], electronRunAsNode: true };
    const built = relayDispatchArgv(relay, { root, briefId: BRIEF, target: 'codex' });
    if (!built.ok) throw new Error(built.error.message);
    const plan = planTerminalLaunch(built.value, relay, root, { platform: 'darwin', env: { PATH: '/usr/bin:/bin' }, tempDir: () => dir });
    if (!plan.ok) throw new Error(plan.error.message);
    const script = path.join(dir, 'relay-handoff.command');
    expect(plan.value).toMatchObject({ terminal: 'Terminal', command: 'open', args: ['-a', 'Terminal', script] });
    expect(readFileSync(script, 'utf8').startsWith('#!/bin/sh\n')).toBe(true);
    const out = JSON.parse(execFileSync('/bin/sh', [script], { encoding: 'utf8' })) as { argv: string[]; cwd: string; electron: string | null };
    expect(out).toEqual({ argv: [...relay.args, '-C', root, 'handoff', '--resume', BRIEF, '--to', 'codex'], cwd: root, electron: '1' });
    expect(existsSync(script)).toBe(false);
  });
});

describe('planTerminalLaunch on Windows', () => {
  it('starts a new cmd.exe window with an argv array, ELECTRON_RUN_AS_NODE in its environment under Electron', () => {
    const relay: RelayInvocation = { command: 'C:\\dev\\relay-desk\\node_modules\\electron\\dist\\electron.exe', args: ['C:\\dev\\relay-desk\\dist\\cli\\relay.js'], electronRunAsNode: true };
    const built = relayDispatchArgv(relay, { root: 'C:\\work\\demo', briefId: BRIEF, target: 'claude' });
    if (!built.ok) throw new Error(built.error.message);
    const plan = planTerminalLaunch(built.value, relay, 'C:\\work\\demo', { platform: 'win32', env: { Path: 'C:\\Windows' } });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.command).toBe('cmd.exe');
    expect(plan.value.args).toEqual(['/c', 'start', '', 'cmd.exe', '/k', relay.command, ...relay.args, '-C', 'C:\\work\\demo', 'handoff', '--resume', BRIEF, '--to', 'claude']);
    expect(plan.value.env).toEqual({ Path: 'C:\\Windows', ELECTRON_RUN_AS_NODE: '1' });
  });

  it('packaged: the app exe with --relay-cli, and no ELECTRON_RUN_AS_NODE in the window', () => {
    const relay: RelayInvocation = { command: 'C:\\Users\\me\\AppData\\Local\\Programs\\Relay Desk\\Relay Desk.exe', args: ['--relay-cli'], electronRunAsNode: false };
    const built = relayDispatchArgv(relay, { root: 'C:\\work\\demo', briefId: BRIEF, target: 'claude' });
    if (!built.ok) throw new Error(built.error.message);
    const plan = planTerminalLaunch(built.value, relay, 'C:\\work\\demo', { platform: 'win32', env: { Path: 'C:\\Windows' } });
    if (!plan.ok) throw new Error(plan.error.message);
    expect(plan.value.args).toEqual(['/c', 'start', '', 'cmd.exe', '/k', relay.command, '--relay-cli', '-C', 'C:\\work\\demo', 'handoff', '--resume', BRIEF, '--to', 'claude']);
    expect(plan.value.env).toEqual({ Path: 'C:\\Windows' });
  });

  it('refuses a word cmd.exe would read as its own syntax', () => {
    const built = relayDispatchArgv(NODE, { root: 'C:\\R&D\\demo', briefId: BRIEF, target: 'codex' });
    if (!built.ok) throw new Error(built.error.message);
    expect(planTerminalLaunch(built.value, NODE, 'C:\\R&D\\demo', { platform: 'win32', env: {} })).toMatchObject({ ok: false, error: { code: 'TERMINAL_ARG_UNSAFE' } });
  });
});
