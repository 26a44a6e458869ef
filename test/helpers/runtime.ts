import type { EventEnvelope, RuntimeEvent } from '../../src/shared/events.js';
import type { Runtime } from '../../src/engine/runtime/index.js';

/** Every event the runtime emits from now on (and the held ones), in arrival order. */
export function record(runtime: Runtime): EventEnvelope[] {
  const seen: EventEnvelope[] = [];
  runtime.subscribe((e) => seen.push(e), 0);
  return seen;
}

/** Resolves with the first event (held or future) that matches; rejects after `timeoutMs`. */
export function nextEvent<T extends RuntimeEvent['type']>(
  runtime: Runtime,
  type: T,
  match: (event: Extract<RuntimeEvent, { type: T }>) => boolean = () => true,
  timeoutMs = 20_000,
): Promise<Extract<RuntimeEvent, { type: T }>> {
  return new Promise((resolve, reject) => {
    // The listener may fire during subscribe (replay), before `subscribe` has returned.
    const holder: { stop?: () => void } = {};
    let done = false;
    const timer = setTimeout(() => {
      holder.stop?.();
      reject(new Error(`no ${type} event within ${timeoutMs} ms`));
    }, timeoutMs);
    holder.stop = runtime.subscribe((envelope) => {
      const event = envelope.event;
      if (done || event.type !== type || !match(event as Extract<RuntimeEvent, { type: T }>)) return;
      done = true;
      clearTimeout(timer);
      queueMicrotask(() => holder.stop?.());
      resolve(event as Extract<RuntimeEvent, { type: T }>);
    }, 0);
    if (done) holder.stop();
  });
}

/** A promise with its resolve function, for fakes that wait until a test lets them go on. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A deterministic id generator: id-1, id-2, … */
export function counterIds(prefix = 'id'): () => string {
  let n = 0;
  return () => `${prefix}-${(n += 1)}`;
}
