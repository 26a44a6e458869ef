// `relay ui`: the desktop app's window in a browser, for machines without the Electron binary.
// Parses options and prints; the store, the host and the server do the work.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { createHost } from '../host/index.js';
import { DATABASE_FILE, defaultDataDir, openStore, rebuildStore, StoreError, type Store } from '../engine/store/index.js';
import { EXIT, print, printError, UsageError } from './io.js';
import { startUiServer } from './ui-server.js';

interface UiOptions {
  readonly port?: string;
  readonly open?: boolean;
  readonly dataDir?: string;
  readonly rebuildDb?: boolean;
}

/** The folder holding package.json: two levels above both src/cli/*.ts and the bundled dist/cli/relay.js. */
function packageRoot(): string {
  return fileURLToPath(new URL('../..', import.meta.url));
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new UsageError(`--port must be a number from 0 to 65535 (0 picks a free port): ${JSON.stringify(text)}`);
  return port;
}

function openOrRebuild(file: string, rebuild: boolean): Store | null {
  if (rebuild) {
    const outcome = rebuildStore({ file });
    if (outcome.movedTo) print(`• Moved the old database to ${outcome.movedTo}.`);
    print(`• Rebuilt the history of ${outcome.reindexed.length} project(s) from their files.`);
    return outcome.store;
  }
  try {
    return openStore({ file });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    printError(`✘ ${error.code}: ${error.message}`);
    if (error.code === 'STORE_CORRUPT' || error.code === 'STORE_MIGRATION_MISMATCH') printError('  Run `relay ui --rebuild-db` to move it aside and rebuild the history from your projects.');
    return null;
  }
}

/** Registers `relay ui`. */
export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description('open Relay Desk in your browser (serves the app on 127.0.0.1 with a one-time token)')
    .option('--port <n>', 'port to listen on (default: a free one)')
    .option('--no-open', 'print the URL without opening a browser')
    .option('--data-dir <dir>', 'folder of the app database (default: the desktop app\'s data folder, or $RELAY_DESK_DATA_DIR)')
    .option('--rebuild-db', 'move a damaged database aside and rebuild the history from the projects\' files')
    .action(async (options: UiOptions) => {
      const port = parsePort(options.port);
      const dataDir = path.resolve(options.dataDir ?? defaultDataDir());
      const store = openOrRebuild(path.join(dataDir, DATABASE_FILE), options.rebuildDb === true);
      if (!store) {
        process.exitCode = EXIT.failed;
        return;
      }
      const host = createHost({ store });
      let server;
      try {
        server = await startUiServer({ host, port, rendererDir: path.join(packageRoot(), 'out', 'renderer') });
      } catch (error) {
        await host.close();
        store.close();
        printError(`✘ Cannot listen on 127.0.0.1:${port}: ${(error as Error).message}`);
        process.exitCode = EXIT.failed;
        return;
      }
      // Listen for Ctrl+C before announcing the URL, so a stop right after it is never missed.
      const stopped = new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      print(`Relay Desk is running at ${server.url}`);
      print(`  (data: ${dataDir}; press Ctrl+C to stop)`);
      if (options.open !== false) {
        const { default: open } = await import('open');
        await open(server.url).catch((error: unknown) => printError(`! Could not open a browser (${(error as Error).message}); open the URL above.`));
      }
      await stopped;
      // Pending approvals are denied and their patches rolled back before the process ends.
      await server.close();
      await host.close();
      store.close();
      print('Relay Desk stopped.');
    });
}
