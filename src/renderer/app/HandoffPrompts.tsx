// The handoff nudge: when an agent session's context passes its threshold, the runtime holds a
// "handoff-prompt" approval. It is not a patch, so it is a bar above the view, not the modal
// dialog: writing a brief now (Approve) or not (Not now) are both harmless.
import { useQueryClient } from '@tanstack/react-query';
import { ErrorBox } from '../components/ui';
import { useApprove, useReject, useRuntimeState } from '../data/hooks';
import { queryKeys } from '../data/query-keys';
import { href } from './routes';

export function HandoffPrompts() {
  const runtime = useRuntimeState();
  const client = useQueryClient();
  const approve = useApprove();
  const reject = useReject();
  const prompts = runtime.data?.prompts ?? [];
  if (prompts.length === 0) return null;
  const settled = (): void => void client.invalidateQueries({ queryKey: queryKeys.runtime() });
  const busy = approve.isPending || reject.isPending;
  return (
    <div className="prompt-bars">
      {prompts.map((prompt) => (
        <section key={prompt.approvalId} className="prompt-bar" aria-label={`Hand off ${prompt.projectId}?`}>
          <p>
            An agent session of <strong>{prompt.projectId}</strong> (<code>{prompt.sessionId}</code>) is at <strong>{Math.round(prompt.pct)}%</strong> of its context. Write a
            handoff brief now, so a fresh session can carry on?
          </p>
          <div className="button-row">
            <button type="button" className="button primary" disabled={busy} onClick={() => approve.mutate({ approvalId: prompt.approvalId }, { onSettled: settled })}>
              Write the brief
            </button>
            <a className="button subtle" href={href.handoff(prompt.projectId)}>
              Preview first
            </a>
            <button type="button" className="button subtle" disabled={busy} onClick={() => reject.mutate({ approvalId: prompt.approvalId }, { onSettled: settled })}>
              Not now
            </button>
          </div>
        </section>
      ))}
      {approve.isError ? <ErrorBox error={approve.error} title="The brief was not started" /> : null}
      {reject.isError ? <ErrorBox error={reject.error} title="The prompt was not dismissed" /> : null}
    </div>
  );
}
