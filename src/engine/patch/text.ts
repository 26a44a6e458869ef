/** One line of a text file with the line ending that followed it ('' for a last line without one). */
export interface Line {
  readonly text: string;
  readonly eol: string;
  /** Set on lines an earlier edit of the same answer inserted (they never make a later edit ambiguous). */
  readonly inserted?: boolean;
}

/** A text file split into lines, remembering everything needed to write it back byte for byte. */
export interface FileText {
  readonly lines: readonly Line[];
  readonly bom: boolean;
  /** The file's dominant line ending, used for lines a patch adds. */
  readonly eol: '\n' | '\r\n';
  readonly finalNewline: boolean;
}

/** Splits content into lines, keeping each line's own ending, the BOM and the final-newline state. */
export function toFileText(content: string): FileText {
  const bom = content.startsWith('\uFEFF');
  const body = bom ? content.slice(1) : content;
  const lines: Line[] = [];
  const pattern = /\r\n|\n|\r/g;
  let start = 0;
  let crlf = 0;
  let lf = 0;
  for (let m = pattern.exec(body); m !== null; m = pattern.exec(body)) {
    lines.push({ text: body.slice(start, m.index), eol: m[0] });
    if (m[0] === '\r\n') crlf += 1;
    else lf += 1;
    start = m.index + m[0].length;
  }
  const finalNewline = start === body.length && body.length > 0;
  if (start < body.length) lines.push({ text: body.slice(start), eol: '' });
  return { lines, bom, eol: crlf > lf ? '\r\n' : '\n', finalNewline: body.length === 0 ? true : finalNewline };
}

/** Joins lines back into content; only lines without an ending get the dominant one. */
export function fromFileText(file: FileText): string {
  const { lines } = file;
  let out = file.bom ? '\uFEFF' : '';
  lines.forEach((line, i) => {
    const last = i === lines.length - 1;
    let eol = line.eol === '' ? file.eol : line.eol;
    if (last && !file.finalNewline) eol = '';
    out += line.text + eol;
  });
  return out;
}

/** Replaces `count` lines at `start` with `replacement`, returning a new FileText. */
export function spliceLines(file: FileText, start: number, count: number, replacement: readonly Line[]): FileText {
  const lines = [...file.lines];
  lines.splice(start, count, ...replacement);
  return { ...file, lines };
}

/** A line the patch introduces: it takes the file's dominant ending when written. */
export function newLine(text: string): Line {
  return { text, eol: '', inserted: true };
}

/** True when the content is probably binary (a NUL byte in the first 8 KB). */
export function looksBinary(content: string): boolean {
  return content.slice(0, 8192).includes('\0');
}
