import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loginShellPath, resolveAgentPath } from '../../../src/main/agent-paths.js';
import { tempDir } from '../../helpers/temp.js';

function fakeBinary(dir: string, name: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\necho hi\n');
  chmodSync(file, 0o755);
  return file;
}

describe('resolveAgentPath', () => {
  it('prefers a configured absolute path, then the login shell PATH, then the app PATH', () => {
    const a = tempDir();
    const b = tempDir();
    const configured = fakeBinary(a, 'codex');
    const onLogin = fakeBinary(b, 'codex');
    expect(resolveAgentPath('codex', { configured: { codex: configured }, loginPath: b, processPath: '' })).toEqual({ path: configured, source: 'configured' });
    expect(resolveAgentPath('codex', { loginPath: `/nope:${b}`, processPath: a })).toEqual({ path: onLogin, source: 'login-shell' });
    expect(resolveAgentPath('codex', { loginPath: '/nope', processPath: a })).toEqual({ path: configured, source: 'process' });
  });

  it('says what it tried when the CLI is nowhere', () => {
    expect(resolveAgentPath('gemini', { loginPath: '/nope', processPath: '/also-nope' })).toEqual({ path: null, tried: ['login shell PATH', 'app PATH'] });
    expect(resolveAgentPath('claude', { configured: { claude: 'relative/claude' } })).toMatchObject({ path: null });
  });

  it('ignores files that are not executable', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'claude'), 'not executable');
    expect(resolveAgentPath('claude', { processPath: dir })).toMatchObject({ path: null });
  });
});

describe('loginShellPath', () => {
  it('reads PATH from a real login shell', async () => {
    const found = await loginShellPath('/bin/bash', 'linux');
    expect(found).toContain('/usr/bin');
  });

  it('is null on Windows or without a shell', async () => {
    expect(await loginShellPath('/bin/bash', 'win32')).toBeNull();
    expect(await loginShellPath('', 'linux')).toBeNull();
  });
});
