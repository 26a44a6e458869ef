// Run, then parse: claude.ts starts the Claude Code CLI; these pure functions read what it printed.

/** The JSON object `claude -p --output-format json` prints (only the fields the runner reads). */
export interface ClaudeWrapper {
  readonly type?: unknown;
  readonly subtype?: unknown;
  readonly is_error?: unknown;
  readonly result?: unknown;
  readonly total_cost_usd?: unknown;
  readonly terminal_reason?: unknown;
  readonly num_turns?: unknown;
  readonly session_id?: unknown;
}

/** What happened to the child process, before anything is parsed. */
export interface ProcessOutcome {
  /** Set when the process could not be started (e.g. ENOENT). */
  readonly spawnError: string | null;
  readonly timedOut: boolean;
  readonly signal: string | null;
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** How one Claude call ended, judged by is_error and terminal_reason, never by subtype or exit code. */
export type CallVerdict =
  | { readonly kind: 'answered'; readonly text: string; readonly wrapper: ClaudeWrapper }
  /** The invocation failed: not started, timed out, killed, crashed, or the wrapper says is_error. */
  | { readonly kind: 'failed'; readonly reason: string; readonly wrapper: ClaudeWrapper | null }
  /** The process ended normally but printed no usable wrapper, or the wrapper has no string `result`. */
  | { readonly kind: 'no_result'; readonly reason: string; readonly wrapper: ClaudeWrapper | null };

function isWrapper(value: unknown): value is ClaudeWrapper {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && ('result' in value || 'is_error' in value || (value as { type?: unknown }).type === 'result');
}

/**
 * Finds the result wrapper in stdout: the whole output as one JSON object, or else the last
 * line that is one (some versions print warnings before it).
 */
export function parseWrapper(stdout: string): ClaudeWrapper | null {
  const trimmed = stdout.trim();
  if (trimmed.length === 0) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isWrapper(value) ? value : null;
  } catch {
    // fall through to the line scan
  }
  const lines = trimmed.split(/\r?\n/).reverse();
  for (const line of lines) {
    const candidate = line.trim();
    if (!candidate.startsWith('{')) continue;
    try {
      const value: unknown = JSON.parse(candidate);
      if (isWrapper(value)) return value;
    } catch {
      // not this line
    }
  }
  return null;
}

/** The cost the wrapper reports, or null when it reports none. */
export function wrapperCost(wrapper: ClaudeWrapper | null): number | null {
  const cost = wrapper?.total_cost_usd;
  return typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? cost : null;
}

function tail(text: string, max = 300): string {
  const clean = text.trim().replace(/\s+/g, ' ');
  return clean.length > max ? `…${clean.slice(-max)}` : clean;
}

/** Judges one finished Claude call. */
export function judgeCall(outcome: ProcessOutcome): CallVerdict {
  if (outcome.spawnError !== null) return { kind: 'failed', reason: `could not start Claude: ${outcome.spawnError}`, wrapper: null };
  const wrapper = parseWrapper(outcome.stdout);
  if (outcome.timedOut) return { kind: 'failed', reason: 'the call timed out and was killed', wrapper };
  if (wrapper === null) {
    if (outcome.signal !== null) return { kind: 'failed', reason: `Claude was killed by ${outcome.signal}`, wrapper: null };
    if (outcome.exitCode !== 0) {
      const said = tail(outcome.stderr) || tail(outcome.stdout) || 'no output';
      return { kind: 'failed', reason: `Claude exited with code ${String(outcome.exitCode)} without a JSON result: ${said}`, wrapper: null };
    }
    return { kind: 'no_result', reason: `Claude printed no JSON result wrapper: ${tail(outcome.stdout) || 'no output'}`, wrapper: null };
  }
  if (wrapper.is_error !== false) {
    const detail = typeof wrapper.result === 'string' && wrapper.result.trim() ? `: ${tail(wrapper.result)}` : '';
    const subtype = typeof wrapper.subtype === 'string' ? ` (subtype ${wrapper.subtype})` : '';
    return { kind: 'failed', reason: `Claude reported an error${subtype}${detail}`, wrapper };
  }
  if (wrapper.terminal_reason !== undefined && wrapper.terminal_reason !== 'completed') {
    return { kind: 'failed', reason: `Claude stopped before completing (terminal_reason ${JSON.stringify(wrapper.terminal_reason)})`, wrapper };
  }
  if (typeof wrapper.result !== 'string') return { kind: 'no_result', reason: 'the result wrapper has no string `result`', wrapper };
  return { kind: 'answered', text: wrapper.result, wrapper };
}

/** Reads the permission modes a `claude --help` text lists for --permission-mode. */
export function parsePermissionModes(help: string): string[] {
  const line = help.split(/\r?\n/).find((l) => l.includes('--permission-mode'));
  if (!line) return [];
  // Help text wraps; the choices list may continue on the following lines.
  const start = help.indexOf(line);
  const chunk = help.slice(start, start + 600);
  const choices = /choices:\s*([^)]*)\)/.exec(chunk);
  if (!choices) return [];
  return [...choices[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

/** Reads the version from `claude --version` output ("2.1.197 (Claude Code)"). */
export function parseClaudeVersion(output: string): string | null {
  const match = /(\d+\.\d+\.\d+(?:[-+.][0-9A-Za-z.-]+)?)/.exec(output);
  return match ? match[1]! : null;
}
