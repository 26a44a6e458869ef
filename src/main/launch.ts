// What the desktop app's process does from its first line: either run the relay CLI and exit
// (`--relay-cli`: no window, no tray, no single-instance lock, no data folder), or become the
// one Relay Desk (data folder, app:// scheme, single instance, then the shell once ready).
import { defaultDataDir } from '../engine/store/paths.js';
import { registerAppScheme, startApp, type RunningApp, type ShellOptions } from './app-shell.js';
import type { ElectronPorts, ShellProcess } from './ports.js';
import { bundledRelayCli, relayCliArguments, type RelayCliRunner } from './relay-cli.js';

/** How the process ended up: the CLI ran, another instance owns the app, or this one runs it. */
export type Launched =
  | { readonly kind: 'relay-cli'; readonly exitCode: number }
  | { readonly kind: 'second-instance' }
  | { readonly kind: 'app'; readonly app: RunningApp | null };

/** Starts the process as the relay CLI or as the app, from its argv. */
export async function launch(electron: ElectronPorts, proc: ShellProcess, options: ShellOptions & { readonly runRelayCli?: RelayCliRunner }): Promise<Launched> {
  const { app } = electron;
  const cliArgs = relayCliArguments(proc);
  if (cliArgs !== null) {
    const run = options.runRelayCli ?? bundledRelayCli(app.getAppPath());
    let exitCode: number;
    try {
      exitCode = await run(cliArgs);
    } catch (error) {
      // The CLI reports its own failures; this is one it could not (a missing or broken bundle).
      process.stderr.write(`✘ relay could not run inside Relay Desk: ${(error as Error)?.message ?? String(error)}\n`);
      exitCode = 1;
    }
    app.exit(exitCode);
    return { kind: 'relay-cli', exitCode };
  }
  // The data folder comes from the one resolver `relay ui` uses too (RELAY_DESK_DATA_DIR, the XDG
  // rules, the platform's folder), so the app and the CLI never disagree about where it is.
  app.setPath('userData', defaultDataDir(proc.env, proc.platform));
  registerAppScheme(electron.protocol);
  if (!app.requestSingleInstanceLock()) {
    // Another Relay Desk is running; it shows its window (second-instance) and this one leaves.
    app.quit();
    return { kind: 'second-instance' };
  }
  await app.whenReady();
  return { kind: 'app', app: await startApp(electron, proc, options) };
}
