import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

/** The window loads the built renderer from this scheme, so every response can carry our CSP header. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://relay-desk`;

const MIME: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * Maps an app:// URL to a file of the built renderer; null for anything outside it (other
 * hosts, `..`, missing files). The root and unknown routes serve index.html (hash routing).
 */
export function resolveRendererAsset(url: string, rendererDir: string): { file: string; mime: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (`${parsed.protocol}//${parsed.host}` !== APP_ORIGIN) return null;
  const relative = decodeURIComponent(parsed.pathname).replace(/^\/+/, '') || 'index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  if (!existsSync(file) || !statSync(file).isFile()) return null;
  return { file, mime: MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream' };
}

/**
 * The page at `base` on one run's detail (the renderer's hash route `#/runs/<id>`). Loading it
 * in a window already showing the app changes only the fragment: no reload.
 */
export function runPage(base: string, runId: string): string {
  return `${base.split('#')[0]}#/runs/${encodeURIComponent(runId)}`;
}
