import { Command } from 'commander';
import { runProgram } from './io.js';
import { registerHandoffCommands } from './handoff-commands.js';
import { registerPatchCommands } from './patch-commands.js';
import { registerUiCommand } from './ui-command.js';
import { registerRelayCommands } from './relay-commands.js';

/** Builds the `relay` program; separate from running it so tests can inspect it. */
export function buildRelayProgram(): Command {
  const program = new Command('relay')
    .description('Relay Desk: apply LLM answers to your project as transactions, and more.')
    .version('0.1.0')
    .option('-C, --cwd <dir>', 'run as if started in <dir> (the project is the nearest folder with relay.config.json)')
    .showHelpAfterError('(run `relay --help` for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      `
Getting started in a project:
  relay init                 set the project up (relay.config.json, .relaycode/)
  relay prompt               the instructions to paste into your assistant
  relay watch                apply answers as you copy them (or: relay apply answer.md)
  relay log / relay revert   see and undo what was applied

They act on the nearest folder with relay.config.json (or -C <dir>), and first roll back a
transaction an earlier relay left half done (a crash, a kill), saying so.
Exit codes: 0 done, 1 refused or failed (files untouched), 2 the command line was wrong.
\`relay <command> --help\` shows each command's flags, examples and exit codes.`,
    );
  registerPatchCommands(program);
  registerUiCommand(program);
  registerRelayCommands(program);
  registerHandoffCommands(program);
  return program;
}

// The app's "Start in a terminal" runs this file with its Electron binary as Node; the agents a
// handoff starts (and anything they start) must not inherit that switch.
delete process.env.ELECTRON_RUN_AS_NODE;
await runProgram(buildRelayProgram());
