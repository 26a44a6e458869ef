import { ok } from '../result.js';
import { resolveContextText } from './context.js';
import { nextRelayDepth } from './depth.js';
import { buildPrompt } from './envelope.js';
import { relayFail, type RelayOutcome } from './errors.js';
import { gitDiff } from './git-context.js';
import { byteSize, checkSizeLimit, MAX_PROMPT_BYTES } from './limits.js';
import { backendInput, resolveCommon, type RelayCommonOptions } from './options.js';
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
 * guard, then runs the backend. Every expected failure is a RelayFailure value; nothing reaches
 * the backend unless all checks pass.
 */
export async function relay(options: RelayOptions): Promise<RelayOutcome<RelayResult>> {
  if (typeof options.prompt !== 'string' || !options.prompt.trim()) return relayFail('PROMPT_REQUIRED', 'Prompt is required');
  const resolved = resolveCommon(options);
  if (!resolved.ok) return resolved;
  const common = resolved.value;
  const started = common.clock();
  const contextText = resolveContextText(options.contextFile, options.contextText, common.repoPath);
  if (!contextText.ok) return contextText;
  // gitDiff enforces the diff limit itself; git failures leave the diff out.
  const diffText = options.includeDiff ? await gitDiff(common.repoPath) : ok('');
  if (!diffText.ok) return diffText;
  const prompt = buildPrompt({ prompt: options.prompt, repoPath: common.repoPath, contextText: contextText.value, diffText: diffText.value });
  const size = checkSizeLimit('Relay prompt', prompt, MAX_PROMPT_BYTES);
  if (!size.ok) return size;
  const depth = nextRelayDepth(common.env);
  if (!depth.ok) return depth;
  const reply = await callBackend(common.backend.name, common.backend.run({ ...backendInput(common, options, depth.value), prompt }));
  if (!reply.ok) return reply;
  return ok({
    backend: common.backend.name,
    answer: reply.value.text,
    repoPath: common.repoPath,
    sandbox: common.sandbox,
    model: common.model,
    promptBytes: byteSize(prompt),
    contextBytes: byteSize(contextText.value),
    diffBytes: byteSize(diffText.value),
    durationMs: common.clock() - started,
  });
}
