/**
 * Splits streamed text into lines (LF, CRLF or lone CR), holding back a partial line (and a
 * CR that may be the first half of a CRLF) until the next chunk or the end.
 */
export class LineSplitter {
  private buffer = '';

  /** Adds a chunk and returns the lines it completed, without their terminators. */
  feed(chunk: string): string[] {
    this.buffer += chunk;
    const lines: string[] = [];
    let start = 0;
    for (let i = 0; i < this.buffer.length; i += 1) {
      const ch = this.buffer[i];
      if (ch === '\n') {
        lines.push(this.buffer.slice(start, i));
        start = i + 1;
      } else if (ch === '\r') {
        if (i + 1 === this.buffer.length) break; // maybe CRLF split across chunks
        lines.push(this.buffer.slice(start, i));
        start = this.buffer[i + 1] === '\n' ? i + 2 : i + 1;
        if (this.buffer[i + 1] === '\n') i += 1;
      }
    }
    this.buffer = this.buffer.slice(start);
    return lines;
  }

  /** Returns what is left (a last line without terminator), if anything. */
  end(): string[] {
    const rest = this.buffer.replace(/\r$/, '');
    this.buffer = '';
    return rest.length > 0 ? [rest] : [];
  }
}
