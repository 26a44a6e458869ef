import { LineSplitter } from './lines.js';

/** One server-sent event: its type (null when unnamed) and its data lines joined with "\n". */
export interface SseEvent {
  readonly event: string | null;
  readonly data: string;
  readonly id: string | null;
}

/**
 * Incremental parser of `text/event-stream` bodies: `data:` lines of a block are joined with
 * newlines, `event:` names the block, `:` lines are comments, a blank line ends the block.
 */
export class SseParser {
  private readonly lines = new LineSplitter();
  private event: string | null = null;
  private id: string | null = null;
  private data: string[] = [];

  /** Adds a chunk of the body and returns the events it completed. */
  feed(chunk: string): SseEvent[] {
    return this.take(this.lines.feed(chunk));
  }

  /** Ends the body; a last block without its blank line still counts (servers often omit it). */
  end(): SseEvent[] {
    const events = this.take(this.lines.end());
    const last = this.dispatch();
    return last ? [...events, last] : events;
  }

  private take(lines: readonly string[]): SseEvent[] {
    const events: SseEvent[] = [];
    for (const line of lines) {
      if (line === '') {
        const event = this.dispatch();
        if (event) events.push(event);
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
      else if (field === 'id') this.id = value;
      // `retry:` and unknown fields are ignored: reconnection is the client's retry policy.
    }
    return events;
  }

  private dispatch(): SseEvent | null {
    const event = this.data.length > 0 ? { event: this.event, data: this.data.join('\n'), id: this.id } : null;
    this.event = null;
    this.data = [];
    return event;
  }
}

/** Parses a whole event-stream body. */
export function parseSse(body: string): SseEvent[] {
  const parser = new SseParser();
  return [...parser.feed(body), ...parser.end()];
}
