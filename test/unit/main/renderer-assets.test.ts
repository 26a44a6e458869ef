import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRendererAsset } from '../../../src/main/renderer-assets.js';
import { agentEnvironment } from '../../../src/main/environment.js';
import { DEFAULT_APP_SETTINGS } from '../../../src/shared/schemas.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';
import { chmodSync } from 'node:fs';

describe('resolveRendererAsset', () => {
  const dir = tempDir();
  writeFiles(dir, { 'index.html': '<html>', 'assets/app.js': 'x', 'assets/app.css': 'y' });

  it('serves the built renderer with the right types, index.html at the root', () => {
    expect(resolveRendererAsset('app://relay-desk/', dir)).toEqual({ file: path.join(dir, 'index.html'), mime: 'text/html; charset=utf-8' });
    expect(resolveRendererAsset('app://relay-desk/assets/app.js', dir)).toMatchObject({ mime: 'text/javascript; charset=utf-8' });
    expect(resolveRendererAsset('app://relay-desk/assets/app.css?v=1', dir)).toMatchObject({ mime: 'text/css; charset=utf-8' });
  });

  it('serves nothing outside the renderer folder, from other hosts, or that does not exist', () => {
    expect(resolveRendererAsset('app://relay-desk/../../etc/passwd', dir)).toBeNull();
    expect(resolveRendererAsset('app://relay-desk/%2e%2e/%2e%2e/etc/passwd', dir)).toBeNull();
    expect(resolveRendererAsset('app://evil/index.html', dir)).toBeNull();
    expect(resolveRendererAsset('app://relay-desk/missing.js', dir)).toBeNull();
    expect(resolveRendererAsset('not a url', dir)).toBeNull();
  });
});

describe('agentEnvironment', () => {
  it('widens PATH with the login shell’s and pins each found agent to an absolute path', () => {
    const bin = tempDir();
    writeFiles(bin, { claude: '#!/bin/sh\n', codex: '#!/bin/sh\n' });
    chmodSync(path.join(bin, 'claude'), 0o755);
    chmodSync(path.join(bin, 'codex'), 0o755);
    const result = agentEnvironment({ baseEnv: { PATH: '/usr/bin:/bin', HOME: '/home/me' }, loginPath: `${bin}:/usr/bin`, settings: DEFAULT_APP_SETTINGS, platform: 'linux' });
    expect(result.env.PATH).toBe(`${bin}:/usr/bin:/bin`);
    expect(result.env.RELAY_CLAUDE_BIN).toBe(path.join(bin, 'claude'));
    expect(result.env.RELAY_CODEX_BIN).toBe(path.join(bin, 'codex'));
    expect(result.env.RELAY_GEMINI_BIN).toBeUndefined();
    expect(result.claudeCommand).toBe(path.join(bin, 'claude'));
    expect(result.agents.gemini).toMatchObject({ path: null });
  });
});

describe('static checks of the desktop shell', () => {
  const mainDir = path.join(REPO_ROOT, 'src/main');
  const sources = readdirSync(mainDir).filter((f) => f.endsWith('.ts')).map((f) => [f, readFileSync(path.join(mainDir, f), 'utf8')] as const);

  it('creates every window with the secure webPreferences', () => {
    const creating = sources.filter(([, text]) => text.includes('new BrowserWindow('));
    expect(creating.map(([f]) => f)).toEqual(['window.ts']);
    for (const [, text] of creating) expect(text).toMatch(/webPreferences: secureWebPreferences\(/);
  });

  it('serves the renderer with the Content-Security-Policy header', () => {
    const shell = sources.find(([f]) => f === 'app-shell.ts')![1];
    expect(shell).toMatch(/'content-security-policy': CONTENT_SECURITY_POLICY/);
  });

  it('bundles a preload that requires nothing but electron', () => {
    const bundle = readFileSync(path.join(REPO_ROOT, 'out/preload/index.cjs'), 'utf8');
    const required = [...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect([...new Set(required)]).toEqual(['electron']);
    expect(bundle).toContain('exposeInMainWorld("relay"');
  });
});
