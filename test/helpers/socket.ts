import { WebSocket } from 'ws';
import type { ServerFrame } from '../../src/shared/wire.js';

/** A WebSocket client for tests: collects frames and says how the connection ended. */
export interface TestSocket {
  readonly ws: WebSocket;
  readonly frames: ServerFrame[];
  /** Resolves when the connection opens, rejects with the HTTP status when the upgrade is refused. */
  readonly opened: Promise<void>;
  readonly closed: Promise<{ code: number }>;
  send(value: unknown): void;
  /** Resolves with the first frame (seen or future) that matches. */
  next(match: (frame: ServerFrame) => boolean, timeoutMs?: number): Promise<ServerFrame>;
}

/** Connects to `url` sending `origin`, `headers` and subprotocols (which carry the session) as a browser page would. */
export function openSocket(url: string, options: { origin?: string; headers?: Record<string, string>; protocols?: string[] } = {}): TestSocket {
  const ws = new WebSocket(url, options.protocols ?? [], { ...(options.origin ? { origin: options.origin } : {}), headers: options.headers ?? {} });
  const frames: ServerFrame[] = [];
  const waiters: Array<{ match: (frame: ServerFrame) => boolean; resolve: (frame: ServerFrame) => void }> = [];
  ws.on('message', (data) => {
    const frame = JSON.parse(String(data)) as ServerFrame;
    frames.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.match(frame)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(frame);
      }
    }
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    // A refused upgrade: reject with its status and the code of its JSON body.
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        let code: string | null = null;
        try {
          code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? null;
        } catch {
          code = null;
        }
        reject(Object.assign(new Error(`upgrade refused: ${response.statusCode} ${body}`), { status: response.statusCode, code }));
      });
    });
    ws.once('error', (error) => reject(error));
  });
  opened.catch(() => undefined);
  const closed = new Promise<{ code: number }>((resolve) => ws.once('close', (code) => resolve({ code })));
  return {
    ws,
    frames,
    opened,
    closed,
    send: (value) => ws.send(typeof value === 'string' ? value : JSON.stringify(value)),
    next: (match, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const seen = frames.find(match);
        if (seen) return resolve(seen);
        const timer = setTimeout(() => reject(new Error('no matching frame')), timeoutMs);
        waiters.push({ match, resolve: (frame) => { clearTimeout(timer); resolve(frame); } });
      }),
  };
}
