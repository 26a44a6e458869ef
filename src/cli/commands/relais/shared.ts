// What every relais command needs to know about where and as whom it runs.
import path from 'node:path';
import type { Command } from 'commander';

interface GlobalOptions {
  readonly cwd?: string;
}

/** The repository root a relais command acts on: -C <dir>, else the current folder. */
export function rootOf(program: Command): string {
  return path.resolve(program.opts<GlobalOptions>().cwd ?? process.cwd());
}

/** The environment and user a tick runs with (Claude refuses some modes as root). */
export function identity(): { env: NodeJS.ProcessEnv; uid: number | null } {
  return { env: process.env, uid: typeof process.getuid === 'function' ? process.getuid() : null };
}
