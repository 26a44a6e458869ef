// A patch run: its state and Revert, what the LLM said, the commit message, the linter's
// output and every file's diff.
import { useState } from 'react';
import type { PatchDetail, Run } from '../../../shared/contract.js';
import { href } from '../../app/routes';
import { DiffModeToggle, FileDiffList } from '../../components/DiffView';
import { TaskStatus } from '../../components/TaskStatus';
import { Badge, ErrorBox, FailureBox } from '../../components/ui';
import { useRevert } from '../../data/hooks';
import { verdictLook } from '../../lib/badges';
import { blastOfFiles, formatBlast } from '../../lib/blast';
import { runIdOf } from '../../lib/run-ids';

type RevertMutation = ReturnType<typeof useRevert>;

/**
 * Revert, behind a confirmation. The mutation lives in the panel: once the revert lands, the
 * run's state is no longer "approved", and its progress must stay on screen all the same.
 */
function RevertControl(props: { readonly run: Run; readonly detail: PatchDetail; readonly revert: RevertMutation }) {
  const { revert } = props;
  const [confirming, setConfirming] = useState(false);
  if (revert.data) {
    return (
      <div className="revert-status">
        <TaskStatus taskId={revert.data.taskId} />
      </div>
    );
  }
  if (!confirming) {
    return (
      <button type="button" className="button danger-outline" onClick={() => setConfirming(true)}>
        Revert…
      </button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label="Confirm revert">
      <p>
        Revert this patch? {props.detail.files.length} file{props.detail.files.length === 1 ? '' : 's'} go back to how they were before it, as a new transaction you can revert
        in turn.
      </p>
      <div className="button-row">
        <button type="button" className="button danger" disabled={revert.isPending} onClick={() => revert.mutate({ projectId: props.run.projectId, transaction: props.detail.uuid })}>
          {revert.isPending ? 'Reverting…' : 'Revert patch'}
        </button>
        <button type="button" className="button subtle" onClick={() => setConfirming(false)} disabled={revert.isPending}>
          Keep it
        </button>
      </div>
      {revert.isError ? <ErrorBox error={revert.error} title="The revert was refused" /> : null}
    </div>
  );
}

export function PatchPanel(props: { readonly run: Run; readonly detail: PatchDetail }) {
  const { run, detail } = props;
  const state = verdictLook(detail.state);
  const blast = blastOfFiles(detail.files);
  const revert = useRevert();
  return (
    <div className="panel-stack">
      <section className="card state-card" aria-label="State">
        <div className="state-line">
          <span className="muted">State</span> <Badge tone={state.tone}>{detail.state}</Badge>
          <span className="muted">· {formatBlast(blast)}</span>
          {detail.source ? <span className="muted">· from {detail.source}</span> : null}
          <span className="spacer" />
          {(detail.state === 'approved' && detail.uuid) || revert.data ? <RevertControl run={run} detail={detail} revert={revert} /> : null}
        </div>
        {detail.revertedBy ? (
          <p>
            Reverted by <a href={href.run(runIdOf(run.projectId, 'patch', detail.revertedBy))}>{detail.revertedBy}</a>.
          </p>
        ) : null}
        {detail.revertOf ? (
          <p>
            This transaction reverts <a href={href.run(runIdOf(run.projectId, 'patch', detail.revertOf))}>{detail.revertOf}</a>.
          </p>
        ) : null}
        <p className="muted small">
          Transaction <code>{detail.uuid || '—'}</code>
        </p>
      </section>

      {detail.error ? <FailureBox code={detail.error.code} message={detail.error.message} title="What the engine reported" /> : null}

      {detail.gitCommitMsg ? (
        <section className="card" aria-labelledby="commit-heading">
          <h2 id="commit-heading">Commit message</h2>
          <pre className="commit-message">{detail.gitCommitMsg}</pre>
        </section>
      ) : null}

      {detail.reasoning.length > 0 || detail.promptSummary ? (
        <section className="card" aria-labelledby="reasoning-heading">
          <h2 id="reasoning-heading">The LLM’s reasoning</h2>
          {detail.promptSummary ? <p className="prompt-summary">{detail.promptSummary}</p> : null}
          {detail.reasoning.map((paragraph, i) => (
            <p key={i} className="reasoning">
              {paragraph}
            </p>
          ))}
        </section>
      ) : null}

      {detail.warnings.length > 0 ? (
        <section className="card warning-card" aria-labelledby="warnings-heading">
          <h2 id="warnings-heading">Warnings</h2>
          <ul>
            {detail.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        </section>
      ) : null}

      {detail.linter ? (
        <section className="card" aria-labelledby="linter-heading">
          <h2 id="linter-heading">Linter</h2>
          <p>
            Errors before: <strong>{detail.linter.errorsBefore}</strong> · after: <strong className={detail.linter.errorsAfter > detail.linter.errorsBefore ? 'text-danger' : ''}>{detail.linter.errorsAfter}</strong>
          </p>
          {detail.linter.output.trim() ? <pre className="log">{detail.linter.output}</pre> : <p className="muted">No output.</p>}
        </section>
      ) : null}

      <section className="card" aria-labelledby="files-heading">
        <div className="card-header">
          <h2 id="files-heading">Files changed ({detail.files.length})</h2>
          <DiffModeToggle />
        </div>
        {detail.files.length > 0 ? <FileDiffList files={detail.files} /> : <p className="muted">No files were changed.</p>}
      </section>
    </div>
  );
}
