// A patch run, diff first: its state and evidence in one compact strip, the actions that apply
// (Revert, Copy reply for the assistant, Retry after I edit the file) in a bar that stays in
// view, then the files and their diffs; the refusal (with the closest lines) when the answer was
// refused, and what the LLM said below the change.
import { useState } from 'react';
import type { PatchDetail, Run } from '../../../shared/contract.js';
import { href } from '../../app/routes';
import { ActionBar, AskAboutRun } from '../../components/ActionBar';
import { CopyButton } from '../../components/CopyButton';
import { DiffModeToggle, FileDiffList } from '../../components/DiffView';
import { FileIndex } from '../../components/FileIndex';
import { RefusalCard } from '../../components/RefusalCard';
import { TaskStatus } from '../../components/TaskStatus';
import { Badge, ErrorBox } from '../../components/ui';
import { useRetryAnswer, useRevert } from '../../data/hooks';
import { verdictLook } from '../../lib/badges';
import { blastOfFiles, formatBlast } from '../../lib/blast';
import { RenderedMarkdown } from '../../lib/markdown';
import { runIdOf } from '../../lib/run-ids';

type RevertMutation = ReturnType<typeof useRevert>;

/** Revert behind a confirmation; the confirmation and then the revert's progress open under the bar. */
function useRevertControl(run: Run, detail: PatchDetail, revert: RevertMutation) {
  const [confirming, setConfirming] = useState(false);
  const offered = (detail.state === 'approved' && detail.uuid !== '') || revert.data !== undefined;
  const button = offered ? (
    <button type="button" className="button danger-outline" onClick={() => setConfirming(true)} disabled={confirming || revert.data !== undefined} aria-expanded={confirming && !revert.data}>
      Revert…
    </button>
  ) : null;
  let below = null;
  if (revert.data) {
    below = (
      <div className="revert-status">
        <TaskStatus taskId={revert.data.taskId} />
      </div>
    );
  } else if (confirming) {
    below = (
      <div className="confirm" role="group" aria-label="Confirm revert">
        <p>
          Revert this patch? {detail.files.length} file{detail.files.length === 1 ? '' : 's'} go back to how they were before it, as a new transaction you can revert in turn.
        </p>
        <div className="button-row">
          <button type="button" className="button danger" disabled={revert.isPending} onClick={() => revert.mutate({ projectId: run.projectId, transaction: detail.uuid })}>
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
  return { button, below };
}

/** The evidence of a patch run in one strip: state, size, source, linter, transaction, revert links. */
function PatchEvidence(props: { readonly run: Run; readonly detail: PatchDetail }) {
  const { run, detail } = props;
  const state = verdictLook(detail.state);
  const blast = blastOfFiles(detail.files);
  return (
    <section className="evidence" aria-label="State">
      <div className="evidence-line">
        <Badge tone={state.tone}>{detail.state}</Badge>
        <span>{detail.files.length > 0 ? formatBlast(blast) : 'nothing changed'}</span>
        {detail.source ? <span className="muted">from {detail.source}</span> : null}
        {detail.linter ? (
          <span className={detail.linter.errorsAfter > detail.linter.errorsBefore ? 'text-danger' : 'muted'}>
            linter {detail.linter.errorsBefore} → {detail.linter.errorsAfter} error{detail.linter.errorsAfter === 1 ? '' : 's'}
          </span>
        ) : null}
        <span className="muted small">
          transaction <code>{detail.uuid || '—'}</code>
        </span>
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
    </section>
  );
}

/** "Retry after I edit the file": applies the kept answer again; its progress opens under the bar. */
function useRetryControl(run: Run, detail: PatchDetail) {
  const retry = useRetryAnswer();
  // Once retried, the run may have become the applied one (same transaction id): its progress stays.
  if (detail.answer === null && retry.data === undefined) return { button: null, below: null };
  const button = detail.answer === null ? null : (
    <button type="button" className="button" disabled={retry.isPending || (retry.data !== undefined && !retry.isError)} onClick={() => retry.mutate({ runId: run.id })}>
      {retry.isPending ? 'Retrying…' : 'Retry after I edit the file'}
    </button>
  );
  const below = (
    <>
      {retry.isError ? <ErrorBox error={retry.error} title="The retry was not started" /> : null}
      {retry.data ? (
        <div className="retry-status">
          <TaskStatus key={retry.data.taskId} taskId={retry.data.taskId} />
          <button type="button" className="button small subtle" onClick={() => retry.reset()}>
            Done
          </button>
        </div>
      ) : null}
    </>
  );
  return { button, below: retry.isError || retry.data ? below : null };
}

export function PatchPanel(props: { readonly run: Run; readonly detail: PatchDetail }) {
  const { run, detail } = props;
  const revert = useRevert();
  const revertControl = useRevertControl(run, detail, revert);
  const retryControl = useRetryControl(run, detail);
  const error = detail.error;
  const rejectedByPerson = error?.code === 'REJECTED';
  const reasoning = [detail.promptSummary, ...detail.reasoning].filter((p): p is string => Boolean(p && p.trim())).join('\n\n');
  return (
    <div className="panel-stack">
      <PatchEvidence run={run} detail={detail} />
      <ActionBar
        below={
          revertControl.below || retryControl.below ? (
            <>
              {revertControl.below}
              {retryControl.below}
            </>
          ) : undefined
        }
      >
        {revertControl.button}
        {error?.reply ? <CopyButton label="Copy reply for the assistant" className="button primary" getText={() => error.reply ?? ''} copiedLabel="Reply copied ✓" /> : null}
        {retryControl.button}
        <AskAboutRun projectId={run.projectId} runId={run.id} />
      </ActionBar>

      {error ? <RefusalCard error={error} title={rejectedByPerson ? 'You rejected this patch' : detail.state === 'rolled-back' ? 'Rolled back' : 'The answer was refused'} /> : null}

      <section className="card" aria-labelledby="files-heading">
        <div className="card-header">
          <h2 id="files-heading">Files changed ({detail.files.length})</h2>
          {detail.files.length > 0 ? <DiffModeToggle /> : null}
        </div>
        {detail.files.length > 0 ? (
          <>
            <FileIndex files={detail.files} />
            <FileDiffList files={detail.files} />
          </>
        ) : (
          <p className="muted">{error ? 'Nothing was changed: every file is as it was.' : 'No files were changed.'}</p>
        )}
      </section>

      {detail.gitCommitMsg ? (
        <section className="card" aria-labelledby="commit-heading">
          <h2 id="commit-heading">Commit message</h2>
          <pre className="commit-message">{detail.gitCommitMsg}</pre>
        </section>
      ) : null}

      {reasoning ? (
        <section className="card" aria-labelledby="reasoning-heading">
          <h2 id="reasoning-heading">The LLM’s reasoning</h2>
          <RenderedMarkdown text={reasoning} className="reasoning" headingOffset={2} />
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
            Errors before: <strong>{detail.linter.errorsBefore}</strong> · after:{' '}
            <strong className={detail.linter.errorsAfter > detail.linter.errorsBefore ? 'text-danger' : ''}>{detail.linter.errorsAfter}</strong>
          </p>
          {detail.linter.output.trim() ? <pre className="log">{detail.linter.output}</pre> : <p className="muted">No output.</p>}
        </section>
      ) : null}
    </div>
  );
}
