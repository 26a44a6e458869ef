// Token usage as the Claude Code CLI's JSON result wrapper reports it, read in one place for
// the tick runner (budgets, the handoff nudge) and the handoff engine.

/** Token usage as the Claude Code JSON wrapper reports it (`usage`). */
export interface ClaudeUsage {
  readonly input_tokens?: number;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation_input_tokens?: number;
  readonly output_tokens?: number;
}

/** Reads `usage` and the context window out of a Claude JSON result wrapper; null when absent. */
export function usageFromClaudeWrapper(wrapper: unknown): { readonly usage: ClaudeUsage; readonly contextWindow: number | null } | null {
  if (typeof wrapper !== 'object' || wrapper === null) return null;
  const w = wrapper as { usage?: unknown; modelUsage?: unknown };
  if (typeof w.usage !== 'object' || w.usage === null) return null;
  const u = w.usage as Record<string, unknown>;
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const usage: ClaudeUsage = {
    input_tokens: num(u.input_tokens),
    cache_read_input_tokens: num(u.cache_read_input_tokens),
    cache_creation_input_tokens: num(u.cache_creation_input_tokens),
    output_tokens: num(u.output_tokens),
  };
  // Newer wrappers give each model's window under modelUsage; the largest is the main model's.
  let contextWindow: number | null = null;
  if (typeof w.modelUsage === 'object' && w.modelUsage !== null) {
    for (const entry of Object.values(w.modelUsage as Record<string, unknown>)) {
      const window = typeof entry === 'object' && entry !== null ? num((entry as { contextWindow?: unknown }).contextWindow) : undefined;
      if (window !== undefined && (contextWindow === null || window > contextWindow)) contextWindow = window;
    }
  }
  return { usage, contextWindow };
}

/** The model context window assumed when the wrapper does not report one (Claude models: 200k). */
export const DEFAULT_CLAUDE_CONTEXT_WINDOW = 200_000;

/** One Claude session's figures after a call: what the runtime's metrics and the nudge need. */
export interface SessionUsage {
  readonly sessionId: string | null;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Tokens in the context after this call: prompt (fresh, cache-read, cache-written) plus output. */
  readonly contextTokens: number;
  readonly contextWindow: number;
}

/** A wrapper's session figures; null when it reports no usage. */
export function sessionUsage(wrapper: unknown): SessionUsage | null {
  const read = usageFromClaudeWrapper(wrapper);
  if (!read) return null;
  const n = (v: number | undefined): number => (typeof v === 'number' && v > 0 ? Math.round(v) : 0);
  const u = read.usage;
  const input = n(u.input_tokens) + n(u.cache_read_input_tokens) + n(u.cache_creation_input_tokens);
  const sessionId = (wrapper as { session_id?: unknown }).session_id;
  return {
    sessionId: typeof sessionId === 'string' && sessionId !== '' ? sessionId : null,
    inputTokens: input,
    outputTokens: n(u.output_tokens),
    contextTokens: input + n(u.output_tokens),
    contextWindow: read.contextWindow ?? DEFAULT_CLAUDE_CONTEXT_WINDOW,
  };
}
