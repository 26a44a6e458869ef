// Starts `relay handoff --resume <briefId> --to <target>` in the user's terminal emulator, for
// the window's "Start in a terminal": dispatching seeds an interactive agent session, which
// needs a terminal a window cannot host. The dispatch itself stays the CLI's (service.ts);
// this module only picks a terminal and builds argv arrays. No shell line is ever assembled
// from input: ids are checked against strict patterns first, Linux gets a fixed `sh -c` script
// whose words arrive as positional parameters, and macOS's .command script quotes every word.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { quote } from 'shell-quote';
import { findOnPath } from '../fs/which.js';
import { fail, ok, type Result } from '../result.js';
import { checkBriefId } from './persist.js';

/** Destination names `--to` takes: an adapter or a profile name of relay.handoff.json (same pattern as config.ts). */
export const TARGET_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export type TerminalFailureCode = 'TERMINAL_NOT_FOUND' | 'TERMINAL_FAILED' | 'TERMINAL_ARG_UNSAFE' | 'BRIEF_ID_INVALID' | 'UNKNOWN_DESTINATION';

/** How to run this installation's `relay` CLI: a Node (or Electron-as-Node) binary and dist/cli/relay.js. */
export interface RelayInvocation {
  readonly node: string;
  readonly script: string;
  /** The binary is Electron: it must run with ELECTRON_RUN_AS_NODE=1 to behave as Node. */
  readonly electronRunAsNode: boolean;
}

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

/** This process's way to run the relay CLI: its own binary (Electron or Node) and the package's dist/cli/relay.js. */
export function currentRelayInvocation(process_: { readonly execPath: string; readonly versions: Readonly<Record<string, string | undefined>> } = process): RelayInvocation {
  const root = findPackageRoot(fileURLToPath(import.meta.url)) ?? path.resolve(fileURLToPath(import.meta.url), '../../../..');
  return { node: process_.execPath, script: path.join(root, 'dist', 'cli', 'relay.js'), electronRunAsNode: process_.versions.electron !== undefined };
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
  return ok([relay.node, relay.script, '-C', request.root, 'handoff', '--resume', request.briefId, '--to', request.target]);
}

/** One process to start detached: the terminal emulator, with the dispatch inside it. */
export interface TerminalLaunch {
  /** The terminal's name for people ("xterm", "Terminal", "cmd.exe"). */
  readonly terminal: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  /** The same dispatch as one line to paste into a terminal by hand. */
  readonly byHand: string;
}

export interface TerminalOptions {
  readonly platform: NodeJS.Platform;
  /** The environment the terminal (and so relay and the agent) gets; its PATH is searched for terminals. */
  readonly env: Readonly<Record<string, string | undefined>>;
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

function cleanEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  // The terminal may itself be an Electron app: it must not start as Node. Only relay gets it.
  delete out.ELECTRON_RUN_AS_NODE;
  return out;
}

/** Characters cmd.exe would read as its own syntax in an argument (`start` re-parses the line). */
const CMD_UNSAFE = /["%&|<>^!\r\n]/;

/**
 * Picks the platform's terminal and builds the argv that runs `relayArgv` in it, in `cwd`.
 * Linux: $TERMINAL, else the first of LINUX_TERMINALS on PATH. macOS: Terminal.app opening a
 * generated .command script. Windows: a new cmd.exe window through `start`.
 */
export function planTerminalLaunch(relayArgv: readonly string[], relay: RelayInvocation, cwd: string, options: TerminalOptions): Result<TerminalLaunch, TerminalFailureCode> {
  const env = cleanEnv(options.env);
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
    const winEnv = relay.electronRunAsNode ? { ...env, ELECTRON_RUN_AS_NODE: '1' } : env;
    // The empty argument becomes `""` on the command line: start's window title, so the next word is the program.
    return ok({ terminal: 'cmd.exe', command: 'cmd.exe', args: ['/c', 'start', '', 'cmd.exe', '/k', ...relayArgv], cwd, env: winEnv, byHand });
  }
  const searchPath = env.PATH ?? '';
  const inner = [...(relay.electronRunAsNode ? ['env', 'ELECTRON_RUN_AS_NODE=1'] : []), ...relayArgv];
  const wrapped = ['/bin/sh', '-c', KEEP_OPEN_SCRIPT, 'relay-handoff', ...inner];
  const tried: string[] = [];
  const preferred = env.TERMINAL?.trim();
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

/** Starts the planned terminal detached and unref'd; fails when it cannot start or exits non-zero at once. */
export function launchTerminal(plan: TerminalLaunch, options: { readonly earlyExitMs?: number } = {}): Promise<Result<{ readonly launched: string }, 'TERMINAL_FAILED'>> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: Result<{ readonly launched: string }, 'TERMINAL_FAILED'>): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const failed = (why: string) => fail('TERMINAL_FAILED', `${plan.terminal} ${why}. Run this in a terminal instead: ${plan.byHand}`);
    let child;
    try {
      child = spawn(plan.command, [...plan.args], { cwd: plan.cwd, env: { ...plan.env }, detached: true, stdio: 'ignore', shell: false, windowsHide: false });
    } catch (error) {
      settle(failed(`could not start: ${(error as Error).message}`));
      return;
    }
    child.once('error', (error) => settle(failed(`could not start: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) settle(ok({ launched: plan.terminal }));
      else settle(failed(signal ? `was stopped by ${signal}` : `exited at once with code ${code}`));
    });
    child.once('spawn', () => {
      child.unref();
      setTimeout(() => settle(ok({ launched: plan.terminal })), options.earlyExitMs ?? EARLY_EXIT_MS).unref();
    });
  });
}

/** Plans and starts `relay handoff --resume <briefId> --to <target>` in a terminal, in the project folder. */
export async function startDispatchInTerminal(request: DispatchRequest, options: TerminalOptions & { readonly relay: RelayInvocation; readonly earlyExitMs?: number }): Promise<Result<{ readonly launched: string }, TerminalFailureCode>> {
  const argv = relayDispatchArgv(options.relay, request);
  if (!argv.ok) return argv;
  const plan = planTerminalLaunch(argv.value, options.relay, request.root, options);
  if (!plan.ok) return plan;
  return launchTerminal(plan.value, options.earlyExitMs !== undefined ? { earlyExitMs: options.earlyExitMs } : {});
}
