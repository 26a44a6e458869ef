// `relay` run inside another process: the packaged desktop app's `--relay-cli` mode. The app's
// binary cannot run as Node (its RunAsNode fuse is off), so "Start in a terminal" starts the app
// itself with `--relay-cli <args>`; its main process imports this bundle and exits with the code.
import { asksOnlyVersion, VERSION } from './version.js';

/** Runs `relay` with `args` in this process; resolves with the exit code the command set. */
export async function runRelayCli(args: readonly string[]): Promise<number> {
  // Set when this file runs under Electron-as-Node: the agents a handoff starts (and anything
  // they start) must not inherit that switch.
  delete process.env.ELECTRON_RUN_AS_NODE;
  if (asksOnlyVersion(args)) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  await (await import('./relay-program.js')).main(args);
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
