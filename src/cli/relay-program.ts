// The `relay` program: commander and the command files (options and help). Each command loads
// the engine code it needs when it runs, so `relay log` does not pay for the rest.
import { Command } from 'commander';
import { endQuietlyOnClosedPipe, runProgram } from './io.js';
import { VERSION } from './version.js';
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

/** Each command's name and how it is registered, in the order --help lists them. */
const COMMANDS: ReadonlyArray<readonly [string, (program: Command) => void]> = [
  ['init', registerInit],
  ['apply', registerApply],
  ['prompt', registerPrompt],
  ['watch', registerWatch],
  ['log', registerLog],
  ['revert', registerRevert],
  ['git', registerGit],
  ['ui', registerUi],
  ['ask', registerAsk],
  ['review', registerReview],
  ['handoff', registerHandoff],
  ['mcp', registerMcp],
];

/**
 * The command a command line names (after the global options), when it is one of ours; then only
 * that command needs registering. Anything else (help, a typo) gets the whole program.
 */
export function namedCommand(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '-C' || arg === '--cwd') {
      i += 1;
      continue;
    }
    if (arg.startsWith('-')) {
      if (arg.startsWith('--cwd=') || /^-C./.test(arg)) continue;
      return null;
    }
    return COMMANDS.some(([name]) => name === arg) ? arg : null;
  }
  return null;
}

/** Builds the `relay` program (only `only`'s command, when given); separate from running it so tests can inspect it. */
export function buildRelayProgram(only: string | null = null): Command {
  const program = new Command('relay')
    .description('Relay Desk: apply LLM answers to your project as transactions, and more.')
    .version(VERSION)
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
  for (const [name, register] of COMMANDS) if (only === null || only === name) register(program);
  return program;
}

/** Runs `relay` with these arguments (what follows the script, or the app's --relay-cli flag). */
export async function main(args: readonly string[]): Promise<void> {
  endQuietlyOnClosedPipe();
  await runProgram(buildRelayProgram(namedCommand(args)), args);
}
