// The real engines behind the runtime's injected interfaces. The host is composed with these
// by `relay ui` and by the Electron main process; tests compose it with fakes instead.
import type { Engines, HandoffEngine, RelayContext, RelayEngine, TickEngine } from '../engine/runtime/engines.js';
import { blastLine, previewTick, runTick, thisProcessRunner } from '../engine/tick/index.js';
import { sessionUsage } from '../engine/claude-usage.js';
import { handoffEngine } from '../engine/handoff/index.js';
import { DEFAULT_REVIEW_PROMPT, newAnswerId, recordAnswer, relay, reviewRelay, type Env, type RelayErrorCode, type RelayEvent, type RelayOutcome } from '../engine/relay/index.js';
import { ok, type Result } from '../engine/result.js';
import type { RelayResult } from '../shared/schemas.js';

export interface RealEngineOptions {
  /** The environment agents run with (PATH, RELAY_*_BIN, OLLAMA_HOST, API keys). */
  readonly env: Env;
  /** Absolute path of the Claude Code CLI for ticks (a desktop app's PATH is minimal); default: the project's config. */
  readonly claudeCommand?: string;
}

/**
 * Relais ticks over src/engine/tick: stage events are forwarded, cost reported as usage. The
 * runner is this process, as for `relais run`: the same preflight refuses the same ticks.
 */
export function realTickEngine(options: RealEngineOptions): TickEngine {
  const runner = thisProcessRunner(options.env);
  return {
    preview: (root, now) => previewTick({ root, now, ...runner }),
    async run(root, context) {
      const outcome = await runTick({
        root,
        clock: context.now,
        ...runner,
        signal: context.signal,
        ...(options.claudeCommand ? { claudeCommand: options.claudeCommand } : {}),
        onEvent: (event) => context.onEvent({ stage: event.type, payload: event }),
        // Each Claude call's tokens, cost and session: the runtime's metrics and handoff nudge.
        onClaudeCall: (record) => {
          const session = sessionUsage(record.verdict.wrapper);
          context.onUsage({
            inputTokens: session?.inputTokens ?? 0,
            outputTokens: session?.outputTokens ?? 0,
            costUsd: record.costUsd,
            ...(session?.sessionId ? { sessionId: session.sessionId, contextTokens: session.contextTokens, contextWindow: session.contextWindow } : {}),
          });
        },
      });
      // A tick BLOCKED before it started has no run id; the app still records the refusal.
      const runId = outcome.runId ?? `blocked-${context.now().toISOString().replace(/[-:.]/g, '')}`;
      const blastRadius = outcome.verdict === 'blocked' ? null : blastLine(outcome.report.blast_radius);
      return ok({ runId, verdict: outcome.verdict, code: outcome.code, summary: outcome.detail, blastRadius });
    },
  };
}

function forward(context: RelayContext): (event: RelayEvent) => void {
  return (event) => {
    if (event.type === 'usage') {
      const { usage } = event;
      context.onUsage({
        inputTokens: usage.inputTokens,
        outputTokens: usage.outputTokens,
        costUsd: null,
        ...(usage.sessionId ? { sessionId: usage.sessionId, contextTokens: usage.contextTokens, contextWindow: usage.contextWindow } : {}),
      });
      return;
    }
    context.onOutput(event.type === 'delta' ? 'text' : 'stderr', event.type === 'delta' ? event.text : `${event.text}\n`);
  };
}

/**
 * Runs a relay call; an answer is recorded in the project's `.relaycode/answers/` under the
 * run's id, as the CLI does. A failure passes through with its code and message.
 */
async function asResult(root: string, asked: { kind: 'ask' | 'review'; prompt: string }, now: () => Date, run: () => Promise<RelayOutcome<{ backend: string; answer: string }>>): Promise<Result<RelayResult, RelayErrorCode>> {
  const outcome = await run();
  if (!outcome.ok) return { ok: false, error: { code: outcome.error.code, message: outcome.error.message } };
  const result = outcome.value;
  const runId = newAnswerId();
  recordAnswer(root, { id: runId, kind: asked.kind, backend: result.backend, createdAt: now().toISOString(), prompt: asked.prompt, answer: result.answer, ok: true });
  return ok({ runId, backend: result.backend, text: result.answer, usage: null });
}

/** "Ask a friend" over src/engine/relay. */
export function realRelayEngine(options: RealEngineOptions): RelayEngine {
  return {
    ask: (root, request, context) =>
      asResult(root, { kind: 'ask', prompt: request.prompt }, context.now, () =>
        relay({
          repoPath: root,
          prompt: request.prompt,
          includeDiff: request.includeDiff,
          ...(request.backend ? { backend: request.backend } : {}),
          ...(request.context ? { contextText: request.context } : {}),
          signal: context.signal,
          onEvent: forward(context),
          env: options.env,
        }),
      ),
    review: (root, request, context) =>
      asResult(root, { kind: 'review', prompt: request.prompt ?? DEFAULT_REVIEW_PROMPT }, context.now, () =>
        reviewRelay({
          repoPath: root,
          ...(request.backend ? { backend: request.backend } : {}),
          ...(request.base ? { base: request.base } : {}),
          ...(request.prompt ? { prompt: request.prompt } : {}),
          signal: context.signal,
          onEvent: forward(context),
          env: options.env,
        }),
      ),
  };
}

/** Handoff briefs over src/engine/handoff: builds and saves a brief (dispatching is the CLI's). */
export const realHandoffEngine: HandoffEngine = {
  build: (root, request, context) => handoffEngine.build(root, request, context),
};

/** Every real engine the app has (the patch engine is the runtime's default). */
export function realEngines(options: RealEngineOptions): Partial<Engines> {
  return { relay: realRelayEngine(options), handoff: realHandoffEngine, tick: realTickEngine(options) };
}
