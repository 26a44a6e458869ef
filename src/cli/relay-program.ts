// The `relay` program: commander and the command files (options and help). Only the command a
// command line names is loaded (every one for --help), and each loads the engine code it needs
// when it runs, so `relay log` does not pay for the rest.
import { Command } from 'commander';
import { endQuietlyOnClosedPipe, runProgram } from './io.js';
import { VERSION } from './version.js';

type Register = (program: Command) => void;

/** Each command's name and its file's register function, in the order --help lists them. */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<Register>]> = [
  ['init', async () => (await import('./commands/relay/init.js')).registerInit],
  ['apply', async () => (await import('./commands/relay/apply.js')).registerApply],
  ['prompt', async () => (await import('./commands/relay/prompt.js')).registerPrompt],
  ['watch', async () => (await import('./commands/relay/watch.js')).registerWatch],
  ['log', async () => (await import('./commands/relay/log.js')).registerLog],
  ['revert', async () => (await import('./commands/relay/revert.js')).registerRevert],
  ['git', async () => (await import('./commands/relay/git-commit.js')).registerGit],
  ['ui', async () => (await import('./commands/relay/ui.js')).registerUi],
  ['ask', async () => (await import('./commands/relay/ask.js')).registerAsk],
  ['review', async () => (await import('./commands/relay/review.js')).registerReview],
  ['handoff', async () => (await import('./commands/relay/handoff.js')).registerHandoff],
  ['mcp', async () => (await import('./commands/relay/mcp.js')).registerMcp],
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
export async function buildRelayProgram(only: string | null = null): Promise<Command> {
  const registers = await Promise.all(COMMANDS.filter(([name]) => only === null || only === name).map(([, load]) => load()));
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
  for (const register of registers) register(program);
  return program;
}

/** Runs `relay` with these arguments (what follows the script, or the app's --relay-cli flag). */
export async function main(args: readonly string[]): Promise<void> {
  endQuietlyOnClosedPipe();
  await runProgram(await buildRelayProgram(namedCommand(args)), args);
}
