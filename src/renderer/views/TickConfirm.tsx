// The confirmation before a tick spends anything: what the preflight says now (the same one
// `relais run` goes through, so a tick it would refuse is refused here, with the same code), the
// attempt limits, the milestone's budget left, what ticks spent today and what this project's
// recent ticks cost. Start is only offered when the preflight lets the tick start.
import { useEffect, useId, useRef } from 'react';
import type { TickPreviewData } from '../../shared/contract.js';
import { ErrorBox, Loading } from '../components/ui';
import { useTickPreview } from '../data/hooks';
import { formatUsd } from '../lib/tick-report';

const COUNTER_LABEL = { ticks: 'ticks', orchestrator_calls: 'orchestrator calls', builder_calls: 'builder calls', verify_runs: 'verification runs', estimated_cost_usd: 'estimated cost' } as const;

function amount(counter: keyof typeof COUNTER_LABEL, n: number): string {
  return counter === 'estimated_cost_usd' ? formatUsd(n) : String(n);
}

function Spend(props: { readonly preview: TickPreviewData }) {
  const { limits, budget, today, recent } = props.preview;
  const cost = budget?.lines.find((l) => l.counter === 'estimated_cost_usd');
  const ticks = budget?.lines.find((l) => l.counter === 'ticks');
  return (
    <dl className="spend">
      {limits ? (
        <>
          <dt>This tick may spend</dt>
          <dd>
            up to <strong>{formatUsd(limits.worstCaseUsd)}</strong>: {limits.orchestratorCalls} orchestrator call{limits.orchestratorCalls === 1 ? '' : 's'} (≤ {formatUsd(limits.orchestratorMaxBudgetUsd)} and {limits.orchestratorMaxTurns} turn
            {limits.orchestratorMaxTurns === 1 ? '' : 's'} each), {limits.builderCalls} builder call (≤ {formatUsd(limits.builderMaxBudgetUsd)}, {limits.builderMaxTurns} turns), up to {limits.verifyRuns} verification command
            {limits.verifyRuns === 1 ? '' : 's'}; stopped after {Math.round(limits.maxTickSeconds / 60)} min.
          </dd>
        </>
      ) : null}
      {budget && cost && ticks ? (
        <>
          <dt>Budget left (milestone {budget.milestoneId})</dt>
          <dd>
            <strong>{formatUsd(cost.left)}</strong> of {formatUsd(cost.limit)}; {ticks.left} of {ticks.limit} ticks
            {budget.lines
              .filter((l) => l.counter !== 'ticks' && l.counter !== 'estimated_cost_usd' && l.left < l.limit * 0.2)
              .map((l) => `; ${amount(l.counter, l.left)} ${COUNTER_LABEL[l.counter]} left`)
              .join('')}
          </dd>
        </>
      ) : null}
      <dt>Spent today</dt>
      <dd>
        {formatUsd(today.costUsd)} over {today.ticks} tick{today.ticks === 1 ? '' : 's'}
      </dd>
      <dt>A recent tick costs</dt>
      <dd>{recent.medianCostUsd !== null ? `${formatUsd(recent.medianCostUsd)} (median of the last ${recent.ticks})` : 'no tick of this project has reported a cost yet'}</dd>
    </dl>
  );
}

/** A modal confirmation for one project's tick; `onStart` runs it, `onClose` dismisses. */
export function TickConfirm(props: { readonly projectId: string; readonly projectName: string; readonly onStart: () => void; readonly onClose: () => void; readonly starting: boolean }) {
  const preview = useTickPreview(props.projectId);
  const dialogRef = useRef<HTMLDialogElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const { onClose } = props;
  useEffect(() => {
    const dialog = dialogRef.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    headingRef.current?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      if (opener && document.contains(opener)) opener.focus();
    };
  }, []);
  const data = preview.data;
  const ready = data?.preflight.ready === true;
  return (
    <dialog
      ref={dialogRef}
      className="tick-confirm"
      aria-labelledby={headingId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="dialog-body">
        <h2 id={headingId} ref={headingRef} tabIndex={-1}>
          Run a tick in {props.projectName}?
        </h2>
        {preview.isPending ? <Loading label="Checking whether a tick can start…" /> : null}
        {preview.isError ? <ErrorBox error={preview.error} title="The tick cannot be checked" /> : null}
        {data && !data.preflight.ready ? (
          <div className="error-box" role="alert" data-testid="tick-refused">
            <div className="error-title">The tick would be refused, as `relais run` refuses it</div>
            <div>
              <code className="error-code">{data.preflight.code}</code> <span className="error-message">{data.preflight.reason}</span>
            </div>
            <p className="small">{data.preflight.remediation}</p>
            {data.preflight.details.length > 0 ? (
              <ul className="small">
                {data.preflight.details.map((d, i) => (
                  <li key={i}>{d}</li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
        {data ? <Spend preview={data} /> : null}
        {data?.preflight.ready && data.preflight.warnings.length > 0 ? (
          <ul className="warnings" aria-label="Warnings">
            {data.preflight.warnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <footer className="dialog-footer">
        <span className="muted small">Cancel stops it at any time; what it changed is rolled back.</span>
        <span className="spacer" />
        <button type="button" className="button subtle" onClick={onClose}>
          {ready ? 'Not now' : 'Close'}
        </button>
        {ready ? (
          <button type="button" className="button primary" onClick={props.onStart} disabled={props.starting}>
            {props.starting ? 'Starting…' : 'Start tick'}
          </button>
        ) : null}
      </footer>
    </dialog>
  );
}
