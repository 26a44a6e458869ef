// An ask or a review: who answered, what was asked, and the answer.
import type { RunDetail } from '../../../shared/contract.js';
import { CopyButton } from '../../components/CopyButton';
import { FailureBox } from '../../components/ui';
import { RenderedMarkdown } from '../../lib/markdown';

type RelayDetail = Extract<NonNullable<RunDetail['detail']>, { kind: 'relay' | 'review' }>;

export function RelayPanel(props: { readonly detail: RelayDetail }) {
  const { detail } = props;
  return (
    <div className="panel-stack">
      <section className="card" aria-label="Request">
        <p>
          <span className="muted">{detail.kind === 'review' ? 'Review' : 'Ask'} answered by</span> <strong>{detail.backend ?? 'unknown backend'}</strong>
          {detail.usage ? (
            <span className="muted">
              {' '}
              · {detail.usage.inputTokens} in / {detail.usage.outputTokens} out tokens{detail.usage.costUsd !== null ? ` · $${detail.usage.costUsd.toFixed(4)}` : ''}
            </span>
          ) : null}
        </p>
        {detail.prompt ? (
          <>
            <h2>Prompt</h2>
            <pre className="prompt">{detail.prompt}</pre>
          </>
        ) : null}
      </section>
      {detail.error ? <FailureBox code={detail.error.code} message={detail.error.message} title="The relay failed" /> : null}
      <section className="card" aria-labelledby="answer-heading">
        <div className="card-header">
          <h2 id="answer-heading">Answer</h2>
          {detail.text ? <CopyButton label="Copy answer" getText={() => detail.text} className="button small" /> : null}
        </div>
        {detail.text ? <RenderedMarkdown text={detail.text} headingOffset={2} /> : <p className="muted">No answer was recorded.</p>}
      </section>
    </div>
  );
}
