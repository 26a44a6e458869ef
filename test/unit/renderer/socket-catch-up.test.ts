// The page's socket transport on reconnection: an event the server pushes while the page is still
// catching up (asking the runtime's state, replaying what it missed) is neither lost nor taken
// for a replay. The server side is a scripted socket, so the order of frames is exactly the race.
import { describe, expect, it } from 'vitest';
import type { EventEnvelope } from '../../../src/shared/contract.js';
import type { CallFrame } from '../../../src/shared/wire.js';
import { createSocketTransport, type SocketLike } from '../../../src/renderer/transport/socket-transport.js';
import { until } from '../../helpers/wait.js';

type Listener = (event: { data?: unknown; code?: number }) => void;

/** One connection, driven by the test: it sees the page's calls and sends frames back. */
class ScriptedSocket implements SocketLike {
  static opened: ScriptedSocket[] = [];
  readyState = 0;
  readonly calls: CallFrame[] = [];
  private readonly listeners = new Map<string, Listener[]>();
  constructor() {
    ScriptedSocket.opened.push(this);
    queueMicrotask(() => {
      this.readyState = 1;
      this.emit('open', {});
    });
  }
  send(data: string): void {
    this.calls.push(JSON.parse(data) as CallFrame);
  }
  close(): void {
    this.readyState = 3;
    this.emit('close', { code: 1006 });
  }
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: { data?: unknown; code?: number }): void {
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }
  reply(call: CallFrame, value: unknown): void {
    this.emit('message', { data: JSON.stringify({ type: 'reply', id: call.id, reply: { ok: true, value } }) });
  }
  push(seq: number, projectId: string): void {
    const envelope: EventEnvelope = { seq, ts: 0, event: { type: 'project.registered', projectId, root: `/p/${projectId}`, name: projectId } } as EventEnvelope;
    this.emit('message', { data: JSON.stringify({ type: 'event', envelope }) });
  }
  async call(channel: string): Promise<CallFrame> {
    return until(`the page to call ${channel}`, () => this.calls.find((c) => c.channel === channel && !this.answered.has(c.id)));
  }
  readonly answered = new Set<string | number>();
}

function connect(restarts: number[]) {
  ScriptedSocket.opened = [];
  const seen: number[] = [];
  const transport = createSocketTransport({ url: 'ws://test/ws', WebSocket: ScriptedSocket, reconnectMs: 1, onRuntimeRestart: (seq) => void restarts.push(seq) });
  transport.subscribe((e) => void seen.push(e.seq));
  return { transport, seen };
}

async function answer(socket: ScriptedSocket, channel: string, value: unknown): Promise<void> {
  const call = await socket.call(channel);
  socket.answered.add(call.id);
  socket.reply(call, value);
}

describe('catching up after a reconnection', () => {
  it('keeps an event a restarted runtime sends before the catch-up is done, and counts from its start', async () => {
    const restarts: number[] = [];
    const { transport, seen } = connect(restarts);
    const first = await until('a socket', () => ScriptedSocket.opened[0]);
    await answer(first, 'getRuntimeState', { startSeq: 0, lastSeq: 0 });
    for (let seq = 1; seq <= 10; seq += 1) first.push(seq, `p${seq}`);
    await until('the first events', () => seen.length === 10);

    first.close(); // the server died; its log kept events up to 6 only
    const second = await until('a second socket', () => ScriptedSocket.opened[1]);
    // The restarted runtime (counting from 6) tells of a recovery before the page has caught up.
    second.push(7, 'recovered-while-catching-up');
    await answer(second, 'getRuntimeState', { startSeq: 6, lastSeq: 7 });
    await answer(second, 'replayEvents', { events: [] });
    await until('the held event to be delivered', () => seen.length === 11);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 7]);
    expect(restarts).toEqual([6]);
    transport.close();
  });

  it('does not deliver twice what the same runtime replays and pushes', async () => {
    const restarts: number[] = [];
    const { transport, seen } = connect(restarts);
    const first = await until('a socket', () => ScriptedSocket.opened[0]);
    await answer(first, 'getRuntimeState', { startSeq: 3, lastSeq: 3 });
    first.push(4, 'a');
    await until('the first event', () => seen.length === 1);

    first.close(); // a dropped connection: the same runtime goes on
    const second = await until('a second socket', () => ScriptedSocket.opened[1]);
    second.push(6, 'c');
    await answer(second, 'getRuntimeState', { startSeq: 3, lastSeq: 6 });
    const replay = await second.call('replayEvents');
    expect(replay.input).toEqual({ since: 4 });
    second.answered.add(replay.id);
    const envelopes = [5, 6].map((seq) => ({ seq, ts: 0, event: { type: 'project.registered', projectId: `r${seq}`, root: `/p/r${seq}`, name: `r${seq}` } }));
    second.reply(replay, { events: envelopes });
    await until('the replayed and held events', () => seen.length === 3);
    expect(seen).toEqual([4, 5, 6]);
    expect(restarts).toEqual([]);
    transport.close();
  });
});
