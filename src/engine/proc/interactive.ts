// A child that uses the user's terminal directly (`relay handoff --to claude` seeds an interactive
// Claude session): stdout and stderr are the terminal, stdin is the terminal or closed. Argv only,
// allow-list environment, like every child. It is NOT put in a process group of its own: a
// background group that reads the terminal is stopped by SIGTTIN, so the session must stay in the
// terminal's foreground group, where the terminal's own job control (Ctrl+C, closing the window)
// reaches it and everything it started. There is no timeout: the user ends the session.
import { execa } from 'execa';
import type { ChildEnv } from '../secrets/child-env.js';

/** One process on the user's terminal. */
export interface InteractiveRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: ChildEnv;
  /** `inherit`: the user types to it. `closed`: it gets EOF at once (codex waits on an open stdin). */
  readonly stdin: 'inherit' | 'closed';
}

/** How an interactive child ended. */
export type InteractiveOutcome =
  | { readonly kind: 'exited'; readonly exitCode: number }
  | { readonly kind: 'signalled'; readonly signal: string }
  | { readonly kind: 'spawn-failed'; readonly code: string; readonly message: string };

/** Runs a child on the user's terminal until it ends; never throws for the child's own failures. */
export async function runInteractive(request: InteractiveRequest): Promise<InteractiveOutcome> {
  const result = await execa(request.command, [...request.args], {
    cwd: request.cwd,
    env: { ...request.env },
    extendEnv: false,
    shell: false,
    stdin: request.stdin === 'inherit' ? 'inherit' : 'ignore',
    stdout: 'inherit',
    stderr: 'inherit',
    reject: false,
  });
  if (typeof result.exitCode === 'number') return { kind: 'exited', exitCode: result.exitCode };
  if (result.signal) return { kind: 'signalled', signal: result.signal };
  const code = (result as { code?: string }).code ?? 'SPAWN_FAILED';
  return { kind: 'spawn-failed', code, message: result.originalMessage || result.shortMessage || code };
}
