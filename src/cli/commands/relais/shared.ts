// What every relais command needs to know about where it runs (as whom: engine/tick's thisProcessRunner).
import path from 'node:path';
import type { Command } from 'commander';

interface GlobalOptions {
  readonly cwd?: string;
}

/** The repository root a relais command acts on: -C <dir>, else the current folder. */
export function rootOf(program: Command): string {
  return path.resolve(program.opts<GlobalOptions>().cwd ?? process.cwd());
}
