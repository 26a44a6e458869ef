// "Approve & commit" in a tick's run detail: whether to offer it, checked against git now. The
// offer is for the project's latest SUCCESS tick that is not committed and whose HEAD has not
// moved; a work tree that no longer matches the tick still gets the offer, with the refusal it
// would meet (so the window can say which files differ before anyone clicks).
import type { RunDetail } from '../shared/contract.js';
import { planTickCommit, suggestedCommitMessage, type TickCommitCode } from '../engine/tick/commit.js';

/** Refusals that mean "nothing to offer" rather than "offered, but not possible right now". */
const NO_OFFER: ReadonlySet<TickCommitCode> = new Set(['INVALID_RUN_ID', 'TICK_NOT_FOUND', 'TICK_NOT_SUCCESS', 'TICK_NOT_LATEST', 'TICK_ALREADY_COMMITTED', 'HEAD_MOVED', 'NOTHING_TO_COMMIT']);

/** The run detail with `commitOffer` filled in, for a tick. */
export async function withCommitOffer(detail: RunDetail, root: string | null): Promise<RunDetail> {
  const tick = detail.detail;
  if (!root || tick?.kind !== 'tick' || tick.commit !== null || detail.run.verdict !== 'success') return detail;
  let plan: Awaited<ReturnType<typeof planTickCommit>>;
  try {
    plan = await planTickCommit(root, tick.runId);
  } catch (error) {
    plan = { ok: false, error: { code: 'WORKTREE_DIFFERS', message: `git could not be asked about the work tree: ${(error as Error).message}` } };
  }
  if (!plan.ok && NO_OFFER.has(plan.error.code)) return detail;
  const commitOffer = plan.ok
    ? { suggestedMessage: plan.value.suggestedMessage, paths: [...plan.value.paths], problem: null }
    : { suggestedMessage: suggestedCommitMessage(tick.runId, tick.report), paths: [], problem: { code: plan.error.code, message: plan.error.message } };
  return { ...detail, detail: { ...tick, commitOffer } };
}
