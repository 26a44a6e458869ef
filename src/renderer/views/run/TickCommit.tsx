// "Approve & commit" for a SUCCESS tick: the runner never commits, so the next tick is blocked
// on a dirty work tree until someone does. This commits exactly the tick's touched paths (the
// host refuses, naming the files, when the work tree no longer holds just the tick's change).
// The button lives in the run's action bar; the message form opens under it.
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { TickDetail } from '../../../shared/contract.js';
import { TaskStatus } from '../../components/TaskStatus';
import { ErrorBox, RelativeTime, useNow } from '../../components/ui';
import { useCommitTick } from '../../data/hooks';

function Committed(props: { readonly commit: NonNullable<TickDetail['commit']> }) {
  const c = props.commit;
  const now = useNow();
  return (
    <section className="committed" aria-label="Committed" data-testid="tick-committed">
      <strong>Committed</strong>{' '}
      <code className="commit-sha" title={c.commit}>
        {c.commit.slice(0, 12)}
      </code>{' '}
      {c.message.split('\n')[0]}{' '}
      <span className="muted small">
        · {c.paths.length} path{c.paths.length === 1 ? '' : 's'}
        {c.committedAt ? (
          <>
            {' '}
            · <RelativeTime iso={c.committedAt} now={now} />
          </>
        ) : null}
      </span>
    </section>
  );
}

function CommitForm(props: { readonly offer: NonNullable<TickDetail['commitOffer']>; readonly runId: string; readonly projectId: string; readonly commit: ReturnType<typeof useCommitTick>; readonly onCancel: () => void }) {
  const { offer, commit } = props;
  const [message, setMessage] = useState(offer.suggestedMessage);
  const messageId = useId();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    commit.mutate({ projectId: props.projectId, runId: props.runId, message });
  };
  return (
    <section className="commit-form" aria-label="Approve & commit">
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
            Commit
          </button>
          <button type="button" className="button subtle" onClick={props.onCancel} disabled={commit.isPending}>
            Not now
          </button>
        </div>
      </form>
      {commit.isError ? <ErrorBox error={commit.error} title="Could not commit" /> : null}
      {commit.data ? <TaskStatus taskId={commit.data.taskId} /> : null}
    </section>
  );
}

/** The action bar's "Approve & commit…" button and what opens under it (the form, or the commit made). */
export function useCommitControl(detail: TickDetail, projectId: string): { readonly button: ReactNode; readonly below: ReactNode | null } {
  const commit = useCommitTick();
  const [open, setOpen] = useState(false);
  if (detail.commit) return { button: null, below: <Committed commit={detail.commit} /> };
  if (!detail.commitOffer) return { button: null, below: null };
  const button = (
    <button type="button" className="button primary" aria-expanded={open} onClick={() => setOpen(true)} disabled={open}>
      Approve &amp; commit…
    </button>
  );
  return { button, below: open || commit.data ? <CommitForm offer={detail.commitOffer} runId={detail.runId} projectId={projectId} commit={commit} onCancel={() => setOpen(false)} /> : null };
}
