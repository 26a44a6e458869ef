import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE } from '../engine/patch/names.js';
import { TICK_CONFIG_FILE } from '../engine/tick/names.js';
import { EXIT, printError, printJson } from './io.js';

/** Options every relay command accepts. */
export interface GlobalOptions {
  readonly cwd?: string;
}

/** The folder a command starts from: -C <dir>, else the current folder. */
export function startDir(program: Command): string {
  return path.resolve(program.opts<GlobalOptions>().cwd ?? process.cwd());
}

/** The nearest folder at or above `start` with relay.config.json (or, with `orRelais`, relais.config.json), or null. */
export function findProject(start: string, orRelais = false): string | null {
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, CONFIG_FILE)) || (orRelais && existsSync(path.join(dir, TICK_CONFIG_FILE)))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The project a command acts on: the nearest folder at or above `start` with relay.config.json, else `start`. */
export function findProjectRoot(start: string): string {
  return findProject(start) ?? path.resolve(start);
}

/** What to say when a command that needs a project runs outside one. */
export function notAProjectMessage(start: string, orRelais = false): string {
  const files = orRelais ? `${CONFIG_FILE} or ${TICK_CONFIG_FILE}` : CONFIG_FILE;
  return `No Relay project here: there is no ${files} in ${start} or any folder above it. Set one up with \`relay init\` in your project's folder (then \`relay prompt\` for your assistant)${orRelais ? ' or `relais init`' : ''}, or point -C at a project.`;
}

/**
 * The project a command acts on; outside any project, says how to set one up and exits 1.
 * `json` commands print their usual result object, with error code CONFIG_MISSING; `orRelais`
 * also accepts a folder set up for relais only (commands that read ticks as well as patches).
 */
export function requireProject(program: Command, options: { readonly json?: (error: { code: 'CONFIG_MISSING'; message: string }) => unknown; readonly orRelais?: boolean } = {}): string {
  const start = startDir(program);
  const root = findProject(start, options.orRelais === true);
  if (root !== null) return root;
  const message = notAProjectMessage(start, options.orRelais === true);
  if (options.json) printJson(options.json({ code: 'CONFIG_MISSING', message }));
  else printError(`✘ ${message}`);
  process.exit(EXIT.failed);
}
