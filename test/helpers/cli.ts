import { execa } from 'execa';
import path from 'node:path';
import { existsSync } from 'node:fs';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const RELAY = path.join(REPO_ROOT, 'dist/cli/relay.js');
const RELAIS = path.join(REPO_ROOT, 'dist/cli/relais.js');

export interface CliRun {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

function ensureBuilt(file: string): void {
  if (!existsSync(file)) throw new Error(`${path.relative(REPO_ROOT, file)} is missing: run \`npm run build\` (npm test does it first).`);
}

/** Runs the built `relay` CLI as a real child process. */
export async function relay(args: readonly string[], options: { cwd: string; input?: string; env?: Record<string, string> }): Promise<CliRun> {
  ensureBuilt(RELAY);
  const run = await execa(process.execPath, [RELAY, ...args], {
    cwd: options.cwd,
    reject: false,
    ...(options.input !== undefined ? { input: options.input } : { stdin: 'ignore' as const }),
    env: { ...options.env },
    timeout: 60_000,
  });
  return { exitCode: run.exitCode ?? -1, stdout: run.stdout, stderr: run.stderr };
}

/** Runs the built `relais` CLI as a real child process. */
export async function relais(args: readonly string[], options: { cwd: string; env?: Record<string, string> }): Promise<CliRun> {
  ensureBuilt(RELAIS);
  const run = await execa(process.execPath, [RELAIS, ...args], { cwd: options.cwd, reject: false, stdin: 'ignore', env: { ...options.env }, timeout: 120_000 });
  return { exitCode: run.exitCode ?? -1, stdout: run.stdout, stderr: run.stderr };
}
