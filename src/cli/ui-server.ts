// The browser transport of the host: HTTP for the built renderer and a WebSocket for calls
// and events, on 127.0.0.1 only. Every request and the upgrade pass the gate in ui-auth.ts;
// refused ones get 401/403 and never reach the host.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import type { Host } from '../host/index.js';
import { TRANSPORT_ERRORS } from '../shared/contract.js';
import { MAX_MESSAGE_BYTES, SOCKET_PATH, type CallFrame, type ServerFrame } from '../shared/wire.js';
import { checkRequest, cookieName } from './ui-auth.js';
import { securityHeaders, serveStatic } from './ui-static.js';

export interface UiServerOptions {
  readonly host: Host;
  readonly rendererDir: string;
  /** 0 (the default) lets the system pick a free port. */
  readonly port?: number;
  readonly maxMessageBytes?: number;
  /** The per-launch secret; random unless a test fixes it. */
  readonly token?: string;
}

export interface UiServer {
  /** The URL to open: it carries the token. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

const FrameSchema = z.strictObject({
  id: z.union([z.string().min(1).max(100), z.number().int().safe()]),
  channel: z.string().min(1).max(100),
  input: z.unknown().optional(),
});

/** Reads one WebSocket message as a call, or says why it is not one. */
export function readFrame(data: RawData, isBinary: boolean): CallFrame | { readonly id: string | number | null; readonly error: { code: string; message: string } } {
  const refuse = (message: string, id: string | number | null = null) => ({ id, error: { code: TRANSPORT_ERRORS.malformedMessage, message } });
  if (isBinary) return refuse('Binary frames are not accepted; send JSON text.');
  let value: unknown;
  try {
    value = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(data as Buffer[]).toString('utf8'));
  } catch {
    return refuse('The message is not JSON.');
  }
  const parsed = FrameSchema.safeParse(value);
  if (!parsed.success) {
    const id = (value as { id?: unknown } | null)?.id;
    return refuse('A call is {"id", "channel", "input"}.', typeof id === 'string' || typeof id === 'number' ? id : null);
  }
  return parsed.data;
}

/** Starts the server on 127.0.0.1 and resolves once it listens. */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const { host } = options;
  let port = 0;
  const sockets = new Set<WebSocket>();

  const onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    const verdict = checkRequest(request, { port, token, requireOrigin: false });
    if (!verdict.ok) {
      response.writeHead(verdict.status, { ...securityHeaders(port), 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(`${verdict.status === 401 ? '401 Unauthorized' : '403 Forbidden'}: ${verdict.reason}\n`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { ...securityHeaders(port), Allow: 'GET, HEAD' });
      response.end();
      return;
    }
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    if (verdict.tokenInQuery) {
      // Trade the token in the URL for a cookie, and drop it from the address bar and history.
      url.searchParams.delete('token');
      response.writeHead(303, {
        ...securityHeaders(port),
        'Set-Cookie': `${cookieName(port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`,
        Location: `${url.pathname}${url.search}`,
        'Cache-Control': 'no-store',
      });
      response.end();
      return;
    }
    serveStatic(response, { rendererDir: options.rendererDir, pathname: url.pathname, head: request.method === 'HEAD', port });
  };

  const server = createServer(onRequest);
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? MAX_MESSAGE_BYTES });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const verdict = url.pathname === SOCKET_PATH ? checkRequest(request, { port, token, requireOrigin: true }) : ({ ok: false, status: 403, reason: 'No such socket.' } as const);
    if (!verdict.ok) {
      socket.end(`HTTP/1.1 ${verdict.status} ${verdict.status === 401 ? 'Unauthorized' : 'Forbidden'}\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\n${verdict.reason}\n`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => connect(ws));
  });

  const connect = (ws: WebSocket): void => {
    sockets.add(ws);
    const send = (frame: ServerFrame): void => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
    };
    const unsubscribe = host.subscribe((envelope) => send({ type: 'event', envelope }));
    // Calls are handled one after another, in the order they arrived.
    let queue: Promise<void> = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      const frame = readFrame(data, isBinary);
      if ('error' in frame) {
        send({ type: 'refused', id: frame.id, error: frame.error });
        return;
      }
      queue = queue.then(async () => {
        const reply = await host.invoke(frame.channel, frame.input);
        send({ type: 'reply', id: frame.id, reply });
      });
    });
    ws.on('close', () => {
      sockets.delete(ws);
      unsubscribe();
    });
    ws.on('error', () => ws.terminate());
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    close: async () => {
      for (const ws of sockets) ws.close(1001, 'Relay Desk is stopping');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
