import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_FILE } from '../engine/patch/config.js';

/** The project a command acts on: the nearest folder at or above `start` with relay.config.json, else `start`. */
export function findProjectRoot(start: string): string {
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, CONFIG_FILE))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(start);
    dir = parent;
  }
}
