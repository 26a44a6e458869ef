// The browser transport of the host: HTTP for the built renderer and a WebSocket for calls
// and events, on a loopback address only. Static files of the renderer are the public build and
// need no secret; the session endpoints (the launch-token trade, the server's proof to a page
// that lost its connection: see ui-credentials.ts) and the WebSocket pass the gate in
// ui-auth.ts (Host, Origin, session). Every run listens on a new, unguessable address (see
// unguessableLoopback). Refused requests get a status and a coded JSON body, and never reach
// the host.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { z } from 'zod';
import type { Host } from '../host/index.js';
import { TRANSPORT_ERRORS, type IpcError, type TransportErrorCode } from '../shared/contract.js';
import { LAUNCH_FRAGMENT_KEY, LAUNCH_PROJECT_KEY, MAX_MESSAGE_BYTES, SESSION_HELLO_PATH, SESSION_PATH, SOCKET_PATH, SOCKET_PROTOCOL, type CallFrame, type RefusalBody, type ServerFrame } from '../shared/wire.js';
import { checkHost, checkOrigin, checkSession, sessionFromProtocols, type Refusal } from './ui-auth.js';
import { createCredentials, type Credentials } from './ui-credentials.js';
import { securityHeaders, serveStatic } from './ui-static.js';

export interface UiServerOptions {
  readonly host: Host;
  readonly rendererDir: string;
  /** The port to listen on; 0 (the default) lets the system pick a free one, a new address each run. */
  readonly port?: number;
  /** The loopback address to listen on; by default one picked at random each run (see unguessableLoopback). */
  readonly address?: string;
  /** Picks the random address (tests give one this system does not have, to see the fallback). */
  readonly pickAddress?: () => string;
  readonly maxMessageBytes?: number;
  /** The launch tokens and sessions; by default in memory only. */
  readonly credentials?: Credentials;
}

/** A one-time link that opens the window: its token is in the fragment. */
export interface LaunchLink {
  readonly url: string;
  readonly expiresAt: number;
  /** Resolves once a page has traded it. */
  readonly traded: Promise<void>;
}

export interface UiServer {
  readonly origin: string;
  readonly port: number;
  /** Mints a new single-use launch link; `project` makes the page open on that project. */
  launchLink(options?: { readonly project?: string }): LaunchLink;
  close(): Promise<void>;
}

const FrameSchema = z.strictObject({
  id: z.union([z.string().min(1).max(100), z.number().int().safe()]),
  channel: z.string().min(1).max(100),
  input: z.unknown().optional(),
});

/** Reads one WebSocket message as a call, or says why it is not one. */
export function readFrame(data: RawData, isBinary: boolean): CallFrame | { readonly id: string | number | null; readonly error: IpcError<TransportErrorCode> } {
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

const TradeSchema = z.strictObject({ launchToken: z.string().min(1).max(200) });
const Token = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
const HelloSchema = z.strictObject({ sessionId: Token, pageNonce: Token });

/** The largest request head accepted: room for a browser's whole cookie jar for one host. */
const MAX_HEADER_BYTES = 1024 * 1024;

/** The largest body the session endpoints accept: their tokens are 43 characters. */
const MAX_SESSION_BODY_BYTES = 4096;

function refusalBody(refusal: Refusal): string {
  const body: RefusalBody = { error: { code: refusal.code, message: refusal.message } };
  return `${JSON.stringify(body)}\n`;
}

function sendJson(response: ServerResponse, authority: string, status: number, body: string | null): void {
  response.writeHead(status, { ...securityHeaders(authority), 'Cache-Control': 'no-store', ...(body === null ? {} : { 'Content-Type': 'application/json; charset=utf-8' }) });
  response.end(body ?? undefined);
}

function refuse(response: ServerResponse, authority: string, refusal: Refusal): void {
  sendJson(response, authority, refusal.status, refusalBody(refusal));
}

/** Reads a small request body; null when it is larger than `limit`. */
function readBody(request: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(null);
        request.destroy();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => resolve(null));
  });
}

