import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { linuxAutostartEntry, linuxAutostartExecutable, linuxAutostartFile, setLinuxAutostart } from '../../../src/main/autostart.js';
import { tempDir } from '../../helpers/temp.js';

describe('start at login on Linux (XDG autostart)', () => {
  it('puts the entry in $XDG_CONFIG_HOME/autostart, else ~/.config/autostart', () => {
    expect(linuxAutostartFile({ XDG_CONFIG_HOME: '/cfg' }, '/home/me')).toBe(path.join('/cfg', 'autostart', 'relay-desk.desktop'));
    expect(linuxAutostartFile({}, '/home/me')).toBe(path.join('/home/me', '.config', 'autostart', 'relay-desk.desktop'));
    // The spec ignores a relative XDG_CONFIG_HOME.
    expect(linuxAutostartFile({ XDG_CONFIG_HOME: 'cfg' }, '/home/me')).toBe(path.join('/home/me', '.config', 'autostart', 'relay-desk.desktop'));
  });

  it('starts the AppImage file itself, not its temporary mount', () => {
    expect(linuxAutostartExecutable({ APPIMAGE: '/home/me/Apps/Relay Desk.AppImage' }, '/tmp/.mount_Relay/relay-desk')).toBe('/home/me/Apps/Relay Desk.AppImage');
    expect(linuxAutostartExecutable({}, '/opt/Relay Desk/relay-desk')).toBe('/opt/Relay Desk/relay-desk');
  });

  it('writes a desktop entry that starts hidden, quoting the Exec line as the spec asks', () => {
    const entry = linuxAutostartEntry('/opt/Relay Desk/relay-desk');
    expect(entry).toMatch(/^\[Desktop Entry\]\n/);
    expect(entry).toContain('Type=Application\n');
    expect(entry).toContain('Exec="/opt/Relay Desk/relay-desk" --hidden\n');
    expect(linuxAutostartEntry('/opt/relay-desk/relay-desk')).toContain('Exec=/opt/relay-desk/relay-desk --hidden\n');
    expect(linuxAutostartEntry('/home/me/a"b$c/100%/relay', ['/repo', '--hidden'])).toContain('Exec="/home/me/a\\"b\\$c/100%%/relay" /repo --hidden\n');
  });

  it('writes the entry when turned on and removes it when turned off', () => {
    const file = path.join(tempDir(), 'autostart', 'relay-desk.desktop');
    setLinuxAutostart(false, { file, executable: '/opt/relay-desk/relay-desk' });
    expect(existsSync(file)).toBe(false);
    setLinuxAutostart(true, { file, executable: '/opt/relay-desk/relay-desk' });
    expect(readFileSync(file, 'utf8')).toContain('Exec=/opt/relay-desk/relay-desk --hidden');
    setLinuxAutostart(false, { file, executable: '/opt/relay-desk/relay-desk' });
    expect(existsSync(file)).toBe(false);
  });
});
