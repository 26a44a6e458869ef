import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll } from 'vitest';

const created: string[] = [];
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh folder under the OS temp dir, removed after the test file. */
export function tempDir(prefix = 'relay-test-'): string {
  const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  created.push(dir);
  return dir;
}

/** Writes files (path → content) under root, creating folders. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [file, content] of Object.entries(files)) {
    const absolute = path.join(root, file);
    mkdirSync(path.dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
  }
}

/** Runs git synchronously in a test repo and returns stdout. */
export function gitIn(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' });
}

/** A temp git repo holding `files` (or a copy of `fromDir`) in one initial commit. */
export function gitRepo(files: Readonly<Record<string, string>> | { fromDir: string } = {}): string {
  const root = tempDir('relay-repo-');
  gitIn(root, 'init', '-q', '-b', 'main');
  gitIn(root, 'config', 'core.autocrlf', 'false');
  if ('fromDir' in files) cpSync(files.fromDir as string, root, { recursive: true });
  else writeFiles(root, files as Record<string, string>);
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '--allow-empty', '-m', 'initial');
  return root;
}

/** Every file under root as path → bytes (latin1 string), skipping the named top-level entries. */
export function readTree(root: string, skip: readonly string[] = ['.git', '.relaycode', 'relay.config.json', '.gitignore']): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const absolute = path.join(dir, name);
      const relative = path.relative(root, absolute).split(path.sep).join('/');
      if (skip.includes(relative)) continue;
      if (statSync(absolute).isDirectory()) walk(absolute);
      else out.set(relative, readFileSync(absolute, 'latin1'));
    }
  };
  walk(root);
  return out;
}

/** Empty folders under root (git cannot represent them, so a rollback must not leave any). */
export function emptyFolders(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    const names = readdirSync(dir);
    if (names.length === 0 && dir !== root) out.push(path.relative(root, dir));
    for (const name of names) {
      const absolute = path.join(dir, name);
      if (name !== '.git' && name !== '.relaycode' && statSync(absolute).isDirectory()) walk(absolute);
    }
  };
  walk(root);
  return out;
}
