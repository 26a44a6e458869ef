// "Approve & commit" for a SUCCESS tick: the runner never commits, so the next tick is blocked
// on a dirty work tree until someone does. This commits exactly the tick's touched paths (the
// host refuses, naming the files, when the work tree no longer holds just the tick's change).
import { useId, useState, type FormEvent } from 'react';
import type { TickDetail } from '../../../shared/contract.js';
import { TaskStatus } from '../../components/TaskStatus';
import { ErrorBox, RelativeTime, useNow } from '../../components/ui';
import { useCommitTick } from '../../data/hooks';

export function TickCommitCard(props: { readonly detail: TickDetail; readonly projectId: string }) {
  const { detail } = props;
  const now = useNow();
  if (detail.commit) {
    const c = detail.commit;
    return (
      <section className="card" aria-labelledby="tick-commit-heading" data-testid="tick-committed">
        <h2 id="tick-commit-heading">Committed</h2>
        <p>
          <code className="commit-sha" title={c.commit}>
            {c.commit.slice(0, 12)}
          </code>{' '}
          {c.message.split('\n')[0]}
        </p>
        <p className="muted small">
          {c.paths.length} path{c.paths.length === 1 ? '' : 's'}
          {c.committedAt ? (
            <>
              {' '}
              · <RelativeTime iso={c.committedAt} now={now} />
            </>
          ) : null}
        </p>
      </section>
    );
  }
  if (!detail.commitOffer) return null;
  return <CommitForm offer={detail.commitOffer} runId={detail.runId} projectId={props.projectId} />;
}

function CommitForm(props: { readonly offer: NonNullable<TickDetail['commitOffer']>; readonly runId: string; readonly projectId: string }) {
  const { offer } = props;
  const [message, setMessage] = useState(offer.suggestedMessage);
  const commit = useCommitTick();
  const messageId = useId();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    commit.mutate({ projectId: props.projectId, runId: props.runId, message });
  };
  return (
    <section className="card" aria-labelledby="tick-approve-heading">
      <h2 id="tick-approve-heading">Approve &amp; commit</h2>
      <p className="muted small">The runner does not commit; the next tick is blocked until these changes are committed. This commits only the tick’s touched paths.</p>
      {offer.problem ? <ErrorBox error={offer.problem} title="Committing would be refused now" /> : null}
      {offer.paths.length > 0 ? (
        <ul className="paths" aria-label="Paths to commit">
          {offer.paths.map((p) => (
            <li key={p}>
              <code>{p}</code>
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={submit}>
        <label htmlFor={messageId}>Commit message</label>
        <textarea id={messageId} rows={3} value={message} maxLength={5000} onChange={(e) => setMessage(e.target.value)} />
        <div className="button-row">
          <button type="submit" className="button primary" disabled={commit.isPending || message.trim() === '' || commit.data !== undefined}>
            Approve &amp; commit
          </button>
        </div>
      </form>
      {commit.isError ? <ErrorBox error={commit.error} title="Could not commit" /> : null}
      {commit.data ? <TaskStatus taskId={commit.data.taskId} /> : null}
    </section>
  );
}
