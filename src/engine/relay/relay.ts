import { resolveContextText } from './context.js';
import { DEPTH_ENV, nextRelayDepth } from './depth.js';
import { buildPrompt } from './envelope.js';
import { RelayError } from './errors.js';
import { gitDiff } from './git-context.js';
import { byteSize, ensureSizeLimit, MAX_PROMPT_BYTES } from './limits.js';
import { resolveCommon, type RelayCommonOptions } from './options.js';
import { callBackend } from './run.js';
import type { SandboxMode } from './backends/types.js';

/** What to ask, on top of the common options. */
export interface RelayOptions extends RelayCommonOptions {
  /** The request; blank is refused. */
  readonly prompt: string;
  /** A file whose text is sent as additional context (relative paths resolve against the repo). */
  readonly contextFile?: string | null;
  /** Text sent as additional context; not together with contextFile. */
  readonly contextText?: string | null;
  /** Also send the working tree's diff against HEAD (or the last commit's, when clean). */
  readonly includeDiff?: boolean;
}

/** The outcome of a relay: the other agent's answer and what was sent. */
export interface RelayResult {
  readonly backend: string;
  readonly answer: string;
  readonly repoPath: string;
  readonly sandbox: SandboxMode;
  readonly model: string | null;
  /** UTF-8 size of the envelope sent. */
  readonly promptBytes: number;
  readonly contextBytes: number;
  readonly diffBytes: number;
  readonly durationMs: number;
}

/**
 * Asks another agent: validates (prompt, timeout, repo, backend, sandbox), resolves context,
 * adds the diff if asked, builds the envelope, enforces the three size limits and the depth
 * guard, then runs the backend. Every expected failure is a RelayError; nothing reaches the
 * backend unless all checks pass.
 */
export async function relay(options: RelayOptions): Promise<RelayResult> {
  if (typeof options.prompt !== 'string' || !options.prompt.trim()) throw new RelayError('PROMPT_REQUIRED', 'Prompt is required');
  const common = resolveCommon(options);
  const started = common.clock();
  const contextText = resolveContextText(options.contextFile, options.contextText, common.repoPath);
  // gitDiff enforces the diff limit itself; git failures leave the diff out.
  const diffText = options.includeDiff ? await gitDiff(common.repoPath) : '';
  const prompt = buildPrompt({ prompt: options.prompt, repoPath: common.repoPath, contextText, diffText });
  ensureSizeLimit('Relay prompt', prompt, MAX_PROMPT_BYTES);
  const depth = nextRelayDepth(common.env);
  const env = { ...common.env, [DEPTH_ENV]: String(depth) };
  const reply = await callBackend(() =>
    common.backend.run({
      prompt,
      repoPath: common.repoPath,
      timeoutMs: common.timeoutMs,
      sandbox: common.sandbox,
      model: common.model,
      env,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      deps: common.deps,
    }),
  );
  return {
    backend: common.backend.name,
    answer: reply.text,
    repoPath: common.repoPath,
    sandbox: common.sandbox,
    model: common.model,
    promptBytes: byteSize(prompt),
    contextBytes: byteSize(contextText),
    diffBytes: byteSize(diffText),
    durationMs: common.clock() - started,
  };
}
