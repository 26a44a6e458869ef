// The approval dialog: opens whenever the runtime holds a patch for a person (announced by
// task.waiting-approval, and found by getRuntimeState when the window opens late). Each file
// can be unchecked (partial approval: unchecked files roll back). Hard to misclick: a native
// modal <dialog>, buttons far apart and inert for a moment after it opens, no plain-Enter
// approve, Esc asks before it rejects, and the linter's verdict above the files.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { RuntimeState } from '../../shared/contract.js';
import type { PatchReview } from '../../shared/schemas.js';
import { DiffModeToggle, FileDiffSection, Stat, useDiffMode } from '../components/DiffView';
import { Badge, ErrorBox, Kbd } from '../components/ui';
import { useApprove, useProjects, useReject, useRuntimeState } from '../data/hooks';
import { queryKeys } from '../data/query-keys';
import { approvalKeep, approveLabel, shortcutLabels } from '../lib/approval';
import { blastOfFiles, formatBlast } from '../lib/blast';
import { RenderedMarkdown } from '../lib/markdown';

/** Clicks and shortcuts are ignored this long after a new approval appears (it may pop up mid-keystroke). */
export const ARM_DELAY_MS = 600;

export interface PendingApproval {
  readonly approvalId: string;
  readonly taskId: string;
  readonly projectId: string;
  readonly review: PatchReview;
}

/** Every approval the runtime holds, project by project. */
export function pendingApprovals(state: RuntimeState | undefined): PendingApproval[] {
  return (state?.projects ?? []).flatMap((p) => p.approvals.map((a) => ({ ...a, projectId: p.projectId })));
}

