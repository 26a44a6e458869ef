// Opening the browser without putting the launch token in any process's argv (which other
// users can read with `ps`): the link goes into an HTML file that only we can read (0600, in a
// fresh 0700 folder), and the browser is given that file's path. The file redirects to the link;
// it is removed once the link is traded, or when it expires.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface LaunchFile {
  /** The file to open in the browser. */
  readonly file: string;
  /** Removes the file and its folder (idempotent). */
  remove(): void;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The page that sends the browser on to `url` (the referrer is withheld: the fragment never leaves anyway). */
export function launchPage(url: string): string {
  const href = escapeHtml(url);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>Opening Relay Desk…</title></head>
<body><p>Opening <a href="${href}">Relay Desk</a>…</p></body></html>
`;
}

/** Writes the redirecting page for `url` into a private temp folder. */
export function writeLaunchFile(url: string, tempRoot: string = os.tmpdir()): LaunchFile {
  // mkdtemp creates the folder 0700; the file is created 0600 and must not exist yet.
  const dir = mkdtempSync(path.join(tempRoot, 'relay-desk-open-'));
  const file = path.join(dir, 'open-relay-desk.html');
  writeFileSync(file, launchPage(url), { mode: 0o600, flag: 'wx' });
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
