// One resolver for the data folder, shared by the desktop app and `relay ui`.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR_ENV, defaultDataDir, xdgBaseDir } from '../../../src/engine/store/paths.js';

describe('defaultDataDir', () => {
  it('uses RELAY_DESK_DATA_DIR first, ignoring it when empty', () => {
    expect(DATA_DIR_ENV).toBe('RELAY_DESK_DATA_DIR');
    expect(defaultDataDir({ RELAY_DESK_DATA_DIR: '/data/relay', XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/me')).toBe(path.resolve('/data/relay'));
    expect(defaultDataDir({ RELAY_DESK_DATA_DIR: '' }, 'linux', '/home/me')).toBe('/home/me/.config/Relay Desk');
  });

  it('follows the XDG Base Directory spec on Linux: an empty or relative XDG_CONFIG_HOME is ignored', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux', '/home/me')).toBe('/cfg/Relay Desk');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '' }, 'linux', '/home/me')).toBe('/home/me/.config/Relay Desk');
    expect(defaultDataDir({ XDG_CONFIG_HOME: 'relative/cfg' }, 'linux', '/home/me')).toBe('/home/me/.config/Relay Desk');
    expect(defaultDataDir({}, 'linux', '/home/me')).toBe('/home/me/.config/Relay Desk');
    expect(xdgBaseDir(undefined)).toBeNull();
  });

  it('uses the platform folders Electron uses on macOS and Windows', () => {
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'darwin', '/Users/me')).toBe('/Users/me/Library/Application Support/Relay Desk');
    expect(defaultDataDir({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Users\\me')).toBe(path.join('C:\\Users\\me\\AppData\\Roaming', 'Relay Desk'));
    expect(defaultDataDir({ APPDATA: '' }, 'win32', '/home/me')).toBe(path.join('/home/me', 'AppData', 'Roaming', 'Relay Desk'));
  });
});
