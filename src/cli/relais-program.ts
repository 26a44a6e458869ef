// The `relais` program: commander and the command files; each command loads the tick engine
// when it runs.
import { Command } from 'commander';
import { endQuietlyOnClosedPipe, runProgram } from './io.js';
import { VERSION } from './version.js';
import { registerDoctor } from './commands/relais/doctor.js';
import { registerInit } from './commands/relais/init.js';
import { registerRun } from './commands/relais/run.js';
import { registerStatus } from './commands/relais/status.js';

/** Builds the `relais` program; separate from running it so tests can inspect it. */
export function buildRelaisProgram(): Command {
  const program = new Command('relais')
    .description('Relais: one deterministic orchestrator → builder → judge tick over the Claude Code CLI.')
    .version(VERSION)
    .option('-C, --cwd <dir>', 'run as if started in <dir> (the repository root holding relais.config.json)')
    .showHelpAfterError('(run `relais --help` for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      `
A tick: lock → preflight → orchestrator proposes one TASK (plan mode) → builder edits the repo
(restricted tools) → the judge checks scope, limits and verifications from git → REPORT.json and
REPORT.md, or BLOCKED.json. Any STOP after the builder rolls the repository back to where it was.

Examples:
  relais init && relais doctor
  relais run
  relais status --preflight

Exit codes: 0 success (run) or ok, 1 STOP, BLOCKED or a failed check, 2 the command line was wrong.
\`relais <command> --help\` shows each command's flags, examples and exit codes.`,
    );
  for (const register of [registerInit, registerRun, registerStatus, registerDoctor]) register(program);
  return program;
}

/** Runs `relais` with these arguments (what follows the script). */
export async function main(args: readonly string[]): Promise<void> {
  endQuietlyOnClosedPipe();
  await runProgram(buildRelaisProgram(), args);
}
