import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { binEnvName, locateProgram } from '../../../src/engine/relay/backends/locate.js';
import { tempDir } from '../../helpers/temp.js';

function executable(dir: string, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\n');
  chmodSync(file, 0o755);
  return file;
}

describe('locateProgram()', () => {
  it('finds the first executable of that name on PATH', () => {
    const a = tempDir();
    const b = tempDir();
    writeFileSync(path.join(a, 'codex'), 'not executable');
    const found = executable(b, 'codex');
    expect(locateProgram('codex', { PATH: [a, b].join(path.delimiter) }, 'hint')).toEqual({ ok: true, path: found });
  });

  it('prefers the absolute path named by RELAY_<NAME>_BIN, even off PATH', () => {
    const dir = tempDir();
    const file = executable(dir, 'my-gemini');
    expect(binEnvName('gemini')).toBe('RELAY_GEMINI_BIN');
    expect(locateProgram('gemini', { PATH: '', RELAY_GEMINI_BIN: file }, 'hint')).toEqual({ ok: true, path: file });
  });

  it('refuses a relative configured path and a missing program, saying how to fix it', () => {
    const relative = locateProgram('claude', { RELAY_CLAUDE_BIN: 'bin/claude' }, 'hint');
    expect(relative).toEqual({ ok: false, message: 'RELAY_CLAUDE_BIN must be an absolute path, got: bin/claude' });
    const missing = locateProgram('claude', { PATH: tempDir() }, 'npm install -g x');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.message).toContain('claude CLI not found on PATH');
    expect(!missing.ok && missing.message).toContain('RELAY_CLAUDE_BIN');
  });

  it('ignores relative PATH entries (they would depend on the repository being asked about)', () => {
    const dir = tempDir();
    executable(dir, 'codex');
    expect(locateProgram('codex', { PATH: path.relative(process.cwd(), dir) }, 'hint').ok).toBe(false);
  });
});
