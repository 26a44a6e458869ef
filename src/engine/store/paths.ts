// Where the app keeps its own data, and making that folder exist — private — before anything is
// written into it. One resolver for the desktop app and `relay ui`, so both share one database.
import { accessSync, chmodSync, closeSync, constants, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fail, ok, type Result } from '../result.js';

export const DATABASE_FILE = 'relay-desk.db';
const APP_FOLDER = 'Relay Desk';

/** The one environment variable that moves the data folder (the desktop app and every CLI read it). */
export const DATA_DIR_ENV = 'RELAY_DESK_DATA_DIR';

/** Modes of what Relay Desk keeps: the folder only its owner can enter, files only its owner can read. */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

type Env = Readonly<Record<string, string | undefined>>;

/**
 * An XDG base directory variable as the XDG Base Directory spec reads it: set, non-empty and
 * absolute, or else ignored (an empty or relative value would put data under the cwd).
 */
export function xdgBaseDir(value: string | undefined): string | null {
  return value !== undefined && value !== '' && path.isAbsolute(value) ? value : null;
}

/**
 * The app's data folder: the same folder Electron's `app.getPath('userData')` gives for
 * "Relay Desk" (the desktop app sets userData from this function, so the two cannot drift).
 * RELAY_DESK_DATA_DIR overrides it (tests, portable installs); an empty value is ignored.
 */
export function defaultDataDir(env: Env = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  const chosen = env[DATA_DIR_ENV];
  if (chosen) return path.resolve(chosen);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_FOLDER);
  if (platform === 'win32') return path.join(env.APPDATA && path.win32.isAbsolute(env.APPDATA) ? env.APPDATA : path.join(home, 'AppData', 'Roaming'), APP_FOLDER);
  return path.join(xdgBaseDir(env.XDG_CONFIG_HOME) ?? path.join(home, '.config'), APP_FOLDER);
}

export type DataDirFailureCode = 'DATA_DIR_UNAVAILABLE';

/** How a person picks another data folder; every "cannot use this folder" message ends with it. */
export const CHOOSE_ANOTHER_DATA_DIR = `Choose another with \`relay ui --data-dir <folder>\` or the ${DATA_DIR_ENV} environment variable.`;

function reason(error: NodeJS.ErrnoException, dir: string): string {
  switch (error.code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EEXIST':
    case 'ENOTDIR':
      return `a file is in the way (${firstFileOnTheWay(dir) ?? dir})`;
    default:
      return error.message;
  }
}

/** The first component of `dir` that exists but is not a folder. */
function firstFileOnTheWay(dir: string): string | null {
  let current = path.parse(dir).root;
  for (const part of path.relative(current, dir).split(path.sep)) {
    current = path.join(current, part);
    try {
      if (!statSync(current).isDirectory()) return current;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Creates the data folder (and its parents) if needed, private to its owner (0700), and checks
 * that it can be written. An existing folder of ours that others can read is tightened to 0700
 * (older builds and Electron itself create it 0755). Refuses with one sentence naming the
 * folder, the reason, and how to choose another.
 */
export function ensureDataDir(dir: string, platform: NodeJS.Platform = process.platform): Result<string, DataDirFailureCode> {
  const refuse = (why: string) => fail('DATA_DIR_UNAVAILABLE' as const, `Cannot use the data folder ${dir}: ${why}. ${CHOOSE_ANOTHER_DATA_DIR}`);
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const stat = statSync(dir);
    if (!stat.isDirectory()) return refuse(reason(Object.assign(new Error('not a folder'), { code: 'ENOTDIR' }), dir));
    // Another user's folder: they could read the answers kept there, or plant a database.
    const uid = typeof process.getuid === 'function' && platform !== 'win32' ? process.getuid() : null;
    if (uid !== null && stat.uid !== uid) return refuse(`it belongs to another user (uid ${stat.uid}), who could read what Relay Desk keeps there or plant what it reads`);
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    return refuse(reason(error as NodeJS.ErrnoException, dir));
  }
  if (platform !== 'win32') tightenFolder(dir);
  return ok(dir);
}

function tightenFolder(dir: string): void {
  const stat = statSync(dir);
  // Never a home folder or a root: `--data-dir ~` must not lock the user out of anything.
  const home = os.homedir();
  if ((stat.mode & 0o077) === 0 || path.resolve(dir) === path.resolve(home) || path.parse(dir).root === path.resolve(dir)) return;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return;
  try {
    chmodSync(dir, PRIVATE_DIR_MODE);
  } catch {
    // A file system without modes (a FAT stick): nothing more can be done, and nothing breaks.
  }
}

/**
 * Makes `file` exist with owner-only permissions before a library (SQLite) creates it with the
 * process umask, and tightens one that exists. SQLite gives its -wal and -shm the database's mode.
 */
export function createPrivateFile(file: string, platform: NodeJS.Platform = process.platform): void {
  if (!existsSync(file)) closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  if (platform !== 'win32') tightenFile(file);
}

/** Takes group and other permissions off a file we own (no-op when it is already private or missing). */
export function tightenFile(file: string): void {
  try {
    const stat = statSync(file);
    if ((stat.mode & 0o077) !== 0) chmodSync(file, PRIVATE_FILE_MODE);
  } catch {
    // Gone, or a file system without modes.
  }
}