async function listen(server: ReturnType<typeof createServer>, port: number, address: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * A loopback address no one can have known in advance: 127.x.y.z, from 16 million. Pages a browser
 * loaded from an address before (another program's, on a port it chose and could steer this server
 * onto by holding the others) can have left a service worker or cached files there; at an address
 * nobody could guess, there is nothing. Where only 127.0.0.1 is a loopback address (macOS), that one.
 */
function unguessableLoopback(): string {
  const bytes = randomBytes(3);
  const last = 1 + (bytes[2]! % 254);
  return bytes[0] === 0 && bytes[1] === 0 && last === 1 ? '127.0.0.2' : `127.${bytes[0]}.${bytes[1]}.${last}`;
}

/** Starts the server on an unguessable loopback address (see unguessableLoopback) and resolves once it listens. */
export async function startUiServer(options: UiServerOptions): Promise<UiServer> {
  const { host } = options;
  const credentials = options.credentials ?? createCredentials();
  let port = 0;
  /** `<address>:<port>`: what Host must say, and the origin's authority. */
  let authority = '';
  /** Open sockets and the session each one came with. */
  const sockets = new Map<WebSocket, string>();

  /**
   * Reads a session endpoint's JSON body against its schema, or answers the refusal and returns
   * null. These endpoints take no session: what they carry is the credential.
   */
  const readJson = async <T>(request: IncomingMessage, response: ServerResponse, schema: z.ZodType<T>, shape: string): Promise<T | null> => {
    if (!/^application\/json(;|$)/i.test(request.headers['content-type'] ?? '')) {
      refuse(response, authority, { status: 415, code: 'CONTENT_TYPE_REFUSED', message: 'Send the body as application/json.' });
      return null;
    }
    const text = await readBody(request, MAX_SESSION_BODY_BYTES);
    let parsed: T | null = null;
    try {
      const result = text === null ? null : schema.safeParse(JSON.parse(text));
      parsed = result?.success ? result.data : null;
    } catch {
      parsed = null;
    }
    if (parsed === null) refuse(response, authority, { status: 400, code: 'BAD_REQUEST', message: `The body must be ${shape}.` });
    return parsed;
  };

  /** POST /api/session: a launch token (once) for a session secret. */
  const trade = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readJson(request, response, TradeSchema, '{"launchToken": "<token>"}');
    if (!body) return;
    const traded = credentials.trade(body.launchToken);
    if (!traded.ok) refuse(response, authority, { status: 401, code: traded.error.code, message: traded.error.message });
    else sendJson(response, authority, 200, `${JSON.stringify({ session: traded.value.secret, expiresAt: traded.value.expiresAt })}\n`);
  };

  /** POST /api/session/hello: this server proves it knows a page's session before the page sends it. */
  const hello = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const body = await readJson(request, response, HelloSchema, '{"sessionId", "pageNonce"}');
    if (!body) return;
    const proof = credentials.prove(body.sessionId, body.pageNonce);
    if (!proof.ok) refuse(response, authority, { status: 401, code: proof.error.code, message: proof.error.message });
    else sendJson(response, authority, 200, `${JSON.stringify({ proof: proof.value })}\n`);
  };

  const onRequest = (request: IncomingMessage, response: ServerResponse): void => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const api = url.pathname.startsWith('/api/');
    const refusal = checkHost(request, authority) ?? checkOrigin(request, authority, api);
    if (refusal) {
      refuse(response, authority, refusal);
      return;
    }
    if (api) {
      if (request.method !== 'POST') {
        response.setHeader('Allow', 'POST');
        refuse(response, authority, { status: 405, code: 'METHOD_NOT_ALLOWED', message: `${url.pathname} only takes POST.` });
      } else if (url.pathname === SESSION_PATH) {
        void trade(request, response);
      } else if (url.pathname === SESSION_HELLO_PATH) {
        void hello(request, response);
      } else {
        refuse(response, authority, { status: 404, code: 'NOT_FOUND', message: `No such endpoint: ${url.pathname}.` });
      }
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      refuse(response, authority, { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'Only GET and HEAD here.' });
      return;
    }
    serveStatic(response, { rendererDir: options.rendererDir, pathname: url.pathname, head: request.method === 'HEAD', authority });
  };

  // Headers up to 1 MB: a browser sends every cookie of this host (up to 180 of 4 KB, which a page
  // on another port of the same address can set) on each request; they are never read, but past
  // Node's default 16 KB limit they would make every request fail (431) until cleared.
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, onRequest);
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? MAX_MESSAGE_BYTES,
    // Answer with our protocol only: the session secret offered beside it is never echoed.
    handleProtocols: (protocols) => (protocols.has(SOCKET_PROTOCOL) ? SOCKET_PROTOCOL : false),
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const secret = sessionFromProtocols(request.headers['sec-websocket-protocol']);
    const refusal =
      checkHost(request, authority) ??
      (url.pathname === SOCKET_PATH ? null : ({ status: 404, code: 'NOT_FOUND', message: 'No such socket.' } as const)) ??
      checkOrigin(request, authority, true) ??
      checkSession(secret, credentials.verify);
    if (refusal) {
      const body = refusalBody(refusal);
      const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 415: 'Unsupported Media Type' }[refusal.status];
      socket.end(`HTTP/1.1 ${refusal.status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => connect(ws, secret!));
  });

  const connect = (ws: WebSocket, secret: string): void => {
    sockets.set(ws, secret);
    credentials.touch(secret);
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
      // The page was here until now: its session lives SESSION_TTL_MS from its last visit.
      credentials.touch(secret);
    });
    ws.on('error', () => ws.terminate());
  };

  let address = options.address ?? (options.pickAddress ?? unguessableLoopback)();
  try {
    await listen(server, options.port ?? 0, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRNOTAVAIL' || options.address !== undefined) throw error;
    address = '127.0.0.1';
    await listen(server, options.port ?? 0, address);
  }
  port = (server.address() as AddressInfo).port;
  authority = `${address}:${port}`;
  const origin = `http://${authority}`;
  return {
    origin,
    port,
    launchLink: (link = {}) => {
      let resolveTraded!: () => void;
      const traded = new Promise<void>((resolve) => (resolveTraded = resolve));
      const minted = credentials.mintLaunchToken(() => resolveTraded());
      // The project rides in the fragment too: it never reaches a server, and only picks the first page.
      const project = link.project ? `&${LAUNCH_PROJECT_KEY}=${encodeURIComponent(link.project)}` : '';
      return { url: `${origin}/#${LAUNCH_FRAGMENT_KEY}=${minted.token}${project}`, expiresAt: minted.expiresAt, traded };
    },
    close: async () => {
      for (const ws of sockets.keys()) ws.close(1001, 'Relay Desk is stopping');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
