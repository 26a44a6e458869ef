// What `relay ui` does once its options are read. Loaded only when `relay ui` runs, so other
// relay commands do not pay for SQLite, the WebSocket server and the host at start-up.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '../host/index.js';
import { realEngines } from '../host/engines.js';
import { openInBrowser } from '../engine/proc/browser.js';
import { DATABASE_FILE, defaultDataDir, openStore, rebuildStore, StoreError, type Store } from '../engine/store/index.js';
import { EXIT, print, printError } from './io.js';
import { startUiServer } from './ui-server.js';

export interface UiRun {
  readonly port: number;
  readonly open: boolean;
  readonly dataDir?: string;
  readonly rebuildDb: boolean;
}

/** The Relay Desk package folder (holding out/renderer), found upwards from this module wherever the bundler put it. */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'relay-desk') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(fileURLToPath(import.meta.url), '../../..');
    dir = parent;
  }
}

function openOrRebuild(file: string, rebuild: boolean): Store | null {
  try {
    // Exclusive: the tray app may be running on the same data folder (see store/owner.ts).
    if (!rebuild) return openStore({ file, exclusive: true });
    const outcome = rebuildStore({ file, exclusive: true });
    if (outcome.movedTo) print(`• Moved the old database to ${outcome.movedTo}.`);
    print(`• Rebuilt the history of ${outcome.reindexed.length} project(s) from their files.`);
    return outcome.store;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    printError(`✘ ${error.code}: ${error.message}`);
    if (error.code === 'STORE_CORRUPT' || error.code === 'STORE_MIGRATION_MISMATCH') printError('  Run `relay ui --rebuild-db` to move it aside and rebuild the history from your projects.');
    return null;
  }
}

/** Opens the store, starts the host and the server, prints the URL, and runs until Ctrl+C. */
export async function runUi(options: UiRun): Promise<void> {
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir(process.env));
  const store = openOrRebuild(path.join(dataDir, DATABASE_FILE), options.rebuildDb);
  if (!store) {
    process.exitCode = EXIT.failed;
    return;
  }
  const host = createHost({ store, engines: realEngines({ env: process.env }) });
  let server;
  try {
    server = await startUiServer({ host, port: options.port, rendererDir: path.join(packageRoot(), 'out', 'renderer') });
  } catch (error) {
    await host.close();
    store.close();
    printError(`✘ Cannot listen on 127.0.0.1:${options.port}: ${(error as Error).message}`);
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
  if (options.open) {
    const opened = await openInBrowser(server.url, { env: process.env });
    if (!opened.ok) printError(`! Could not open a browser (${opened.error.message}); open the URL above.`);
  }
  await stopped;
  // Pending approvals are denied and their patches rolled back before the process ends.
  await server.close();
  await host.close();
  store.close();
  print('Relay Desk stopped.');
}
