// Picks the cheapest way to watch the clipboard on this machine for `relay watch`: told of
// changes where the platform can tell (X11 XFixes events, `wl-paste --watch`, a persistent
// change-counter helper on macOS and Windows), else read on a timer. The text itself is read
// with clipboardy. The app uses Electron's clipboard instead (in-process, see src/main).
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { ClipboardSource } from '../patch/watcher.js';
import { assertNever, fail, ok, type Result } from '../result.js';
import { helperSource, macosWatchCommand, waylandWatchCommand, windowsWatchCommand } from './helper.js';
import { openX11Source } from './x11.js';

/** How the clipboard is watched: told of changes, or read every interval. */
export type ClipboardMode = 'x11' | 'wayland' | 'macos' | 'windows' | 'poll';

/** What `RELAY_CLIPBOARD` may force (tests, benchmarks, or a platform method that misbehaves). */
export const CLIPBOARD_MODES: readonly ClipboardMode[] = ['x11', 'wayland', 'macos', 'windows', 'poll'];

export interface OpenedClipboard {
  readonly source: ClipboardSource;
  readonly mode: ClipboardMode;
  /** Why a cheaper mode was not used, when one was tried and failed. */
  readonly fallback: string | null;
}

export type ClipboardOpenCode = 'NO_DISPLAY' | 'CLIPBOARD_UNREADABLE' | 'CLIPBOARD_MODE_INVALID';

function onPath(command: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/** The mode this machine offers before anything is tried, and why it is a lesser one. */
function preferredMode(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): { mode: ClipboardMode | 'none'; because: string | null } {
  if (platform === 'darwin') return { mode: 'macos', because: null };
  if (platform === 'win32') return { mode: 'windows', because: null };
  if (env.WAYLAND_DISPLAY) return onPath('wl-paste', env) ? { mode: 'wayland', because: null } : { mode: 'poll', because: 'wl-paste (the wl-clipboard package) is not installed' };
  if (env.DISPLAY) return { mode: 'x11', because: null };
  return { mode: 'none', because: null };
}

/**
 * Opens the clipboard for watching and proves it can be read (one read), so a machine where it
 * cannot be read says so once, at start, instead of at every poll.
 */
export async function openClipboard(options: { readonly env: NodeJS.ProcessEnv; readonly platform: NodeJS.Platform }): Promise<Result<OpenedClipboard, ClipboardOpenCode>> {
  const { env, platform } = options;
  const forced = env.RELAY_CLIPBOARD?.trim();
  if (forced && !(CLIPBOARD_MODES as readonly string[]).includes(forced)) {
    return fail('CLIPBOARD_MODE_INVALID', `RELAY_CLIPBOARD=${forced} is not a clipboard mode; use one of ${CLIPBOARD_MODES.join(', ')}, or unset it.`);
  }
  const preferred = forced ? { mode: forced as ClipboardMode, because: null } : preferredMode(env, platform);
  const mode = preferred.mode;
  if (mode === 'none') {
    return fail(
      'NO_DISPLAY',
      'The clipboard cannot be read here: neither DISPLAY nor WAYLAND_DISPLAY is set (an SSH session or a container?). Run relay watch in your desktop session, or apply answers from a file or standard input: `relay apply answer.md`, `xsel -b -o | relay apply -`.',
    );
  }
  const { default: clipboardy } = await import('clipboardy');
  const read = (): Promise<string> => clipboardy.read();
  try {
    await read();
  } catch (error) {
    return fail('CLIPBOARD_UNREADABLE', `The clipboard cannot be read: ${(error as Error).message}`);
  }
  const polled = (fallback: string | null): Result<OpenedClipboard, never> => ok({ source: { read }, mode: 'poll', fallback });
  switch (mode) {
    case 'x11': {
      const opened = await openX11Source(env.DISPLAY ?? '', read);
      return opened.ok ? ok({ source: opened.value, mode, fallback: null }) : polled(opened.error.message);
    }
    case 'wayland':
      return ok({ source: helperSource(waylandWatchCommand(env), read), mode, fallback: null });
    case 'macos':
      return ok({ source: helperSource(macosWatchCommand(env), read), mode, fallback: null });
    case 'windows':
      return ok({ source: helperSource(windowsWatchCommand(env), read), mode, fallback: null });
    case 'poll':
      return polled(preferred.because);
    default:
      return assertNever(mode);
  }
}
