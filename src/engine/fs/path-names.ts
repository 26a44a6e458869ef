// How a path component looks to every file system Relay Desk ships to. Pure: no disk access.
//
// A name that is harmless on Linux can be another name on macOS or Windows: `.GIT` is `.git` on
// case-insensitive disks, `.git.` and `.git ` are `.git` on NTFS (trailing dots and spaces are
// dropped), `GIT~1` is the 8.3 short name of `.git`, `.git::$INDEX_ALLOCATION` is `.git` itself
// (an NTFS stream), and HFS+ ignores some invisible Unicode characters, so `.g\u200cit` is `.git`.
// These rules follow git's own `verify_path`, `is_ntfs_dotgit`, `is_ntfs_dot_generic` and
// `is_hfs_dotgit` (path.c, utf8.c), generalised from `.git` to every name Relay Desk protects.

/** Code points HFS+ drops when it compares names (git's utf8.c next_hfs_char). */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;

/** Windows device names: a file called `con.txt` or `COM1` opens the device, wherever it is. */
const DEVICE_NAMES = new Set([
  'con', 'prn', 'aux', 'nul', 'conin$', 'conout$', 'clock$',
  ...['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '\u00b9', '\u00b2', '\u00b3'].flatMap((d) => [`com${d}`, `lpt${d}`]),
]);

/**
 * The forms a component can take that the file system may treat as the same name: NFKC folded
 * (fullwidth letters, `ſ`), HFS+ ignorables removed, trailing dots and spaces dropped, in lower
 * and upper case (NTFS upper-cases `ı` to `I`, which lower-casing alone never finds).
 */
export function nameAliases(component: string): string[] {
  const folded = component.normalize('NFKC').replace(HFS_IGNORABLE, '').replace(/[. ]+$/, '');
  return [...new Set([folded.toLowerCase(), folded.toUpperCase().toLowerCase()])];
}

/** True when `component` is `name` to some file system (case, trailing dots/spaces, ignorables). */
export function isAliasOf(component: string, name: string): boolean {
  const wanted = name.toLowerCase();
  return nameAliases(component).includes(wanted);
}

/**
 * True when `component` could be the Windows 8.3 short name of `longName`: the long name's first
 * letters (dots dropped) then `~` and a digit (`GIT~1`, `RELAYC~1`, `RELAYC~2.JSO`), or the
 * fallback form Windows uses once ~1..~4 are taken: two letters, four hex digits, `~digit`
 * (`RE1A2B~1`). Git hard-codes the fallback's hash for its own names; ours are not in its table,
 * so any such name that starts like a protected one is refused.
 */
export function isShortNameOf(component: string, longName: string): boolean {
  const base = shortNameBase(longName);
  for (const alias of nameAliases(component)) {
    const m = /^([^~]+)~([0-9]+)(\.[^.]*)?$/.exec(alias);
    if (!m) continue;
    const prefix = m[1]!;
    if (prefix.length >= Math.min(2, base.length) && prefix.length <= 6 && base.startsWith(prefix)) return true;
    if (/^[a-z0-9]{2}[0-9a-f]{4}$/.test(prefix) && prefix.slice(0, 2) === base.slice(0, 2)) return true;
  }
  return false;
}

/**
 * The letters Windows builds a short name from: a dotfile loses its leading dot and keeps the
 * rest (`.gitmodules` → GITMOD~1), any other name its extension (`relay.config.json` →
 * RELAYC~1.JSO); the dots left are dropped.
 */
function shortNameBase(longName: string): string {
  const lower = longName.toLowerCase();
  const stem = lower.replace(/^\.+/, '');
  const withoutExtension = lower.startsWith('.') || !stem.includes('.') ? stem : stem.slice(0, stem.lastIndexOf('.'));
  return withoutExtension.replace(/\./g, '');
}

/** True when `component` names `name` on some file system, long or 8.3 short form. */
export function namesSameEntry(component: string, name: string): boolean {
  return isAliasOf(component, name) || isShortNameOf(component, name);
}

/** True for Windows device names (`CON`, `nul.txt`, `COM1`, `LPT\u00b9`…), with any extension. */
export function isDeviceName(component: string): boolean {
  const stem = component.normalize('NFKC').split('.')[0]!.replace(/[ ]+$/, '').toLowerCase();
  // NFKC turns superscript digits into plain ones; check the raw stem too so both spellings match.
  const raw = component.split('.')[0]!.replace(/[ ]+$/, '').toLowerCase();
  return DEVICE_NAMES.has(stem) || DEVICE_NAMES.has(raw);
}

/** Why a single component can never be written, or null when it is an ordinary name. */
export type ComponentProblem = 'dot-segment' | 'invalid-character' | 'device-name' | 'git';

/**
 * Checks one path component on its own: `.`/`..` in any disguise (`.. `, `...` are `..` to
 * Windows), characters no portable name may hold (NUL, control characters, `\`, and `:` which is
 * an NTFS stream separator), Windows device names, and `.git` in every alias.
 */
export function componentProblem(component: string): ComponentProblem | null {
  if (/[\u0000-\u001f\u007f\\:]/.test(component)) return 'invalid-character';
  const stripped = component.replace(HFS_IGNORABLE, '').replace(/[. ]+$/, '');
  if (stripped === '' || component === '.' || component === '..') return 'dot-segment';
  if (isDeviceName(component)) return 'device-name';
  if (isAliasOf(component, '.git') || isShortNameOf(component, '.git')) return 'git';
  return null;
}

/** Percent-encoded `.`, `/`, `\` or control characters: only meaningful once decoded, so refused. */
export function hasEncodedSeparator(raw: string): boolean {
  return /%(2e|2f|5c|[01][0-9a-f]|7f)/i.test(raw);
}
