// Programs Relay Desk starts and lets go of: a terminal emulator running a handoff, the user's
// browser. They outlive the caller on purpose, so they are detached and unref'd and their output
// is not read; what is waited for is only a failure at start (not installed, no display, a bad
// flag), which such programs report by exiting at once. Argv only, allow-list environment.
import { spawn } from 'node:child_process';
import type { ChildEnv } from '../secrets/child-env.js';

/** One program to start and let go. */
export interface LaunchRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: ChildEnv;
  /** How long an early exit is waited for before the program counts as started. */
  readonly earlyExitMs: number;
}

/** What became of the launch: still running after earlyExitMs, ended by then, or never started. */
export type LaunchOutcome =
  | { readonly kind: 'running' }
  | { readonly kind: 'exited'; readonly exitCode: number | null; readonly signal: string | null }
  | { readonly kind: 'spawn-failed'; readonly message: string };

/** Starts a program detached (its own group on POSIX, no console window on Windows) and reports how its start went. */
export function launchDetached(request: LaunchRequest): Promise<LaunchOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: LaunchOutcome): void => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    let child;
    try {
      child = spawn(request.command, [...request.args], { cwd: request.cwd, env: { ...request.env }, detached: true, stdio: 'ignore', shell: false, windowsHide: false });
    } catch (error) {
      settle({ kind: 'spawn-failed', message: (error as Error).message });
      return;
    }
    child.once('error', (error) => settle({ kind: 'spawn-failed', message: error.message }));
    child.once('exit', (code, signal) => settle({ kind: 'exited', exitCode: code, signal }));
    child.once('spawn', () => {
      child.unref();
      setTimeout(() => settle({ kind: 'running' }), request.earlyExitMs).unref();
    });
  });
}
