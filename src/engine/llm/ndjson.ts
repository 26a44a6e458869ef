import { LlmError } from './errors.js';
import { LineSplitter } from './lines.js';

/** Incremental parser of newline-delimited JSON (Ollama's streaming format). */
export class NdjsonParser {
  private readonly lines = new LineSplitter();

  /** Adds a chunk and returns the values of the lines it completed. */
  feed(chunk: string): unknown[] {
    return this.lines.feed(chunk).flatMap(parseLine);
  }

  /** Ends the body, parsing a last line that had no newline. */
  end(): unknown[] {
    return this.lines.end().flatMap(parseLine);
  }
}

function parseLine(line: string): unknown[] {
  if (line.trim() === '') return [];
  try {
    return [JSON.parse(line)];
  } catch {
    throw new LlmError('BAD_RESPONSE', `The server sent a line that is not JSON: ${line.slice(0, 120)}`);
  }
}

/** Parses a whole NDJSON body. */
export function parseNdjson(body: string): unknown[] {
  const parser = new NdjsonParser();
  return [...parser.feed(body), ...parser.end()];
}
