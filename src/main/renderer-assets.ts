import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { assertNever } from '../engine/result.js';
import { CONTENT_SECURITY_POLICY } from './security.js';

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

/** Where an app:// URL leads: one of our files, nothing (404), or a URL that cannot be read (400). */
export type AssetLookup = { readonly kind: 'file'; readonly file: string; readonly mime: string } | { readonly kind: 'not-found' } | { readonly kind: 'bad-request'; readonly reason: string };

/**
 * Maps an app:// URL to a file of the built renderer. Anything outside it (other hosts, `..`,
 * missing files) is not found; a URL whose path cannot be decoded (a malformed `%` escape, a
 * NUL) is a bad request. The root and unknown routes serve index.html (hash routing).
 */
export function lookupRendererAsset(url: string, rendererDir: string): AssetLookup {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { kind: 'bad-request', reason: 'not a URL' };
  }
  if (`${parsed.protocol}//${parsed.host}` !== APP_ORIGIN) return { kind: 'not-found' };
  let decoded: string;
  try {
    decoded = decodeURIComponent(parsed.pathname);
  } catch {
    return { kind: 'bad-request', reason: 'a malformed % escape in the path' };
  }
  if (decoded.includes('\0')) return { kind: 'bad-request', reason: 'a NUL in the path' };
  const relative = decoded.replace(/^\/+/, '') || 'index.html';
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep)) return { kind: 'not-found' };
  if (!existsSync(file) || !statSync(file).isFile()) return { kind: 'not-found' };
  return { kind: 'file', file, mime: MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream' };
}

/** The file an app:// URL names, or null when there is none (see lookupRendererAsset). */
export function resolveRendererAsset(url: string, rendererDir: string): { file: string; mime: string } | null {
  const found = lookupRendererAsset(url, rendererDir);
  return found.kind === 'file' ? { file: found.file, mime: found.mime } : null;
}

/** Answers one app:// request: the file with our CSP, 404, or 400 — never an exception. */
export async function serveRendererAsset(url: string, rendererDir: string, readFile: (file: string) => Promise<Uint8Array>): Promise<Response> {
  const found = lookupRendererAsset(url, rendererDir);
  switch (found.kind) {
    case 'file':
      return new Response(new Uint8Array(await readFile(found.file)), { headers: { 'content-type': found.mime, 'content-security-policy': CONTENT_SECURITY_POLICY } });
    case 'not-found':
      return new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    case 'bad-request':
      return new Response(`Bad request: ${found.reason}`, { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' } });
    default:
      return assertNever(found);
  }
}

/**
 * Where the window's page comes from: the built renderer over app://, or — in a development
 * build only — Vite's dev server named by ELECTRON_RENDERER_URL. A packaged app ignores the
 * variable (anyone who can set the environment must not be able to point the trusted window,
 * with its preload, at a page of their choosing), and so does a development build for anything
 * but http on a loopback name.
 */
export function chooseRendererUrl(env: Readonly<Record<string, string | undefined>>, isPackaged: boolean): string {
  const devServer = env.ELECTRON_RENDERER_URL;
  if (!isPackaged && devServer && isLoopbackHttp(devServer)) return devServer;
  return `${APP_ORIGIN}/index.html`;
}

function isLoopbackHttp(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}

/**
 * The page at `base` on one run's detail (the renderer's hash route `#/runs/<id>`). Loading it
 * in a window already showing the app changes only the fragment: no reload.
 */
export function runPage(base: string, runId: string): string {
  return `${base.split('#')[0]}#/runs/${encodeURIComponent(runId)}`;
}
