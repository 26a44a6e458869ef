// A saved handoff brief: where it is, and the brief itself.
import type { RunDetail } from '../../../shared/contract.js';
import { CopyButton } from '../../components/CopyButton';
import { FailureBox } from '../../components/ui';
import { RenderedMarkdown } from '../../lib/markdown';

type HandoffDetail = Extract<NonNullable<RunDetail['detail']>, { kind: 'handoff' }>;

export function HandoffPanel(props: { readonly detail: HandoffDetail }) {
  const { detail } = props;
  return (
    <div className="panel-stack">
      <section className="card" aria-label="Brief">
        <p>
          Brief <code>{detail.briefId ?? '—'}</code> {detail.path ? <>saved as <code>{detail.path}</code></> : null}
        </p>
        {detail.warnings.length > 0 ? (
          <ul className="warnings">
            {detail.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        ) : null}
      </section>
      {detail.error ? <FailureBox code={detail.error.code} message={detail.error.message} title="The brief was not written" /> : null}
      {detail.markdown ? (
        <section className="card" aria-labelledby="brief-heading">
          <div className="card-header">
            <h2 id="brief-heading">The brief</h2>
            <CopyButton label="Copy brief" getText={() => detail.markdown ?? ''} className="button small" />
          </div>
          <RenderedMarkdown text={detail.markdown} headingOffset={2} />
        </section>
      ) : null}
    </div>
  );
}
