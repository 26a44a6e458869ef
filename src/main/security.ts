/**
 * Window hardening, written as data and small functions over structural types so that a plain
 * Node test can check every setting without Electron.
 */

/** The renderer's Content-Security-Policy: only our own files, no remote content, no eval. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** webPreferences for every window: isolated, sandboxed, no Node in the page. */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    spellcheck: false,
  } as const;
}

/** The parts of Electron's WebContents the guards need. */
export interface GuardableContents {
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  on(event: 'will-navigate' | 'will-redirect', listener: (event: { preventDefault(): void }, url: string) => void): void;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): void;
}

/**
 * Denies window.open, webviews and any navigation away from the app's own page. Links meant for
 * the browser are handed to `openExternal` only when they are http(s).
 */
export function guardContents(contents: GuardableContents, appOrigin: string, openExternal: (url: string) => void): void {
  contents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//i.test(url)) openExternal(url);
    return { action: 'deny' };
  });
  const stayHome = (event: { preventDefault(): void }, url: string): void => {
    if (!isSameOrigin(url, appOrigin)) event.preventDefault();
  };
  contents.on('will-navigate', stayHome);
  contents.on('will-redirect', stayHome);
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

// Compared by scheme and host, not URL.origin: a custom scheme such as app:// has the opaque
// origin "null" in Node, and so do data:, javascript: and every unknown scheme, which would all
// look "same origin" as the app.
function isSameOrigin(url: string, origin: string): boolean {
  try {
    const target = new URL(url);
    const home = new URL(origin);
    if (target.protocol === 'file:') return home.protocol === 'file:' && url.startsWith(origin);
    return target.protocol === home.protocol && target.host !== '' && target.host === home.host;
  } catch {
    return false;
  }
}
