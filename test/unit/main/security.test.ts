import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, guardContents, secureWebPreferences, type GuardableContents } from '../../../src/main/security.js';

describe('window security', () => {
  it('isolates and sandboxes every window, with no Node in the page', () => {
    expect(secureWebPreferences('/app/preload.cjs')).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('has a strict Content-Security-Policy: own files only, no eval, no remote content', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]));
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|https?:|\*/);
  });

  it('denies window.open and navigation away from the app, and opens http links outside', () => {
    const handlers = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
    let openHandler: ((d: { url: string }) => { action: 'deny' }) | undefined;
    const contents: GuardableContents = {
      setWindowOpenHandler: (h) => void (openHandler = h),
      on: (event: string, listener: (e: { preventDefault(): void }, url: string) => void) => void handlers.set(event, listener),
    } as GuardableContents;
    const opened: string[] = [];
    guardContents(contents, 'file:///app/out/renderer/index.html', (url) => void opened.push(url));

    expect(openHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    expect(openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' });
    expect(opened).toEqual(['https://example.com']);

    const navigate = (url: string): boolean => {
      let prevented = false;
      handlers.get('will-navigate')!({ preventDefault: () => void (prevented = true) }, url);
      return prevented;
    };
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate('file:///app/out/renderer/index.html#/history')).toBe(false);
    let webview = false;
    handlers.get('will-attach-webview')!({ preventDefault: () => void (webview = true) }, '');
    expect(webview).toBe(true);
  });

  it('keeps the app:// window on its own host: opaque-origin URLs are not "same origin"', () => {
    const blocked = guarded('app://relay-desk');
    expect(blocked('will-navigate', 'app://relay-desk/index.html#/runs/r1')).toBe(false);
    for (const url of ['data:text/html,<script>alert(1)</script>', 'javascript:alert(1)', 'evil://relay-desk/', 'app://other/index.html', 'app:///index.html', 'http://127.0.0.1:5173/']) {
      expect(blocked('will-navigate', url), url).toBe(true);
      expect(blocked('will-redirect', url), url).toBe(true);
    }
  });

  it('trusts the dev server only on its own scheme, host and port', () => {
    const blocked = guarded('http://localhost:5173');
    expect(blocked('will-navigate', 'http://localhost:5173/#/settings')).toBe(false);
    expect(blocked('will-navigate', 'http://localhost:5174/')).toBe(true);
    expect(blocked('will-navigate', 'https://localhost:5173/')).toBe(true);
  });
});

/** Guards a stand-in webContents for `origin`; returns "would this navigation be prevented?". */
function guarded(origin: string): (event: 'will-navigate' | 'will-redirect', url: string) => boolean {
  const handlers = new Map<string, (event: { preventDefault(): void }, url: string) => void>();
  const contents = { setWindowOpenHandler: () => undefined, on: (event: string, listener: (e: { preventDefault(): void }, url: string) => void) => void handlers.set(event, listener) } as unknown as GuardableContents;
  guardContents(contents, origin, () => undefined);
  return (event, url) => {
    let prevented = false;
    handlers.get(event)!({ preventDefault: () => void (prevented = true) }, url);
    return prevented;
  };
}
