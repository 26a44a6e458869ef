// Start at login on Linux. Electron's app.setLoginItemSettings works on macOS and Windows only;
// Linux desktops (GNOME, KDE, XFCE…) follow the XDG autostart spec instead: a .desktop file in
// $XDG_CONFIG_HOME/autostart is launched when the user logs in.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The flag an autostarted Relay Desk gets, so it stays in the tray instead of opening its window. */
export const HIDDEN_FLAG = '--hidden';

/** Where the autostart entry lives: $XDG_CONFIG_HOME/autostart (default ~/.config/autostart). */
export function linuxAutostartFile(env: Readonly<Record<string, string | undefined>>, home = os.homedir()): string {
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(configHome, 'autostart', 'relay-desk.desktop');
}

/**
 * The program to start at login. An AppImage runs from a temporary mount that is gone after
 * logout, so its own path (the APPIMAGE variable its runtime sets) is used instead.
 */
export function linuxAutostartExecutable(env: Readonly<Record<string, string | undefined>>, execPath: string): string {
  return env.APPIMAGE && path.isAbsolute(env.APPIMAGE) ? env.APPIMAGE : execPath;
}

// Desktop Entry spec, "The Exec key": an argument with reserved characters is double-quoted, and
// inside the quotes ", `, $ and \ are backslash-escaped; a literal % is written %%.
function quoteExecArgument(arg: string): string {
  const escaped = arg.replace(/%/g, '%%');
  if (!/[\s"'`$\\<>~|&;*?#()]/.test(escaped)) return escaped;
  return `"${escaped.replace(/(["`$\\])/g, '\\$1')}"`;
}

/** The .desktop file that starts Relay Desk, hidden in the tray, at login. */
export function linuxAutostartEntry(executable: string, args: readonly string[] = [HIDDEN_FLAG]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Version=1.0',
    'Name=Relay Desk',
    'Comment=Keeps your LLM coding sessions safe',
    `Exec=${[executable, ...args].map(quoteExecArgument).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

/** Writes or removes the autostart entry (removing one that is not there is fine). */
export function setLinuxAutostart(enabled: boolean, options: { readonly file: string; readonly executable: string; readonly args?: readonly string[] }): void {
  if (!enabled) {
    rmSync(options.file, { force: true });
    return;
  }
  mkdirSync(path.dirname(options.file), { recursive: true });
  writeFileSync(options.file, linuxAutostartEntry(options.executable, options.args));
}
