import { ok } from '../result.js';
import { nextRelayDepth } from './depth.js';
import { buildPrompt } from './envelope.js';
import { relayFail, wrapBackendFailure, type RelayOutcome } from './errors.js';
import { checkReviewBase, detectDefaultBranch, gitDiffBase } from './git-context.js';
import { byteSize, checkSizeLimit, MAX_PROMPT_BYTES } from './limits.js';
import { backendInput, resolveCommon, type RelayCommonOptions } from './options.js';
import type { RelayResult } from './relay.js';
import { callBackend } from './run.js';
import type { Backend } from './backends/types.js';

/** The request sent with the diff when the caller gives none. */
export const DEFAULT_REVIEW_PROMPT = 'Review the following changes.';

/** What to review, on top of the common options. */
export interface ReviewRelayOptions extends RelayCommonOptions {
  /** The branch to compare against (default: main, else master, else HEAD~1). */
  readonly base?: string;
  /** The review request (default: "Review the following changes."). */
  readonly prompt?: string;
}

/** The outcome of a review: the answer, the base used, and which path produced it. */
export interface ReviewResult extends RelayResult {
  readonly base: string;
  /** `native`: the backend's own review; `diff`: the envelope with `git diff base...HEAD`. */
  readonly mode: 'native' | 'diff';
  /** Why the native review was not used although the backend has one, if it failed. */
  readonly fallbackReason: string | null;
}

/** True when the backend's native review can honour this request (sandbox, model, custom prompt). */
export function canReviewNatively(backend: Backend, request: { sandbox: string; model: string | null; customPrompt: boolean }): boolean {
  const native = backend.capabilities.nativeReview;
  if (!native || !backend.review) return false;
  if (!(native.sandboxes as readonly string[]).includes(request.sandbox)) return false;
  if (request.model !== null && !native.model) return false;
  return !request.customPrompt || native.prompt;
}

/**
 * Asks another agent to review what HEAD changed since `base` (checked first: it must exist and
 * differ from HEAD, or nothing is sent). A backend with a native review (codex) runs it when it
 * can honour the request; if that fails for any reason other than cancellation, a warning is
 * reported and the generic path runs instead: the strict `git diff base...HEAD` in the
 * envelope, within the prompt limit.
 */
export async function reviewRelay(options: ReviewRelayOptions): Promise<RelayOutcome<ReviewResult>> {
  const resolved = resolveCommon(options);
  if (!resolved.ok) return resolved;
  const common = resolved.value;
  const started = common.clock();
  const base = options.base?.trim() || (await detectDefaultBranch(common.repoPath));
  if (base === null) {
    return relayFail('NOTHING_TO_REVIEW', 'Nothing to review: HEAD is the first commit and no main or master branch comes before it. Pass --base <branch> to compare against another branch.');
  }
  const checked = await checkReviewBase(common.repoPath, base);
  if (!checked.ok) return checked;
  const depth = nextRelayDepth(common.env);
  if (!depth.ok) return depth;
  const customPrompt = Boolean(options.prompt?.trim());
  const input = backendInput(common, options, depth.value);
  const result = (answer: string, mode: ReviewResult['mode'], promptBytes: number, diffBytes: number, fallbackReason: string | null): RelayOutcome<ReviewResult> =>
    ok({
      backend: common.backend.name,
      answer,
      repoPath: common.repoPath,
      sandbox: common.sandbox,
      model: common.model,
      promptBytes,
      contextBytes: 0,
      diffBytes,
      durationMs: common.clock() - started,
      base,
      mode,
      fallbackReason,
    });

  let fallbackReason: string | null = null;
  const review = common.backend.review;
  if (review && canReviewNatively(common.backend, { sandbox: common.sandbox, model: common.model, customPrompt })) {
    const reply = await review.call(common.backend, { ...input, base });
    if (reply.ok) return result(reply.value.text, 'native', 0, 0, null);
    // A cancelled review must not start a second agent run.
    if (reply.error.code === 'CANCELLED') return wrapBackendFailure(common.backend.name, reply.error);
    if (options.signal?.aborted) return relayFail('CANCELLED', `${common.backend.name} was cancelled`);
    fallbackReason = reply.error.message;
    options.onEvent?.({ type: 'warning', text: `${common.backend.name}'s own review failed, reviewing the diff instead: ${fallbackReason}` });
  }

  const diffText = await gitDiffBase(common.repoPath, base);
  if (!diffText.ok) return diffText;
  const prompt = buildPrompt({ prompt: customPrompt ? (options.prompt as string) : DEFAULT_REVIEW_PROMPT, repoPath: common.repoPath, contextText: '', diffText: diffText.value });
  const size = checkSizeLimit('Relay prompt', prompt, MAX_PROMPT_BYTES);
  if (!size.ok) return size;
  const reply = await callBackend(common.backend.name, common.backend.run({ ...input, prompt }));
  if (!reply.ok) return reply;
  return result(reply.value.text, 'diff', byteSize(prompt), byteSize(diffText.value), fallbackReason);
}
