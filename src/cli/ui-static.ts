// Serves the built renderer (out/renderer, made by `electron-vite build`). Paths are resolved
// inside that folder only; anything without a file extension gets index.html (client routing).
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { isInside } from '../engine/fs/safe-path.js';

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** The page shown when the renderer has not been built. */
export const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Relay Desk</title></head>
<body><h1>Relay Desk</h1><p>The window has not been built yet. Run <code>npm run build</code> in the Relay Desk folder, then reload this page.</p></body></html>
`;

/** Headers every response from the UI server carries. */
export function securityHeaders(authority: string): Record<string, string> {
  return {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy': `default-src 'self'; connect-src 'self' ws://${authority}; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'`,
  };
}

/** Answers a GET/HEAD for `pathname` from `rendererDir`. */
export function serveStatic(response: ServerResponse, options: { readonly rendererDir: string; readonly pathname: string; readonly head: boolean; readonly authority: string }): void {
  const headers = securityHeaders(options.authority);
  const index = path.join(options.rendererDir, 'index.html');
  const send = (status: number, type: string, body: string | Buffer, cache: string): void => {
    // The page clears the cookies of its host: Relay Desk sets none, and a page of another port
    // of this address could have set enough to push every later request over a header limit.
    const clear = type === TYPES['.html'] ? { 'Clear-Site-Data': '"cookies"' } : {};
    response.writeHead(status, { ...headers, ...clear, 'Content-Type': type, 'Cache-Control': cache, 'Content-Length': Buffer.byteLength(body) });
    response.end(options.head ? undefined : body);
  };
  if (!existsSync(index)) {
    send(200, TYPES['.html']!, NOT_BUILT_PAGE, 'no-store');
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(options.pathname);
  } catch {
    send(400, TYPES['.txt']!, 'Bad path.\n', 'no-store');
    return;
  }
  const extension = path.extname(decoded);
  const target = extension === '' ? index : path.resolve(options.rendererDir, `.${path.posix.normalize(`/${decoded}`)}`);
  if (decoded.includes('\0') || !isInside(options.rendererDir, target) || !existsSync(target) || !statSync(target).isFile()) {
    send(404, TYPES['.txt']!, 'Not found.\n', 'no-store');
    return;
  }
  // Hashed assets never change; the page itself must always be fresh.
  const cache = target === index ? 'no-store' : 'public, max-age=31536000, immutable';
  send(200, TYPES[path.extname(target)] ?? 'application/octet-stream', readFileSync(target), cache);
}
