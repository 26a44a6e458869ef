// "Retry after I edit the file": a refused or rejected answer is kept with its run; once the
// person has fixed the file it names, the same text is applied again to the same project, as a
// new task through the runtime (with its approvals, like any answer).
import type { TaskTicket } from '../shared/contract.js';
import { PatchDetailSchema } from '../shared/contract.js';
import { fail, type Result } from '../engine/result.js';
import type { Runtime } from '../engine/runtime/index.js';
import type { Store } from '../engine/store/index.js';

/** Applies the answer kept with run `runId` to the run's project again. */
export function retryAnswer(deps: { readonly runtime: Runtime; readonly store: Store }, runId: string): Result<TaskTicket> {
  const run = deps.store.runs.get(runId);
  if (!run) return fail('RUN_NOT_FOUND', `No run ${runId} in the history.`);
  if (run.kind !== 'patch') return fail('NOTHING_TO_RETRY', `Run ${runId} is a ${run.kind}, not an answer: there is nothing to apply again.`);
  // The store is input too: only a detail of this build's shape with a kept answer is used.
  const detail = PatchDetailSchema.safeParse(run.detail);
  const answer = detail.success ? detail.data.answer : null;
  if (answer === null) return fail('NOTHING_TO_RETRY', `Run ${runId} kept no answer to apply again (only refused or rejected answers are kept). Paste the answer again instead.`);
  if (!deps.store.projects.get(run.projectId)) return fail('UNKNOWN_PROJECT', `The run's project "${run.projectId}" is not registered any more.`);
  // A refusal again keeps the text with the new run (the patch task puts it in its result).
  return deps.runtime.send({ type: 'ApplyPatch', text: answer, source: 'paste', projectId: run.projectId });
}
