// Why an answer was refused, in a way that leads somewhere: the engine's code and reason, the
// block of the answer it is about, and the lines of the current file closest to what the
// assistant expected (numbered, with how alike they are). The reply for the assistant and the
// retry are actions of the page's action bar.
import type { FailureData } from '../../shared/schemas.js';

export function RefusalCard(props: { readonly error: FailureData; readonly title?: string }) {
  const { error } = props;
  const { closest, block } = error;
  const width = closest ? String(closest.startLine + closest.lines.length - 1).length : 0;
  const reason = error.message.split('\n')[0] ?? error.message;
  const more = error.message.slice(reason.length).trim();
  return (
    <section className="refusal" aria-label="Why it was refused">
      <h2 className="refusal-title">
        {props.title ?? 'Refused'} <code className="error-code">{error.code}</code>
      </h2>
      <p className="refusal-reason">{reason}</p>
      {block ? (
        <p className="muted small">
          The {block.format} block on line {block.line} of the answer{block.path ? (
            <>
              , for <code>{block.path}</code>
            </>
          ) : null}
          .
        </p>
      ) : null}
      {closest ? (
        <figure className="closest">
          <figcaption>
            Closest lines in {block?.path ?? error.path ?? 'the file'} ({Math.round(closest.similarity * 100)}% alike):
          </figcaption>
          <pre className="closest-lines">
            {closest.lines.map((line, i) => (
              <span key={i} className="closest-line">
                <span className="ln" aria-hidden="true">
                  {String(closest.startLine + i).padStart(width)}
                </span>
                {line}
                {'\n'}
              </span>
            ))}
          </pre>
        </figure>
      ) : null}
      {more && !closest ? (
        <details>
          <summary>The engine’s full message</summary>
          <pre className="log">{more}</pre>
        </details>
      ) : null}
    </section>
  );
}
