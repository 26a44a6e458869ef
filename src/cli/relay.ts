// The `relay` command line. Start-up loads only commander and the command files (options and
// help); each command loads the engine code it needs when it runs, so `relay --version` and
// `relay log` do not pay for the rest.
import { Command } from 'commander';
import { endQuietlyOnClosedPipe, runProgram } from './io.js';
import { registerApply } from './commands/relay/apply.js';
import { registerAsk } from './commands/relay/ask.js';
import { registerGit } from './commands/relay/git-commit.js';
import { registerHandoff } from './commands/relay/handoff.js';
import { registerInit } from './commands/relay/init.js';
import { registerLog } from './commands/relay/log.js';
import { registerMcp } from './commands/relay/mcp.js';
import { registerPrompt } from './commands/relay/prompt.js';
import { registerReview } from './commands/relay/review.js';
import { registerRevert } from './commands/relay/revert.js';
import { registerUi } from './commands/relay/ui.js';
import { registerWatch } from './commands/relay/watch.js';

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

Examples:
  relay init --project-id shop && relay prompt
  relay -C ~/code/shop log -n 5
  relay ask "Is this retry loop bounded?" --include-diff

Exit codes: 0 done, 1 refused or failed (files untouched), 2 the command line was wrong.
\`relay <command> --help\` shows each command's flags, examples and exit codes.`,
    );
  for (const register of [registerInit, registerApply, registerPrompt, registerWatch, registerLog, registerRevert, registerGit, registerUi, registerAsk, registerReview, registerHandoff, registerMcp]) register(program);
  return program;
}

// The app's "Start in a terminal" runs this file with its Electron binary as Node; the agents a
// handoff starts (and anything they start) must not inherit that switch.
delete process.env.ELECTRON_RUN_AS_NODE;
endQuietlyOnClosedPipe();
await runProgram(buildRelayProgram());
