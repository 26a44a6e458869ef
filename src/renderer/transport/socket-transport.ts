// window.relay over the `relay ui` WebSocket: the browser twin of the Electron preload. It only
// relies on the standard WebSocket interface (given as a constructor, so Node tests can pass
// the `ws` package's), never on DOM types, and imports nothing at runtime but shared constants.
import type { ChannelName, EventEnvelope, IpcReply } from '../../shared/contract.js';
import type { CallFrame, ServerFrame } from '../../shared/wire.js';
import type { EventListener } from '../../shared/api.js';
import { TRANSPORT_ERRORS } from '../../shared/transport-errors.js';
/** The slice of the WebSocket interface this client uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'close' | 'message' | 'error', listener: (event: { data?: unknown; code?: number }) => void): void;
}

export type SocketConstructor = new (url: string, protocols?: string[]) => SocketLike;

/** open: connected; lost: the server does not answer; session-unknown: it answers but does not know this page. */
export type TransportStatus = 'open' | 'lost' | 'session-unknown';

export interface SocketTransportOptions {
  readonly url: string;
  readonly WebSocket: SocketConstructor;
  /** The subprotocols to offer on each connection (they carry the session: see shared/wire.ts). */
  readonly protocols?: () => readonly string[];
  /** Connect only once this resolves true (the page is still trading its launch token); never when false. */
  readonly ready?: Promise<boolean>;
  /**
   * Asked before each reconnection: is the server there, and does it know this page? Without it
   * the transport simply tries again.
   */
  readonly probe?: () => Promise<'valid' | 'unknown' | 'unreachable'>;
  /** Delay before reconnecting after the socket closes (ms); the delay doubles up to 10 s. */
  readonly reconnectMs?: number;
  /** Told when the socket opens, and when it closes without `close()` having been called (and why, once known). */
  readonly onStatus?: (status: TransportStatus) => void;
  /**
   * Told when a reconnection finds a runtime whose last event is older than the last one seen:
   * Relay Desk was restarted and lost the tail of its event log (a crash). Events are counted
   * from `seq` again, so the new runtime's events are not taken for replays.
   */
  readonly onRuntimeRestart?: (seq: number) => void;
}

export interface SocketTransport {
  invoke(channel: ChannelName, input: unknown): Promise<IpcReply<unknown>>;
  subscribe(listener: EventListener): () => void;
  close(): void;
}

const OPEN = 1;

/** Connects (and reconnects) to the server; calls made while disconnected wait for the connection. */
export function createSocketTransport(options: SocketTransportOptions): SocketTransport {
  const listeners = new Set<EventListener>();
  const pending = new Map<string | number, (reply: IpcReply<unknown>) => void>();
  let outbox: string[] = [];
  let nextId = 1;
  let lastSeq = 0;
  let closed = false;
  let delay = options.reconnectMs ?? 500;
  let socket: SocketLike | null = null;

  /** The startSeq of the runtime whose events were seen (null before the first connection). */
  let runtimeStart: number | null = null;
  let catchingUp = false;
  let held: EventEnvelope[] = [];

  /**
   * Learns which runtime this connection reached and replays what was missed. A runtime started
   * since, counting from below the last event seen, was restarted after a crash lost the tail of
   * its log: events are counted from its start again, so its own are not taken for replays (nor
   * those it sent while this catch-up was under way).
   */
  const catchUp = async (): Promise<void> => {
    const state = await invoke('getRuntimeState', {});
    if (state.ok) {
      const { startSeq, lastSeq: runtimeLast } = state.value as { startSeq: number; lastSeq: number };
      // The same runtime never counts backwards, and keeps its startSeq.
      const restarted = runtimeStart !== null && (startSeq !== runtimeStart || runtimeLast < lastSeq);
      if (restarted && startSeq < lastSeq) {
        lastSeq = startSeq;
        options.onRuntimeRestart?.(startSeq);
      }
      runtimeStart = startSeq;
    }
    if (lastSeq === 0) return; // a first connection: the page reads the present state itself
    const reply = await invoke('replayEvents', { since: lastSeq });
    if (reply.ok) for (const envelope of (reply.value as { events: EventEnvelope[] }).events) deliver(envelope);
  };

  const deliver = (envelope: EventEnvelope): void => {
    // Events replayed after a reconnect may overlap those already seen.
    if (envelope.seq <= lastSeq) return;
    lastSeq = envelope.seq;
    for (const listener of [...listeners]) listener(envelope);
  };

  /** Waits, asks the probe whether trying makes sense, and reconnects; reports why it does not. */
  const reconnectLater = (): void => {
    setTimeout(() => {
      void (async () => {
        if (closed) return;
        const verdict = options.probe ? await options.probe() : 'valid';
        if (closed) return;
        if (verdict === 'valid') {
          connect();
          return;
        }
        options.onStatus?.(verdict === 'unknown' ? 'session-unknown' : 'lost');
        reconnectLater();
      })();
    }, delay);
    delay = Math.min(delay * 2, 10_000);
  };

  const connect = (): void => {
    const current = new options.WebSocket(options.url, options.protocols ? [...options.protocols()] : undefined);
    socket = current;
    current.addEventListener('open', () => {
      delay = options.reconnectMs ?? 500;
      options.onStatus?.('open');
      const queued = outbox;
      outbox = [];
      for (const frame of queued) current.send(frame);
      // Catch up on events missed while disconnected. Live events are held meanwhile: one the
      // runtime sends before the catch-up is done must neither be lost nor jump the queue.
      catchingUp = true;
      void catchUp().finally(() => {
        catchingUp = false;
        const waiting = held;
        held = [];
        for (const envelope of waiting) deliver(envelope);
      });
    });
    current.addEventListener('message', (event) => {
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(event.data)) as ServerFrame;
      } catch {
        return;
      }
      if (frame.type === 'event') {
        if (catchingUp) held.push(frame.envelope);
        else deliver(frame.envelope);
      }
      else if (frame.type === 'reply' || (frame.type === 'refused' && frame.id !== null)) {
        const resolve = pending.get(frame.id!);
        pending.delete(frame.id!);
        resolve?.(frame.type === 'reply' ? frame.reply : { ok: false, error: frame.error });
      }
    });
    current.addEventListener('close', (event) => {
      const error = event.code === 1009 ? { code: TRANSPORT_ERRORS.messageTooLarge, message: 'The call was larger than the server accepts.' } : { code: TRANSPORT_ERRORS.disconnected, message: 'The connection to Relay Desk closed before it answered.' };
      for (const resolve of pending.values()) resolve({ ok: false, error });
      pending.clear();
      if (closed) return;
      options.onStatus?.('lost');
      reconnectLater();
    });
  };

  const invoke = (channel: ChannelName, input: unknown): Promise<IpcReply<unknown>> => {
    if (closed) return Promise.resolve({ ok: false, error: { code: TRANSPORT_ERRORS.disconnected, message: 'The transport is closed.' } });
    const id = nextId++;
    const frame: CallFrame = { id, channel, input };
    return new Promise((resolve) => {
      pending.set(id, resolve);
      const text = JSON.stringify(frame);
      if (socket?.readyState === OPEN) socket.send(text);
      else outbox.push(text);
    });
  };

  if (options.ready) void options.ready.then((go) => go && !closed && connect());
  else connect();
  return {
    invoke,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close: () => {
      closed = true;
      socket?.close(1000, 'closed');
    },
  };
}
