// The run page's actions (Approve & commit, Revert, Copy reply for the assistant, Retry…) in a
// bar that sticks to the top of the view while the diff scrolls under it: whatever the page's
// length, the decision is one click away and never 2,000 pixels up.
import type { ReactNode } from 'react';
import { href } from '../app/routes';

export function ActionBar(props: { readonly children: ReactNode; readonly below?: ReactNode }) {
  return (
    <section className="action-bar" aria-label="Actions" data-testid="action-bar">
      <div className="action-bar-row">{props.children}</div>
      {props.below ? <div className="action-bar-below">{props.below}</div> : null}
    </section>
  );
}

/** The bar's last action on every run page: ask another agent about this run (pushed to the right). */
export function AskAboutRun(props: { readonly projectId: string; readonly runId: string }) {
  return (
    <>
      <span className="spacer" />
      <a className="button subtle" href={href.ask(props.projectId, props.runId)}>
        Ask a friend about this run
      </a>
    </>
  );
}
