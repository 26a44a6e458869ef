// Runner-owned fingerprints on a real folder: files by content, and folders too (git cannot
// see an empty folder, but one made where a runner file goes breaks the runner's writes).
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyRestoreEntries, changedPaths, restoreEntries, takeSnapshot } from '../../../src/engine/tick/owned.js';
import { tempDir } from '../../helpers/temp.js';

function workspace(): { root: string; spec: { dirs: string[]; files: string[]; statOnly: string[] } } {
  const root = tempDir('relais-owned-');
  mkdirSync(path.join(root, 'relais/history'), { recursive: true });
  writeFileSync(path.join(root, 'relais/STATE.json'), '{}\n');
  return { root, spec: { dirs: [path.join(root, 'relais')], files: [], statOnly: [path.join(root, 'relais/history')] } };
}

describe('runner-owned snapshots', () => {
  it('an empty folder the builder made is a change, and restoring removes it', () => {
    const { root, spec } = workspace();
    const before = takeSnapshot(root, spec);
    mkdirSync(path.join(root, 'relais/REPORT.json'));
    const changed = changedPaths(before, takeSnapshot(root, spec));
    expect(changed).toEqual(['relais/REPORT.json']);
    expect(applyRestoreEntries(root, restoreEntries(before, changed))).toEqual([]);
    expect(existsSync(path.join(root, 'relais/REPORT.json'))).toBe(false);
  });

  it('a folder replaced by a file comes back as a folder', () => {
    const { root, spec } = workspace();
    const before = takeSnapshot(root, spec);
    rmSync(path.join(root, 'relais/history'), { recursive: true });
    writeFileSync(path.join(root, 'relais/history'), 'not a folder\n');
    const changed = changedPaths(before, takeSnapshot(root, spec));
    expect(changed).toEqual(['relais/history']);
    expect(applyRestoreEntries(root, restoreEntries(before, changed))).toEqual([]);
    expect(statSync(path.join(root, 'relais/history')).isDirectory()).toBe(true);
  });

  it('an unchanged tree has no changes', () => {
    const { root, spec } = workspace();
    expect(changedPaths(takeSnapshot(root, spec), takeSnapshot(root, spec))).toEqual([]);
  });
});
