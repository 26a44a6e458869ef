// Starts `relay handoff --resume <briefId> --to <target>` in the user's terminal emulator, for
// the window's "Start in a terminal": dispatching seeds an interactive agent session, which
// needs a terminal a window cannot host. The dispatch itself stays the CLI's (service.ts);
// this module only picks a terminal and builds argv arrays. No shell line is ever assembled
// from input: ids are checked against strict patterns first, Linux gets a fixed `sh -c` script
// whose words arrive as positional parameters, and macOS's .command script quotes every word.
// The terminal is started through engine/proc (launchDetached) with an allow-list environment:
// the desktop session, the user's tools, relay's own settings, and the one agent's credentials.
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { findOnPath } from '../fs/which.js';
import { launchDetached } from '../proc/launch.js';
import { DEPTH_ENV } from '../relay/depth.js';
import { assertNever, fail, ok, type Result } from '../result.js';
import { AGENT_ENV, buildChildEnv, TOOL_NAMES, type ChildEnv, type Env } from '../secrets/index.js';
import { loadHandoffConfig, resolveDestination, type AdapterName } from './config.js';
import { checkBriefId } from './persist.js';

/** Destination names `--to` takes: an adapter or a profile name of relay.handoff.json (same pattern as config.ts). */
export const TARGET_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type TerminalFailureCode = 'TERMINAL_NOT_FOUND' | 'TERMINAL_FAILED' | 'TERMINAL_ARG_UNSAFE' | 'BRIEF_ID_INVALID' | 'UNKNOWN_DESTINATION';

/**
 * How to run this installation's `relay` CLI: a program and what comes before relay's own
 * arguments. Node (or an unpackaged Electron run as Node) runs dist/cli/relay.js; the packaged
 * app, whose binary cannot run as Node (its RunAsNode fuse is off), runs itself with `--relay-cli`.
 */
export interface RelayInvocation {
  readonly command: string;
  /** dist/cli/relay.js, or RELAY_CLI_FLAG for the packaged app. */
  readonly args: readonly string[];
  /** The binary is an unpackaged Electron: it must run with ELECTRON_RUN_AS_NODE=1 to behave as Node. */
  readonly electronRunAsNode: boolean;
}

/** The flag that makes the packaged app run the bundled relay CLI in-process instead of starting (src/main/relay-cli.ts). */
export const RELAY_CLI_FLAG = '--relay-cli';