function ApprovalDialog(props: { readonly approval: PendingApproval; readonly position: number; readonly total: number; readonly projectName: string }) {
  const { approval } = props;
  const { review } = approval;
  const client = useQueryClient();
  const approve = useApprove();
  const reject = useReject();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [armed, setArmed] = useState(false);
  const [checked, setChecked] = useState<ReadonlySet<string>>(() => new Set(review.files.map((f) => f.path)));
  // Esc is easy to press by accident (to close something else): it asks first.
  const [confirmingReject, setConfirmingReject] = useState(false);
  const keepReviewingRef = useRef<HTMLButtonElement>(null);
  const [mode] = useDiffMode();
  const headingId = useId();
  const paths = useMemo(() => review.files.map((f) => f.path), [review.files]);
  const decision = approvalKeep(paths, checked);
  const busy = approve.isPending || reject.isPending || approve.isSuccess || reject.isSuccess;
  const labels = shortcutLabels(navigator.platform);

  useEffect(() => {
    const dialog = dialogRef.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    // Focus the title, not a control: a stray Space or Enter must not toggle or press anything.
    headingRef.current?.focus();
    const timer = setTimeout(() => setArmed(true), ARM_DELAY_MS);
    return () => {
      clearTimeout(timer);
      if (dialog?.open) dialog.close();
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);

  const settled = (): void => void client.invalidateQueries({ queryKey: queryKeys.runtime() });
  const doApprove = (): void => {
    if (!armed || busy || !decision) return;
    approve.mutate({ approvalId: approval.approvalId, ...decision }, { onSettled: settled });
  };
  const doReject = (): void => {
    if (!armed || busy) return;
    reject.mutate({ approvalId: approval.approvalId }, { onSettled: settled });
  };
  const askToReject = (): void => {
    if (!armed || busy) return;
    setConfirmingReject(true);
  };
  const onEscape = (): void => {
    if (confirmingReject) setConfirmingReject(false);
    else askToReject();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>): void => {
    if (event.key === 'Escape') {
      // Handled here so the browser's own Esc (which closes a dialog) never hides an undecided patch.
      event.preventDefault();
      onEscape();
    } else if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      doApprove();
    }
  };
  const toggle = (path: string): void => {
    const next = new Set(checked);
    if (next.has(path)) next.delete(path);
    else next.add(path);
    setChecked(next);
  };
  const blast = blastOfFiles(review.files);
  const linter = review.linter;
  const reasoning = [review.promptSummary, ...review.reasoning].filter((p): p is string => Boolean(p && p.trim())).join('\n\n');

  const askedOnce = useRef(false);
  useEffect(() => {
    // The safe answer has the focus: Enter or Space after Esc keeps the patch under review; when
    // the question goes away, the focus goes back to the title (never to the page behind).
    if (confirmingReject) {
      askedOnce.current = true;
      keepReviewingRef.current?.focus();
    } else if (askedOnce.current) headingRef.current?.focus();
  }, [confirmingReject]);

  return (
    <dialog
      ref={dialogRef}
      className="approval-dialog"
      aria-labelledby={headingId}
      onKeyDown={onKeyDown}
      onCancel={(event) => {
        // Esc while the focus is outside the dialog's controls reaches us as "cancel": same rule.
        event.preventDefault();
        onEscape();
      }}
    >
      <div className="dialog-body">
        <header className="dialog-header">
          <div>
            <p className="muted small">
              {props.projectName} · <code>{approval.projectId}</code>
              {props.total > 1 ? ` · approval ${props.position} of ${props.total}` : ''}
            </p>
            <h2 id={headingId} ref={headingRef} tabIndex={-1}>
              Apply this patch? <span className="muted">{formatBlast(blast)}</span>
            </h2>
          </div>
          <Badge tone={review.reason === 'manual-mode' ? 'neutral' : 'warning'}>
            {review.reason === 'linter-errors' ? 'new linter errors' : review.reason === 'executes-patched-code' ? 'changes code your commands run' : 'waiting for you'}
          </Badge>
        </header>

        {review.reason === 'executes-patched-code' ? (
          <section className="executes-warning tone-danger" aria-label="Code your commands run">
            <strong>This patch changes files that your configured commands run.</strong> Nothing has run yet: the postCommand and the linter run on these files
            only after you approve. Read their diff first.
            <ul>
              {(review.executes ?? []).map((e) => (
                <li key={e.path}>
                  <code>{e.path}</code> — {e.why}
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        {review.gitCommitMsg ? <pre className="commit-message">{review.gitCommitMsg}</pre> : null}

        {linter ? (
          <section className={`linter-verdict ${linter.added > 0 ? 'tone-danger' : 'tone-success'}`} aria-label="Linter result">
            <strong>Linter:</strong> {linter.added > 0 ? `${linter.added} new error${linter.added === 1 ? '' : 's'}` : 'no new errors'} ({linter.errorsBefore} before, {linter.errorsAfter} after)
            {linter.output.trim() ? (
              <details open={linter.added > 0}>
                <summary>Linter output</summary>
                <pre className="log">{linter.output}</pre>
              </details>
            ) : null}
          </section>
        ) : (
          <p className="muted small">No linter is configured for this project.</p>
        )}

        {reasoning ? (
          <details className="reasoning-block">
            <summary>The LLM’s reasoning</summary>
            <RenderedMarkdown text={reasoning} headingOffset={2} />
          </details>
        ) : null}

        {review.warnings.length > 0 ? (
          <ul className="warnings" aria-label="Warnings">
            {review.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        ) : null}

        <div className="card-header">
          <h3>
            Files <span className="muted small">(uncheck a file to roll it back and keep the rest)</span>
          </h3>
          <DiffModeToggle />
        </div>
        <ul className="approval-files" aria-label="Files in this patch">
          {review.files.map((file) => (
            <li key={file.path}>
              <FileDiffSection
                input={file}
                mode={mode}
                defaultOpen={review.files.length <= 4}
                headerExtra={
                  <input type="checkbox" className="keep-box" aria-label={`Keep ${file.path}`} checked={checked.has(file.path)} onChange={() => toggle(file.path)} disabled={busy} />
                }
              />
            </li>
          ))}
        </ul>
        <p className="muted small">
          {checked.size} of {review.files.length} file{review.files.length === 1 ? '' : 's'} kept
          {checked.size < review.files.length ? `: ${review.files.length - checked.size} will be rolled back` : ''}.{' '}
          <Stat added={review.files.filter((f) => checked.has(f.path)).reduce((n, f) => n + f.added, 0)} removed={review.files.filter((f) => checked.has(f.path)).reduce((n, f) => n + f.removed, 0)} />
        </p>
        {approve.isError ? <ErrorBox error={approve.error} title="The approval was not taken" /> : null}
        {reject.isError ? <ErrorBox error={reject.error} title="The rejection was not taken" /> : null}
      </div>
      {confirmingReject ? (
        <footer className="dialog-footer confirm-reject" role="group" aria-label="Reject this patch?">
          <strong>Reject this patch?</strong> <span className="muted small">Every file goes back to how it was.</span>
          <span className="spacer" />
          <button type="button" className="button danger" onClick={doReject} disabled={!armed || busy}>
            {reject.isPending ? 'Rejecting…' : 'Reject patch'}
          </button>
          <button type="button" ref={keepReviewingRef} className="button" onClick={() => setConfirmingReject(false)} disabled={busy}>
            Keep reviewing <Kbd>Esc</Kbd>
          </button>
        </footer>
      ) : (
      <footer className="dialog-footer">
        <button type="button" className="button danger-outline" onClick={doReject} disabled={!armed || busy}>
          {reject.isPending ? 'Rejecting…' : 'Reject'} <Kbd>{labels.reject}</Kbd>
        </button>
        <span className="spacer" />
        {!decision ? <span className="muted small">Check at least one file to approve, or reject.</span> : null}
        <button type="button" className="button primary" onClick={doApprove} disabled={!armed || busy || !decision}>
          {approve.isPending ? 'Approving…' : approveLabel(review.files.length, checked.size)} <Kbd>{labels.approve}</Kbd>
        </button>
      </footer>
      )}
    </dialog>
  );
}

/** Shows the oldest pending approval, if any. */
export function ApprovalHost() {
  const runtime = useRuntimeState();
  const projects = useProjects();
  const approvals = pendingApprovals(runtime.data);
  const current = approvals[0];
  if (!current) return null;
  const name = projects.data?.find((p) => p.projectId === current.projectId)?.name ?? current.projectId;
  // A new key per approval: fresh checkboxes, a fresh arming delay, fresh focus.
  return <ApprovalDialog key={current.approvalId} approval={current} position={1} total={approvals.length} projectName={name} />;
}
