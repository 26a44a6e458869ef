import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseRendererUrl, resolveRendererAsset, serveRendererAsset } from '../../../src/main/renderer-assets.js';
import { ALLOWED_PERMISSIONS, denyPermissionsByDefault, permissionGranted, type PermissionSession } from '../../../src/main/permissions.js';
import { readFile } from 'node:fs/promises';
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

describe('serveRendererAsset', () => {
  const dir = tempDir();
  writeFiles(dir, { 'index.html': '<html>', 'assets/app.js': 'x' });

  it('answers a file with the CSP, a missing one with 404, and a malformed escape with 400 instead of throwing', async () => {
    const page = await serveRendererAsset('app://relay-desk/index.html', dir, readFile);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(await page.text()).toBe('<html>');
    expect((await serveRendererAsset('app://relay-desk/nope.js', dir, readFile)).status).toBe(404);
    for (const url of ['app://relay-desk/%', 'app://relay-desk/%E0%A4%A', 'app://relay-desk/assets/%zz.js', 'app://relay-desk/a%00b.js']) {
      const response = await serveRendererAsset(url, dir, readFile);
      expect(response.status, url).toBe(400);
      expect(await response.text()).toMatch(/^Bad request: /);
    }
    expect(() => resolveRendererAsset('app://relay-desk/%', dir)).not.toThrow();
  });
});

describe('chooseRendererUrl', () => {
  it('honours ELECTRON_RENDERER_URL in a development build only, and only for http on a loopback name', () => {
    expect(chooseRendererUrl({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, false)).toBe('http://localhost:5173');
    expect(chooseRendererUrl({ ELECTRON_RENDERER_URL: 'http://127.0.0.1:5173/' }, false)).toBe('http://127.0.0.1:5173/');
    expect(chooseRendererUrl({ ELECTRON_RENDERER_URL: 'http://localhost:5173' }, true)).toBe('app://relay-desk/index.html');
    for (const url of ['https://evil.example/', 'http://evil.example:5173', 'file:///tmp/x.html', 'javascript:alert(1)', 'not a url']) {
      expect(chooseRendererUrl({ ELECTRON_RENDERER_URL: url }, false), url).toBe('app://relay-desk/index.html');
    }
    expect(chooseRendererUrl({}, false)).toBe('app://relay-desk/index.html');
  });
});

describe('permissions', () => {
  it('denies every request and check by default; grants only clipboard writes, only to the app itself', async () => {
    let request: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | null = null;
    let check: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | null = null;
    denyPermissionsByDefault({ setPermissionRequestHandler: (h) => void (request = h), setPermissionCheckHandler: (h) => void (check = h) }, 'app://relay-desk');
    const ask = (permission: string, url?: string) => new Promise<boolean>((resolve) => request!(null, permission, resolve, url === undefined ? {} : { requestingUrl: url }));
    for (const permission of ['media', 'geolocation', 'notifications', 'midi', 'pointerLock', 'fullscreen', 'openExternal', 'clipboard-read', 'display-capture', 'unknown']) {
      expect(await ask(permission, 'app://relay-desk/index.html'), permission).toBe(false);
      expect(check!(null, permission, 'app://relay-desk', {}), permission).toBe(false);
    }
    expect([...ALLOWED_PERMISSIONS]).toEqual(['clipboard-sanitized-write']);
    expect(await ask('clipboard-sanitized-write', 'app://relay-desk/index.html#/runs/x')).toBe(true);
    expect(check!(null, 'clipboard-sanitized-write', 'app://relay-desk', {})).toBe(true);
    for (const url of ['https://evil.example/', 'app://other/', 'data:text/html,x', 'null', undefined]) {
      expect(await ask('clipboard-sanitized-write', url), String(url)).toBe(false);
      expect(permissionGranted('clipboard-sanitized-write', url, 'app://relay-desk'), String(url)).toBe(false);
    }
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
    // The shell is given BrowserWindow (src/main/ports.ts); app-shell.test.ts checks the settings on the window it creates.
    const creating = sources.filter(([, text]) => /new (electron\.)?BrowserWindow\(/.test(text));
    expect(creating.map(([f]) => f)).toEqual(['window.ts']);
    for (const [, text] of creating) expect(text).toMatch(/webPreferences: secureWebPreferences\(/);
  });

  it('serves the renderer with the Content-Security-Policy header', () => {
    const shell = sources.find(([f]) => f === 'app-shell.ts')![1];
    expect(shell).toMatch(/protocol\.handle\(APP_SCHEME, \(request\) => serveRendererAsset\(/);
    const assets = sources.find(([f]) => f === 'renderer-assets.ts')![1];
    expect(assets).toMatch(/'content-security-policy': CONTENT_SECURITY_POLICY/);
  });

  it('reads ELECTRON_RENDERER_URL through chooseRendererUrl only, which knows whether the app is packaged', () => {
    const readers = sources.filter(([, text]) => text.includes('ELECTRON_RENDERER_URL')).map(([f]) => f);
    expect(readers).toEqual(['renderer-assets.ts']);
    expect(sources.find(([f]) => f === 'window.ts')![1]).toContain('chooseRendererUrl(env, isPackaged)');
  });

  it('bundles a preload that requires nothing but electron', () => {
    const bundle = readFileSync(path.join(REPO_ROOT, 'out/preload/index.cjs'), 'utf8');
    const required = [...bundle.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect([...new Set(required)]).toEqual(['electron']);
    expect(bundle).toContain('exposeInMainWorld("relay"');
  });
});
