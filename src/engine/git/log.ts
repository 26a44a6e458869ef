import { git } from './core.js';

/** One commit as `git log` reports it; `files` is empty unless the log was read with names. */
export interface LogEntry {
  readonly sha: string;
  /** Author date, strict ISO 8601 as git prints it (`%aI`). */
  readonly date: string;
  readonly author: string;
  readonly subject: string;
  readonly files: readonly string[];
}

export interface LogOptions {
  /** At most this many commits. */
  readonly maxCount: number;
  /** A revision range such as `abc123..def456`; HEAD when omitted. */
  readonly range?: string;
  /** Also list the files each commit touched (`--name-only`). */
  readonly nameOnly?: boolean;
}

// Each commit starts with a record separator, fields are split by unit separators; neither can
// appear in a subject line, so a subject holding "|" or tabs still parses.
const RECORD = '\x1e';
const UNIT = '\x1f';
const FORMAT = `--format=${RECORD}%H${UNIT}%aI${UNIT}%an${UNIT}%s`;

/**
 * Parses the output of `git log` run with the format above, with or without `--name-only`.
 * Paths git quoted (control characters, quotes) are unquoted.
 */
export function parseLog(output: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const chunk of output.split(RECORD)) {
    if (chunk.trim().length === 0) continue;
    const [header = '', ...rest] = chunk.split('\n');
    const [sha = '', date = '', author = '', subject = ''] = header.split(UNIT);
    if (!/^[0-9a-f]{7,64}$/.test(sha)) continue;
    const files = rest.map((line) => line.trimEnd()).filter((line) => line.length > 0).map(unquotePath);
    entries.push({ sha, date, author, subject, files });
  }
  return entries;
}

/** Undoes git's C-style quoting of an unusual path ("a\tb" → a<TAB>b); plain paths pass through. */
export function unquotePath(raw: string): string {
  if (!(raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"'))) return raw;
  const body = raw.slice(1, -1);
  const bytes: number[] = [];
  const simple: Readonly<Record<string, number>> = { n: 10, t: 9, r: 13, b: 8, f: 12, v: 11, a: 7, '"': 34, '\\': 92 };
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i]!;
    if (ch !== '\\') {
      bytes.push(...Buffer.from(ch, 'utf8'));
      continue;
    }
    const next = body[i + 1] ?? '';
    const octal = /^[0-7]{3}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else if (next in simple) {
      bytes.push(simple[next]!);
      i += 1;
    } else {
      bytes.push(92);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** True when the repository has at least one commit (a fresh `git init` has none, and `git log` fails there). */
export async function hasCommits(cwd: string): Promise<boolean> {
  const { exitCode } = await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { okExitCodes: [1, 128] });
  return exitCode === 0;
}

/** Reads the log of HEAD (or a range), newest first; empty when there is no commit yet. */
export async function readLog(cwd: string, options: LogOptions): Promise<LogEntry[]> {
  if (!(await hasCommits(cwd))) return [];
  const args = ['-c', 'core.quotePath=false', 'log', `--max-count=${Math.max(1, Math.floor(options.maxCount))}`, '--no-color', FORMAT];
  if (options.nameOnly) args.push('--name-only');
  // `--end-of-options` keeps a range from ever being read as an option.
  args.push('--end-of-options', options.range ?? 'HEAD');
  const { stdout } = await git(cwd, args);
  return parseLog(stdout);
}
