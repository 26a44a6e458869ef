import type { EventEnvelope, RuntimeEvent } from '../../shared/events.js';

export type EnvelopeListener = (envelope: EventEnvelope) => void;

export interface EventLogOptions {
  readonly clock: () => number;
  /** The seq of the last event before this log (so seq keeps increasing across launches). */
  readonly startSeq?: number;
  /** How many recent events are kept for listeners that subscribe late. */
  readonly capacity?: number;
  /** Told when a listener throws; the other listeners still get the event. */
  readonly onListenerError?: (error: unknown) => void;
}

/**
 * Stamps events with a strictly increasing seq and fans them out. Delivery is queued: an event
 * emitted by a listener while another event is being delivered waits its turn, so every
 * listener sees events in seq order even when listeners send commands back.
 */
export class EventLog {
  private seq: number;
  private readonly buffer: EventEnvelope[] = [];
  private readonly listeners = new Set<EnvelopeListener>();
  private readonly outbox: EventEnvelope[] = [];
  private delivering = false;
  private readonly capacity: number;

  constructor(private readonly options: EventLogOptions) {
    this.seq = options.startSeq ?? 0;
    this.capacity = options.capacity ?? 5000;
  }

  /** The seq of the newest event. */
  get lastSeq(): number {
    return this.seq;
  }

  /** The seq this log counted from: its own events are the ones after it. */
  get startSeq(): number {
    return this.options.startSeq ?? 0;
  }

  /** Stamps and delivers one event; returns its envelope. */
  emit(event: RuntimeEvent): EventEnvelope {
    this.seq += 1;
    const envelope: EventEnvelope = { seq: this.seq, ts: Math.trunc(this.options.clock()), event };
    this.buffer.push(envelope);
    if (this.buffer.length > this.capacity) this.buffer.splice(0, this.buffer.length - this.capacity);
    this.outbox.push(envelope);
    this.deliver();
    return envelope;
  }

  private deliver(): void {
    if (this.delivering) return;
    this.delivering = true;
    try {
      for (let next = this.outbox.shift(); next; next = this.outbox.shift()) {
        for (const listener of [...this.listeners]) {
          try {
            listener(next);
          } catch (error) {
            this.options.onListenerError?.(error);
          }
        }
      }
    } finally {
      this.delivering = false;
    }
  }

  /**
   * Calls `listener` for every event after `since` still held (when given), then for every new
   * one. Returns the function that stops it.
   */
  subscribe(listener: EnvelopeListener, since?: number): () => void {
    if (since !== undefined) {
      // Only what has already been delivered: queued events reach the new listener through the outbox.
      const delivered = this.buffer.filter((e) => e.seq > since && !this.outbox.includes(e));
      for (const envelope of delivered) listener(envelope);
    }
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Events after `since` still held; `complete` is false when older ones were already dropped. */
  since(since: number): { events: EventEnvelope[]; complete: boolean } {
    const events = this.buffer.filter((e) => e.seq > since);
    const oldest = this.buffer[0]?.seq ?? this.seq + 1;
    return { events, complete: since >= oldest - 1 || since >= this.seq };
  }
}
