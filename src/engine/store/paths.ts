import os from 'node:os';
import path from 'node:path';

export const DATABASE_FILE = 'relay-desk.db';
const APP_FOLDER = 'Relay Desk';

/**
 * The app's data folder: the same folder Electron's `app.getPath('userData')` gives for
 * "Relay Desk", so `relay ui` and the desktop app share one database. RELAY_DESK_DATA_DIR
 * overrides it (tests, portable installs).
 */
export function defaultDataDir(env: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform, home: string = os.homedir()): string {
  if (env.RELAY_DESK_DATA_DIR) return path.resolve(env.RELAY_DESK_DATA_DIR);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', APP_FOLDER);
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), APP_FOLDER);
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), APP_FOLDER);
}
