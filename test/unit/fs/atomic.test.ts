import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileWriteError, sweepTempFiles, writeFileAtomic } from '../../../src/engine/fs/atomic.js';
import { failingIo } from '../../../src/engine/fs/write-io.js';
import { tempDir } from '../../helpers/temp.js';

describe('writeFileAtomic()', () => {
  // Steps of one write: mkdir, open, write, fsync, rename.
  it.each([
    [1, 'mkdir'],
    [2, 'open'],
    [3, 'write'],
    [4, 'fsync'],
    [5, 'rename'],
  ])('a failure at step %i (%s) leaves the old content and no temp file, and names the file and the cause', (step, call) => {
    const dir = tempDir();
    const file = path.join(dir, 'a.txt');
    writeFileSync(file, 'old');
    const faults: string[] = [];
    let thrown: unknown;
    try {
      writeFileAtomic(file, 'x'.repeat(60_000), { io: failingIo({ failAt: step, code: 'ENOSPC', onFault: (f) => faults.push(f.call) }) });
    } catch (error) {
      thrown = error;
    }
    expect(faults).toEqual([call]);
    expect(thrown).toBeInstanceOf(FileWriteError);
    expect(thrown).toMatchObject({ file, code: 'ENOSPC', message: `${file}: no space left on device (ENOSPC)` });
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['a.txt']);
  });

  it('on a disk that refuses even the clean-up, the temp file is left for the sweep (its pid dies with the process)', () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.txt');
    expect(() => writeFileAtomic(file, 'new', { io: failingIo({ failAt: 4, code: 'EIO', sticky: true }) })).toThrow(FileWriteError);
    expect(readdirSync(dir)).toEqual([expect.stringMatching(new RegExp(`^\\.a\\.txt\\.${process.pid}\\.[0-9a-f]{8}\\.tmp$`))]);
  });
});

describe('sweepTempFiles()', () => {
  it('removes temp files of writers that are not running, and keeps live ones, our own and other files', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const names = [`.a.ts.${dead}.0123abcd.tmp`, `.a.ts.${process.pid}.0123abcd.tmp`, `.b.ts.${process.ppid}.89abcdef.tmp`, `.index.${dead}.0123abcd.tmp.lock`, 'a.tmp', 'notes.txt'];
    for (const name of names) writeFileSync(path.join(dir, name), '');
    expect(sweepTempFiles(dir).sort()).toEqual([`.a.ts.${dead}.0123abcd.tmp`, `.index.${dead}.0123abcd.tmp.lock`]);
    expect(readdirSync(dir).sort()).toEqual([`.a.ts.${process.pid}.0123abcd.tmp`, `.b.ts.${process.ppid}.89abcdef.tmp`, 'a.tmp', 'notes.txt'].sort());
  });
});
