// A project inside a parent folder full of sentinel files. Attacks aim at the parent (`../x`,
// absolute paths, symlinks that lead out); `expectOutsideUntouched` shows that every sentinel is
// byte-identical and that no new file, folder or link appeared outside the project.
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify as stringifyYaml } from 'yaml';
import { expect } from 'vitest';
import { defaultRelayConfig, writeRelayConfig, type RelayConfig } from '../../src/engine/patch/config.js';
import { gitIn, tempDir, writeFiles } from './temp.js';

/** What an attack could overwrite or delete outside the project. */
export const SENTINELS: Readonly<Record<string, string>> = {
  'victim.txt': 'the user’s file next to the project\n',
  'relay.config.json': '{"projectId": "parent"}\n',
  '.bashrc': 'export PATH=/usr/bin\n',
  'other-project/src/index.ts': 'export const other = 1;\n',
  'other-project/.git/config': '[core]\n',
};

export interface Jail {
  /** The folder around the project, holding the sentinels. */
  readonly parent: string;
  /** The project: a git repository with relay.config.json, at `<parent>/project`. */
  readonly root: string;
  /** Fails unless everything outside the project is exactly as it was when the jail was made. */
  expectOutsideUntouched(): void;
}

/** Every entry under `dir` except `skip` (relative, forward slashes): files by content, links by target, folders by name. */
export function treeState(dir: string, skip: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (current: string): void => {
    for (const name of readdirSync(current)) {
      const absolute = path.join(current, name);
      const rel = path.relative(dir, absolute).split(path.sep).join('/');
      if (rel === skip) continue;
      const stat = lstatSync(absolute);
      if (stat.isSymbolicLink()) out.set(rel, `link:${readlinkSync(absolute)}`);
      else if (stat.isDirectory()) {
        out.set(`${rel}/`, 'dir');
        walk(absolute);
      } else out.set(rel, `file:${stat.mode & 0o777}:${readFileSync(absolute, 'latin1')}`);
    }
  };
  walk(dir);
  return out;
}

/** A git project with relay.config.json (patch settings merged in) inside a folder of sentinels. */
export function jailedProject(options: { projectId?: string; files?: Readonly<Record<string, string>>; patch?: Partial<RelayConfig['patch']> } = {}): Jail {
  const parent = tempDir('relay-jail-');
  writeFiles(parent, SENTINELS);
  const root = path.join(parent, 'project');
  mkdirSync(root);
  gitIn(root, 'init', '-q', '-b', 'main');
  gitIn(root, 'config', 'core.autocrlf', 'false');
  writeFiles(root, options.files ?? { 'README.md': '# demo\n', 'src/a.ts': 'export const a = 1;\n' });
  const config = defaultRelayConfig(options.projectId ?? 'demo');
  writeRelayConfig(root, { ...config, patch: { ...config.patch, ...options.patch } });
  writeFileSync(path.join(root, '.gitignore'), '.relaycode/\n');
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'initial');
  const before = treeState(parent, 'project');
  return {
    parent,
    root,
    expectOutsideUntouched() {
      expect(treeState(parent, 'project')).toEqual(before);
    },
  };
}

/** A transaction record as a cloned repository could ship it (every field an attacker chooses). */
export function plantedRecord(uuid: string, fields: { snapshot: Record<string, string | null>; result?: Record<string, string | null>; createdDirs?: string[]; files?: Array<{ path: string; change: 'create' | 'modify' | 'delete'; added: number; removed: number }> }): string {
  return stringifyYaml({
    schemaVersion: 1,
    uuid,
    projectId: 'demo',
    createdAt: '2030-01-01T00:00:00.000Z',
    source: 'paste',
    contentHash: 'planted',
    reasoning: [],
    operations: [],
    snapshot: fields.snapshot,
    result: fields.result ?? {},
    createdDirs: fields.createdDirs ?? [],
    files: fields.files ?? [],
    approved: fields.result !== undefined,
    warnings: [],
  });
}

/** Writes a record file into `<root>/.relaycode/`. */
export function plantRecord(root: string, fileName: string, text: string): string {
  const dir = path.join(root, '.relaycode');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, fileName);
  writeFileSync(file, text);
  return file;
}
