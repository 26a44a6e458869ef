import { Command, CommanderError } from 'commander';
import { EXIT, printError, UsageError } from './io.js';
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
    .exitOverride();
  registerPatchCommands(program);
  registerUiCommand(program);
  registerRelayCommands(program);
  registerHandoffCommands(program);
  return program;
}

async function main(): Promise<void> {
  const program = buildRelayProgram();
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? EXIT.ok : EXIT.usage;
      return;
    }
    if (error instanceof UsageError) {
      printError(`✘ ${error.message}`);
      process.exitCode = EXIT.usage;
      return;
    }
    printError(`✘ Unexpected error: ${(error as Error).stack ?? String(error)}`);
    process.exitCode = EXIT.failed;
  }
}

await main();
