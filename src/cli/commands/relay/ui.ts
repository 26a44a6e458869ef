// `relay ui`: the desktop app's window in a browser, for machines without the Electron binary.
// Only the options live here; ui-run.ts (loaded when the command runs) does the work.
import type { Command } from 'commander';
import { UsageError, withHelp } from '../../io.js';
import { startDir } from '../../project.js';

interface UiOptions {
  readonly port?: string;
  readonly open?: boolean;
  readonly dataDir?: string;
  readonly rebuildDb?: boolean;
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a number from 0 to 65535 (0 picks a free port): ${JSON.stringify(text)}`);
  return port;
}

/** Registers `relay ui`. */
export function registerUi(program: Command): void {
  withHelp(
    program
      .command('ui')
      .argument('[folder]', 'a project folder to add (if needed) and open on; default: the project you are in, if any')
      .description('open Relay Desk in your browser (serves the app on a loopback address; a single-use link lets your page in)')
      .option('--port <n>', 'port to listen on (default: a free one)')
      .option('--no-open', 'print the link without opening a browser')
      .option('--data-dir <dir>', "folder of the app database (default: the desktop app's data folder, or $RELAY_DESK_DATA_DIR)")
      .option('--rebuild-db', "move a damaged database aside and rebuild the history from the projects' files"),
    {
      about: `Started inside a project (relay.config.json or relais.config.json here or above), or given a folder,
it adds that project when it is not registered yet and opens on it, as \`code .\` does.
It runs until Ctrl+C; a patch still waiting for approval is then rolled back.
Each run serves a new address, a loopback address nobody could guess (such as 127.38.5.201):
pages of an earlier run say so, and you open the link this one prints. (Another program could
have left a service worker or cached files at an address it knew; at a new one there is nothing.)`,
      examples: ['relay ui', 'relay ui ~/code/my-project', 'relay ui --no-open --port 4317', 'relay ui --rebuild-db'],
      exitCodes: { 0: 'stopped with Ctrl+C', 1: 'the database is in use, damaged (STORE_CORRUPT) or cannot be opened, or the port is taken' },
    },
  ).action(async (folder: string | undefined, options: UiOptions) => {
    const port = parsePort(options.port);
    const { runUi } = await import('../../ui-run.js');
    await runUi({
      start: startDir(program),
      ...(folder !== undefined ? { folder } : {}),
      port,
      open: options.open !== false,
      rebuildDb: options.rebuildDb === true,
      ...(options.dataDir !== undefined ? { dataDir: options.dataDir } : {}),
    });
  });
}
