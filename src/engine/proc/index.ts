// engine/proc: the one place any process other than git is started (git runs in engine/git).
// run.ts runs a child to its end and reads its output; interactive.ts gives a child the user's
// terminal; launch.ts starts and lets go (a terminal emulator, a browser, see browser.ts).
// Every child gets argv only (never a shell) and an allow-list environment from engine/secrets.
//
// Outside this module on purpose: git (engine/git, simple-git), clipboardy's own helper programs
// (xsel, wl-copy, pbcopy: a library's internals), Electron's shell.openExternal (an OS API, not a
// process we start), and scripts/, bench/ and test/ (developer tooling, not the product).
export { DEFAULT_MAX_OUTPUT_BYTES, runProcess, type ProcOutcome, type ProcOutput, type ProcRequest, type ProcRunner } from './run.js';
export { runInteractive, type InteractiveOutcome, type InteractiveRequest } from './interactive.js';
export { launchDetached, type LaunchOutcome, type LaunchRequest } from './launch.js';
export { browserCommand, openInBrowser } from './browser.js';
export { DEFAULT_GRACE_MS } from './group.js';
