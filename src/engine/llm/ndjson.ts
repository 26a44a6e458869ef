import { llmFail, type LlmResult } from './errors.js';
import { LineSplitter } from './lines.js';

/** Incremental parser of newline-delimited JSON (Ollama's streaming format). */
export class NdjsonParser {
  private readonly lines = new LineSplitter();

  /** Adds a chunk and returns the values of the lines it completed; a line that is not JSON fails. */
  feed(chunk: string): LlmResult<unknown[]> {
    return parseLines(this.lines.feed(chunk));
  }

  /** Ends the body, parsing a last line that had no newline. */
  end(): LlmResult<unknown[]> {
    return parseLines(this.lines.end());
  }
}

function parseLines(lines: readonly string[]): LlmResult<unknown[]> {
  const values: unknown[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      values.push(JSON.parse(line));
    } catch {
      return llmFail('BAD_RESPONSE', `The server sent a line that is not JSON: ${line.slice(0, 120)}`);
    }
  }
  return { ok: true, value: values };
}

/** Parses a whole NDJSON body. */
export function parseNdjson(body: string): LlmResult<unknown[]> {
  const parser = new NdjsonParser();
  const head = parser.feed(body);
  if (!head.ok) return head;
  const tail = parser.end();
  return tail.ok ? { ok: true, value: [...head.value, ...tail.value] } : tail;
}
