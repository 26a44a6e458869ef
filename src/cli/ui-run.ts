// What `relay ui` does once its options are read. Loaded only when `relay ui` runs, so other
// relay commands do not pay for SQLite, the WebSocket server and the host at start-up.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createHost } from '../host/index.js';
import { realEngines } from '../host/engines.js';
import { openInBrowser as openWithBrowser } from '../engine/proc/browser.js';
import { DATABASE_FILE, defaultDataDir, describeHeal, ensureDataDir, openStoreHealing, rebuildStore, StoreError, type Store } from '../engine/store/index.js';
import { EXIT, print, printError } from './io.js';
import { createCredentials, LAUNCH_TOKEN_TTL_MS } from './ui-credentials.js';
import { writeLaunchFile } from './ui-launch-file.js';
import { startUiServer, type LaunchLink, type UiServer } from './ui-server.js';
import { uiProject } from './ui-project.js';

export interface UiRun {
  /** The folder `relay ui` was started in (or -C), where a project is looked for. */
  readonly start: string;
  /** `relay ui <folder>`: the project folder to add (if needed) and open on. */
  readonly folder?: string;
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
    if (!rebuild) {
      // A damaged database is moved aside and rebuilt from the projects' files, in one line.
      const opened = openStoreHealing({ file, exclusive: true });
      if (opened.healed) print(`• ${describeHeal(opened.healed, file)}`);
      return opened.store;
    }
    const outcome = rebuildStore({ file, exclusive: true });
    if (outcome.movedTo) print(`• Moved the old database to ${outcome.movedTo}.`);
    print(`• Rebuilt the history of ${outcome.reindexed.length} project(s) from their files.`);
    return outcome.store;
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    printError(`✘ ${error.code}: ${error.message}`);
    if (error.code === 'STORE_MIGRATION_MISMATCH') printError('  Run `relay ui --rebuild-db` to move it aside and rebuild the history from your projects.');
    return null;
  }
}

/**
 * Opens a launch link in the browser without its token on any command line: the browser gets
 * the path of a private file that redirects to the link, removed once the link is traded or dead.
 */
async function openInBrowser(link: LaunchLink): Promise<() => void> {
  const launch = writeLaunchFile(link.url);
  const timer = setTimeout(launch.remove, Math.max(0, link.expiresAt - Date.now()));
  timer.unref();
  void link.traded.then(() => {
    clearTimeout(timer);
    launch.remove();
  });
  const opened = await openWithBrowser(launch.file, { env: process.env });
  if (!opened.ok) printError(`! Could not open a browser (${opened.error.message}); open the link above.`);
  return () => {
    clearTimeout(timer);
    launch.remove();
  };
}

/**
 * Prints a fresh link for each line read on stdin: Enter in the terminal, or a newline from the
 * program that started `relay ui` (whoever holds its stdin started it, so holds its links too).
 */
function newLinkOnEnter(server: UiServer, open: boolean, cleanups: Array<() => void>, project: string | undefined): () => void {
  // terminal: false keeps the terminal in its normal mode, so Ctrl+C still reaches us as SIGINT.
  const lines = createInterface({ input: process.stdin, terminal: false });
  lines.on('line', () => {
    const link = server.launchLink(project ? { project } : {});
    print(`New link (works once, for ${LAUNCH_TOKEN_TTL_MS / 60_000} minutes): ${link.url}`);
    if (open) void openInBrowser(link).then((cleanup) => cleanups.push(cleanup));
  });
  return () => lines.close();
}

/** Opens the store, starts the host and the server, prints the link, and runs until Ctrl+C. */
export async function runUi(options: UiRun): Promise<void> {
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir(process.env));
  // The folder first, private: everything else in this command writes into it.
  const folder = ensureDataDir(dataDir);
  if (!folder.ok) {
    printError(`✘ ${folder.error.code}: ${folder.error.message}`);
    process.exitCode = EXIT.failed;
    return;
  }
  const store = openOrRebuild(path.join(dataDir, DATABASE_FILE), options.rebuildDb);
  if (!store) {
    process.exitCode = EXIT.failed;
    return;
  }
  const host = createHost({ store, engines: realEngines({ env: process.env }) });
  // Sessions live in this process only, and each run takes a new port: an address that outlived
  // its server could have served another program's page in between (see ui-credentials.ts).
  const credentials = createCredentials();
  // The file earlier versions kept sessions in: nothing reads it any more.
  rmSync(path.join(dataDir, 'ui-sessions.json'), { force: true });
  let server: UiServer;
  try {
    server = await startUiServer({ host, port: options.port, credentials, rendererDir: path.join(packageRoot(), 'out', 'renderer') });
  } catch (error) {
    await host.close();
    store.close();
    printError(`✘ Cannot listen on port ${options.port} of a loopback address: ${(error as Error).message}`);
    process.exitCode = EXIT.failed;
    return;
  }
  // Listen for Ctrl+C before announcing the link, so a stop right after it is never missed.
  const stopped = new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  const opened = await uiProject(host, { start: options.start, ...(options.folder !== undefined ? { folder: options.folder } : {}) });
  if (opened && 'problem' in opened) printError(`! ${opened.problem}`);
  else if (opened) print(`• ${opened.added ? 'Added' : 'Opening'} project ${opened.projectId} (${opened.root})${opened.added ? '; opening it' : ''}.`);
  const project = opened && !('problem' in opened) ? opened.projectId : undefined;
  const link = server.launchLink(project ? { project } : {});
  print(`Relay Desk is running at ${link.url}`);
  print(`  (the link works once, for ${LAUNCH_TOKEN_TTL_MS / 60_000} minutes${process.stdin.isTTY ? '; press Enter here for a new one' : ''}; data: ${dataDir}; press Ctrl+C to stop)`);
  const cleanups: Array<() => void> = [];
  if (options.open) cleanups.push(await openInBrowser(link));
  const stopListening = newLinkOnEnter(server, options.open, cleanups, project);
  await stopped;
  stopListening();
  for (const cleanup of cleanups) cleanup();
  // Pending approvals are denied and their patches rolled back before the process ends; the
  // pages are still connected meanwhile, so they hear how their tasks ended before "stopped".
  await host.close();
  await server.close();
  store.close();
  print('Relay Desk stopped.');
}