/** The Relay Desk package folder, found upwards from `fromFile` (a bundle, a source file, or inside app.asar). */
export function findPackageRoot(fromFile: string): string | null {
  let dir = path.dirname(fromFile);
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    try {
      if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'relay-desk') return dir;
    } catch {
      // An unreadable package.json is not ours; keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** What decides how relay runs: this process's binary and runtime, and whether it is the packaged app. */
export interface RelayHost {
  readonly execPath: string;
  readonly versions: Readonly<Record<string, string | undefined>>;
  /** Electron's app.isPackaged (the desktop app says; Node has no such thing). */
  readonly packaged?: boolean;
}

/**
 * This process's way to run the relay CLI: the packaged app runs itself with --relay-cli;
 * Node (`relay ui`) and a development Electron run the package's dist/cli/relay.js.
 */
export function currentRelayInvocation(host: RelayHost = process): RelayInvocation {
  const electron = host.versions.electron !== undefined;
  if (electron && host.packaged === true) return { command: host.execPath, args: [RELAY_CLI_FLAG], electronRunAsNode: false };
  const root = findPackageRoot(fileURLToPath(import.meta.url)) ?? path.resolve(fileURLToPath(import.meta.url), '../../../..');
  return { command: host.execPath, args: [path.join(root, 'dist', 'cli', 'relay.js')], electronRunAsNode: electron };
}

/** What to start in the terminal, checked: brief id and target against their strict patterns. */
export interface DispatchRequest {
  readonly root: string;
  readonly briefId: string;
  readonly target: string;
}

/** The relay argv (program first) that dispatches a saved brief; refuses ids outside their patterns. */
export function relayDispatchArgv(relay: RelayInvocation, request: DispatchRequest): Result<string[], 'BRIEF_ID_INVALID' | 'UNKNOWN_DESTINATION'> {
  const id = checkBriefId(request.briefId);
  if (!id.ok) return id;
  if (!TARGET_PATTERN.test(request.target)) return fail('UNKNOWN_DESTINATION', `Not a destination name: ${JSON.stringify(request.target.slice(0, 100))}.`);
  return ok([relay.command, ...relay.args, '-C', request.root, 'handoff', '--resume', request.briefId, '--to', request.target]);
}

/** One process to start detached: the terminal emulator, with the dispatch inside it. */
export interface TerminalLaunch {
  /** The terminal's name for people ("xterm", "Terminal", "cmd.exe"). */
  readonly terminal: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: ChildEnv;
  /** The same dispatch as one line to paste into a terminal by hand. */
  readonly byHand: string;
}

export interface TerminalOptions {
  readonly platform: NodeJS.Platform;
  /** The environment the terminal's (and so relay's and the agent's) allow-list is drawn from; its PATH is searched for terminals. */
  readonly env: Env;
  /** The agent the dispatch starts: its credentials (and a profile's passEnv) must reach relay in the terminal. */
  readonly agent?: { readonly adapter: AdapterName; readonly passEnv: readonly string[] };
  /** Where macOS's .command script is written (default: a fresh folder under the OS temp dir). */
  readonly tempDir?: () => string;
}

/** Terminals tried on Linux when $TERMINAL is unset or missing, with how each takes a command's argv. */
export const LINUX_TERMINALS: ReadonlyArray<{ readonly name: string; readonly execFlag: readonly string[] }> = [
  { name: 'x-terminal-emulator', execFlag: ['-e'] },
  { name: 'gnome-terminal', execFlag: ['--'] },
  { name: 'konsole', execFlag: ['-e'] },
  { name: 'xfce4-terminal', execFlag: ['-x'] },
  { name: 'xterm', execFlag: ['-e'] },
];

/** How terminals a user may name in $TERMINAL take a command; anything else gets `-e`. */
const TERMINAL_FLAGS: Readonly<Record<string, readonly string[]>> = {
  ...Object.fromEntries(LINUX_TERMINALS.map((t) => [t.name, t.execFlag])),
  kitty: [],
  foot: [],
  wezterm: ['start', '--'],
  alacritty: ['-e'],
};

/**
 * Keeps the window open after the dispatch ends (Codex runs `exec` and exits; its output would
 * vanish with the window). A fixed script: the words to run arrive as "$@", never inside it.
 */
export const KEEP_OPEN_SCRIPT = '"$@"; status=$?; printf "\\n[relay handoff ended with exit code %s. Press Enter to close this window.]\\n" "$status"; read -r _';

function posixLine(argv: readonly string[], electronRunAsNode: boolean): string {
  return `${electronRunAsNode ? 'ELECTRON_RUN_AS_NODE=1 ' : ''}${quote([...argv])}`;
}

/**
 * The terminal's environment, which relay and then the agent inherit (relay narrows it again for
 * the agent): the desktop session (the terminal opens a window), the user's tools, relay's own
 * RELAY_* settings, the depth guard, and only the dispatched agent's credentials. Never
 * ELECTRON_RUN_AS_NODE (the terminal may itself be an Electron app and must not start as Node)
 * unless it is set here for relay on Windows.
 */
function terminalEnv(options: TerminalOptions, set: Readonly<Record<string, string>>): ChildEnv {
  const agent = options.agent ? AGENT_ENV[options.agent.adapter] : undefined;
  return buildChildEnv({
    from: options.env,
    profile: 'desktop',
    allow: [...TOOL_NAMES, 'RELAY_*', DEPTH_ENV, ...(agent?.names ?? [])],
    keys: [...(agent?.keys ?? []), ...(options.agent?.passEnv ?? [])],
    set,
    platform: options.platform,
  });
}

/** Characters cmd.exe would read as its own syntax in an argument (`start` re-parses the line). */
const CMD_UNSAFE = /["%&|<>^!\r\n]/;

/**
 * Picks the platform's terminal and builds the argv that runs `relayArgv` in it, in `cwd`.
 * Linux: $TERMINAL, else the first of LINUX_TERMINALS on PATH. macOS: Terminal.app opening a
 * generated .command script. Windows: a new cmd.exe window through `start`.
 */
export function planTerminalLaunch(relayArgv: readonly string[], relay: RelayInvocation, cwd: string, options: TerminalOptions): Result<TerminalLaunch, TerminalFailureCode> {
  const env = terminalEnv(options, {});
  const byHand = options.platform === 'win32' ? relayArgv.map((a) => (/[\s]/.test(a) ? `"${a}"` : a)).join(' ') : posixLine(relayArgv, relay.electronRunAsNode);
  if (options.platform === 'darwin') {
    const dir = options.tempDir?.() ?? mkdtempSync(path.join(os.tmpdir(), 'relay-handoff-'));
    const script = path.join(dir, 'relay-handoff.command');
    // Removes itself first: it holds no secret, but nothing should pile up in the temp dir.
    const text = ['#!/bin/sh', 'rm -f -- "$0"', `cd ${quote([cwd])} || exit 1`, posixLine(relayArgv, relay.electronRunAsNode), ''].join('\n');
    writeFileSync(script, text, { mode: 0o700 });
    chmodSync(script, 0o700);
    return ok({ terminal: 'Terminal', command: 'open', args: ['-a', 'Terminal', script], cwd, env, byHand });
  }
  if (options.platform === 'win32') {
    const unsafe = relayArgv.find((a) => CMD_UNSAFE.test(a));
    if (unsafe !== undefined) return fail('TERMINAL_ARG_UNSAFE', `Cannot pass ${JSON.stringify(unsafe)} through cmd.exe safely. Run this in a terminal instead: ${byHand}`);
    const winEnv = relay.electronRunAsNode ? terminalEnv(options, { ELECTRON_RUN_AS_NODE: '1' }) : env;
    // The empty argument becomes `""` on the command line: start's window title, so the next word is the program.
    return ok({ terminal: 'cmd.exe', command: 'cmd.exe', args: ['/c', 'start', '', 'cmd.exe', '/k', ...relayArgv], cwd, env: winEnv, byHand });
  }
  const searchPath = options.env.PATH ?? '';
  const inner = [...(relay.electronRunAsNode ? ['env', 'ELECTRON_RUN_AS_NODE=1'] : []), ...relayArgv];
  const wrapped = ['/bin/sh', '-c', KEEP_OPEN_SCRIPT, 'relay-handoff', ...inner];
  const tried: string[] = [];
  const preferred = options.env.TERMINAL?.trim();
  if (preferred) {
    const found = path.isAbsolute(preferred) ? (existsSync(preferred) ? preferred : null) : findOnPath(preferred, searchPath, options.platform);
    const name = path.basename(preferred);
    if (found) return ok({ terminal: name, command: found, args: [...(TERMINAL_FLAGS[name] ?? ['-e']), ...wrapped], cwd, env, byHand });
    tried.push(`$TERMINAL (${preferred})`);
  }
  for (const candidate of LINUX_TERMINALS) {
    const found = findOnPath(candidate.name, searchPath, options.platform);
    if (found) return ok({ terminal: candidate.name, command: found, args: [...candidate.execFlag, ...wrapped], cwd, env, byHand });
    tried.push(candidate.name);
  }
  return fail('TERMINAL_NOT_FOUND', `No terminal emulator found (tried ${tried.join(', ')} on PATH). Set $TERMINAL, or run this in a terminal: ${byHand}`);
}

/** How long a terminal that fails at once (no display, bad flag) is waited for before calling it started. */
export const EARLY_EXIT_MS = 400;

/** Starts the planned terminal detached and unref'd (engine/proc); fails when it cannot start or exits non-zero at once. */
export async function launchTerminal(plan: TerminalLaunch, options: { readonly earlyExitMs?: number } = {}): Promise<Result<{ readonly launched: string }, 'TERMINAL_FAILED'>> {
  const failed = (why: string) => fail('TERMINAL_FAILED', `${plan.terminal} ${why}. Run this in a terminal instead: ${plan.byHand}`);
  const outcome = await launchDetached({ command: plan.command, args: plan.args, cwd: plan.cwd, env: plan.env, earlyExitMs: options.earlyExitMs ?? EARLY_EXIT_MS });
  switch (outcome.kind) {
    case 'running':
      return ok({ launched: plan.terminal });
    case 'exited':
      // Some terminals (gnome-terminal, `open -a Terminal`) hand the window to a server and exit 0 at once.
      if (outcome.exitCode === 0) return ok({ launched: plan.terminal });
      return failed(outcome.signal ? `was stopped by ${outcome.signal}` : `exited at once with code ${outcome.exitCode}`);
    case 'spawn-failed':
      return failed(`could not start: ${outcome.message}`);
    default:
      return assertNever(outcome);
  }
}

/** The adapter a destination name dispatches to and its passEnv, when relay.handoff.json (or the name itself) says. */
function dispatchedAgent(root: string, target: string): TerminalOptions['agent'] {
  const config = loadHandoffConfig(root);
  if (!config.ok) return undefined;
  const destination = resolveDestination(target, config.value);
  return destination.ok ? { adapter: destination.value.adapter, passEnv: destination.value.passEnv } : undefined;
}

/** Plans and starts `relay handoff --resume <briefId> --to <target>` in a terminal, in the project folder. */
export async function startDispatchInTerminal(request: DispatchRequest, options: TerminalOptions & { readonly relay: RelayInvocation; readonly earlyExitMs?: number }): Promise<Result<{ readonly launched: string }, TerminalFailureCode>> {
  const argv = relayDispatchArgv(options.relay, request);
  if (!argv.ok) return argv;
  const plan = planTerminalLaunch(argv.value, options.relay, request.root, { ...options, agent: options.agent ?? dispatchedAgent(request.root, request.target) });
  if (!plan.ok) return plan;
  return launchTerminal(plan.value, options.earlyExitMs !== undefined ? { earlyExitMs: options.earlyExitMs } : {});
}
