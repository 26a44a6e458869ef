// Talking to `relay ui`'s server as its page does (and as an attacker would): raw HTTP with any
// Host, Origin and body, the launch-token trade, the subprotocols that carry a session, and
// `relay ui` itself as a child process.
import { execa, type ResultPromise } from 'execa';
import { request } from 'node:http';
import path from 'node:path';
import { REPO_ROOT } from './cli.js';
import { LAUNCH_FRAGMENT_KEY, SESSION_PATH, SESSION_PROTOCOL_PREFIX, SOCKET_PROTOCOL } from '../../src/shared/wire.js';

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** Where a server listens: its origin (`http://127.x.y.z:port`), or a bare port on 127.0.0.1. */
export type Target = string | number;

/** The address and port of a target, and its authority (`address:port`, what Host says). */
export function addressOf(target: Target): { readonly address: string; readonly port: number; readonly authority: string } {
  if (typeof target === 'number') return { address: '127.0.0.1', port: target, authority: `127.0.0.1:${target}` };
  const url = new URL(target);
  return { address: url.hostname, port: Number(url.port), authority: url.host };
}

/** One raw HTTP request to a server (no redirects followed, any Host header; Host defaults to the server's). */
export function httpRequest(target: Target, options: { readonly path?: string; readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string } = {}): Promise<RawResponse> {
  const { address, port, authority } = addressOf(target);
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, path: options.path ?? '/', method: options.method ?? 'GET', headers: { host: authority, ...options.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The launch token in a link's fragment. */
export function launchToken(link: string): string {
  const token = new URLSearchParams(new URL(link).hash.slice(1)).get(LAUNCH_FRAGMENT_KEY);
  if (!token) throw new Error(`no launch token in ${link}`);
  return token;
}

/** POSTs a launch token to the trade, from `origin` unless another is given (null: no Origin). */
export function postTrade(target: Target, token: string, options: { readonly origin?: string | null; readonly headers?: Record<string, string> } = {}): Promise<RawResponse> {
  const origin = options.origin === undefined ? `http://${addressOf(target).authority}` : options.origin;
  return httpRequest(target, {
    path: SESSION_PATH,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin === null ? {} : { origin }), ...options.headers },
    body: JSON.stringify({ launchToken: token }),
  });
}

/** Trades a link's token for a session the way the page does; throws when refused. */
export async function tradeLink(link: string): Promise<string> {
  const response = await postTrade(new URL(link).origin, launchToken(link));
  if (response.status !== 200) throw new Error(`trade refused: ${response.status} ${response.body}`);
  return (JSON.parse(response.body) as { session: string }).session;
}

/** The subprotocols a page offers to open its socket with `session`. */
export function sessionProtocols(session: string): string[] {
  return [SOCKET_PROTOCOL, `${SESSION_PROTOCOL_PREFIX}${session}`];
}

/** The code of a refusal's JSON body. */
export function refusalCode(response: RawResponse): string | null {
  try {
    return (JSON.parse(response.body) as { error?: { code?: string } }).error?.code ?? null;
  } catch {
    return null;
  }
}

/** A running `relay ui` child process. */
export interface RelayUiProcess {
  readonly child: ResultPromise;
  /** The launch link it printed first. */
  readonly link: string;
  readonly port: number;
  readonly origin: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Asks for a new link (a newline on its stdin, as Enter in its terminal) and returns it. */
  newLink(): Promise<string>;
  /** Sends SIGTERM and resolves with how it ended. */
  stop(): Promise<{ exitCode: number | undefined; stdout: string; stderr: string }>;
}

/**
 * Starts the built `relay ui --no-open` with exactly `env` (nothing inherited) and waits for the
 * link it prints. Rejects with its output when it exits or prints nothing within 30 s.
 */
export async function startRelayUi(options: { readonly args?: readonly string[]; readonly env: Record<string, string>; readonly cwd: string; readonly uid?: number; readonly gid?: number }): Promise<RelayUiProcess> {
  const child = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'ui', '--no-open', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    reject: false,
    stdin: 'pipe',
    all: true,
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  let output = '';
  child.all!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const link = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`relay ui printed no link in 30 s:\n${output}`)), 30_000);
    const look = (): void => {
      const match = /Relay Desk is running at (http:\/\/127\.\d+\.\d+\.\d+:\d+\/#token=[A-Za-z0-9_-]+(?:&project=\S+)?)/.exec(output);
      // The line after the link ends the start-up output.
      if (match && output.includes('press Ctrl+C to stop)')) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.all!.on('data', look);
    void child.then(() => {
      clearTimeout(timer);
      reject(new Error(`relay ui exited before printing a link:\n${output}`));
    });
  });
  const url = new URL(link);
  return {
    child,
    link,
    port: Number(url.port),
    origin: url.origin,
    output: () => output,
    newLink: async () => {
      const before = [...output.matchAll(/New link \(works once, for \d+ minutes\): (\S+)/g)].length;
      child.stdin!.write('\n');
      const deadline = Date.now() + 20_000;
      for (;;) {
        const links = [...output.matchAll(/New link \(works once, for \d+ minutes\): (\S+)/g)];
        if (links.length > before) return links[before]![1]!;
        if (Date.now() > deadline) throw new Error(`relay ui printed no new link:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    stop: async () => {
      child.kill('SIGTERM');
      const ended = await child;
      return { exitCode: ended.exitCode, stdout: String(ended.stdout), stderr: String(ended.stderr) };
    },
  };
}

/** The WebSocket URL of a server whose page origin is `origin`. */
export function socketUrl(origin: string, pathname = '/ws'): string {
  return `ws://${new URL(origin).host}${pathname}`;
}
