// Output kept from a child: the first `maxBytes` of each stream (and both interleaved in the order
// they came), with a flag when more was printed and dropped. A streaming consumer still sees every
// byte through its callback; only what is kept in memory is capped.
import { StringDecoder } from 'node:string_decoder';

/** Collects one stream; `all` receives the kept text in arrival order across streams. */
export interface StreamCollector {
  push(chunk: Buffer): void;
  /** The kept text (call once, after the stream ended). */
  end(): string;
  /** True when bytes were dropped over the cap. */
  readonly truncated: boolean;
}

/** A stream's collector: keeps up to `maxBytes`, hands every decoded piece to `onText`, appends kept text to `all`. */
export function streamCollector(maxBytes: number, all: string[], onText?: (text: string) => void): StreamCollector {
  const live = new StringDecoder('utf8');
  const kept = new StringDecoder('utf8');
  const pieces: string[] = [];
  let keptBytes = 0;
  let truncated = false;
  const keep = (text: string): void => {
    if (!text) return;
    pieces.push(text);
    all.push(text);
  };
  return {
    push(chunk) {
      const text = live.write(chunk);
      if (text) onText?.(text);
      const room = maxBytes - keptBytes;
      if (room <= 0) {
        truncated ||= chunk.length > 0;
        return;
      }
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      if (part.length < chunk.length) truncated = true;
      keptBytes += part.length;
      keep(kept.write(part));
    },
    end() {
      const rest = live.end();
      if (rest) onText?.(rest);
      // A multi-byte character cut by the cap is dropped rather than shown as U+FFFD.
      if (!truncated) keep(kept.end());
      return pieces.join('');
    },
    get truncated() {
      return truncated;
    },
  };
}
