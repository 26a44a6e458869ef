// The packaged app's `--relay-cli` mode: "Start in a terminal" runs `relay handoff …` with the
// app's own binary, which cannot run as Node (the RunAsNode fuse is off, electron-builder.yml).
// The flag must be the first argument; everything after it is relay's.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RELAY_CLI_FLAG } from '../engine/handoff/terminal.js';
import type { ShellProcess } from './ports.js';

/**
 * relay's arguments when this process was started as `<app> --relay-cli <args…>` (or, unpackaged,
 * `electron <folder> --relay-cli <args…>`); null when it was started as the desktop app. Only the
 * first argument counts, so a relay argument that happens to read "--relay-cli" changes nothing.
 */
export function relayCliArguments(proc: Pick<ShellProcess, 'argv' | 'defaultApp'>): string[] | null {
  const first = proc.defaultApp ? 2 : 1;
  return proc.argv[first] === RELAY_CLI_FLAG ? proc.argv.slice(first + 1) : null;
}

/** Runs relay with `args` in this process and resolves with its exit code. */
export type RelayCliRunner = (args: readonly string[]) => Promise<number>;

/** The bundled relay CLI's in-process entry: dist/cli/relay-embedded.js inside the app (or its folder, unpackaged). */
export function bundledRelayCli(appPath: string): RelayCliRunner {
  return async (args) => {
    const entry = path.join(appPath, 'dist', 'cli', 'relay-embedded.js');
    const loaded = (await import(pathToFileURL(entry).href)) as { runRelayCli: RelayCliRunner };
    return loaded.runRelayCli(args);
  };
}
