// A tick run: the verdict and code first (what people open it for), then the blast radius,
// scope, verification with logs, budgets, REPORT.md and the diff.
import type { TickDetail } from '../../../shared/contract.js';
import { DiffModeToggle, PatchTextDiff, Stat } from '../../components/DiffView';
import { Badge } from '../../components/ui';
import { filesLabel } from '../../lib/blast';
import { RenderedMarkdown } from '../../lib/markdown';
import { budgetMeters, readTickReport, type BudgetMeter } from '../../lib/tick-report';
import { formatDuration } from '../../lib/time';
import { TickCommitCard } from './TickCommit';

function Meter(props: { readonly meter: BudgetMeter }) {
  const { meter } = props;
  return (
    <div className={`meter meter-${meter.level}`}>
      <div className="meter-label">
        <span>{meter.label}</span>
        <span className="muted">{meter.text}</span>
      </div>
      <div className="meter-track" role="meter" aria-label={meter.label} aria-valuemin={0} aria-valuemax={meter.limit} aria-valuenow={meter.used} aria-valuetext={meter.text}>
        <div className="meter-fill" style={{ width: `${Math.round(meter.fraction * 100)}%` }} />
      </div>
    </div>
  );
}

const VERDICT_TONE = { success: 'success', stop: 'danger', blocked: 'warning' } as const;

export function TickPanel(props: { readonly detail: TickDetail; readonly projectId: string }) {
  const { detail } = props;
  const report = readTickReport(detail);
  const budgets = budgetMeters(detail.state, report.milestoneId, detail.budgetLimits);
  const tone = report.verdict ? VERDICT_TONE[report.verdict] : 'neutral';
  return (
    <div className="panel-stack">
      <section className={`verdict-banner tone-${tone}`} aria-label="Verdict">
        <div className="verdict-word">{report.verdict ? report.verdict.toUpperCase() : 'NO REPORT'}</div>
        {/* SUCCESS is both a verdict and its code: the code is shown when it says more. */}
        <div className="verdict-code">{report.code && report.code !== report.verdict?.toUpperCase() ? <code>{report.code}</code> : null}</div>
        <div className="verdict-meta">
          {report.intent ? <p className="verdict-intent">{report.intent}</p> : null}
          <p className="muted small">
            {report.taskId ? <>Task {report.taskId} · </> : null}
            {report.taskKind ? <>{report.taskKind} · </> : null}
            {report.milestoneId ? <>milestone {report.milestoneId} · </> : null}
            run {detail.runId}
            {report.durationMs !== null ? <> · took {formatDuration(report.durationMs)}</> : null}
          </p>
        </div>
      </section>

      <TickCommitCard detail={detail} projectId={props.projectId} />

      <div className="grid-2">
        <section className="card" aria-labelledby="blast-heading">
          <h2 id="blast-heading">Blast radius</h2>
          {report.blast ? (
            <p className="blast-big">
              <Stat added={report.blast.added} removed={report.blast.removed} /> <span className="muted">in {filesLabel(report.blast.files)}</span>
              {report.blast.created > 0 ? <span className="muted"> · {report.blast.created} new</span> : null}
            </p>
          ) : (
            <p className="muted">Not measured.</p>
          )}
          {report.baseCommit ? (
            <p className="muted small">
              <code>{report.baseCommit.slice(0, 10)}</code> → <code>{report.headCommit?.slice(0, 10) ?? '?'}</code>
            </p>
          ) : null}
        </section>

        <section className="card" aria-labelledby="scope-heading">
          <h2 id="scope-heading">Scope</h2>
          {report.scope ? (
            <>
              {report.scope.ok ? <p><Badge tone="success">in scope</Badge></p> : <p><Badge tone="danger">{report.scope.violations.length} violation{report.scope.violations.length === 1 ? '' : 's'}</Badge></p>}
              {report.scope.violations.length > 0 ? (
                <ul className="violations" aria-label="Scope violations">
                  {report.scope.violations.map((v, i) => (
                    <li key={i}>{v}</li>
                  ))}
                </ul>
              ) : null}
              {report.scope.touched.length > 0 ? (
                <details>
                  <summary>Touched paths ({report.scope.touched.length})</summary>
                  <ul className="paths">
                    {report.scope.touched.map((p) => (
                      <li key={p}>
                        <code>{p}</code>
                      </li>
                    ))}
                  </ul>
                </details>
              ) : null}
            </>
          ) : (
            <p className="muted">Not judged.</p>
          )}
        </section>
      </div>

      <section className="card" aria-labelledby="verify-heading">
        <h2 id="verify-heading">Verification</h2>
        {report.verification.length === 0 ? (
          <p className="muted">No verification ran.</p>
        ) : (
          <ul className="verify-runs">
            {report.verification.map((run, i) => (
              <li key={i} className={run.passed ? 'passed' : 'failed'}>
                <details open={!run.passed}>
                  <summary>
                    <Badge tone={run.passed ? 'success' : 'danger'}>{run.timedOut ? 'timed out' : run.passed ? 'passed' : `exit ${run.exitCode ?? '?'}`}</Badge> <strong>{run.templateId}</strong> <span className="muted">({run.phase})</span>{' '}
                    <code className="small">{run.command}</code> {run.durationMs !== null ? <span className="muted small">{formatDuration(run.durationMs)}</span> : null}
                  </summary>
                  {run.log !== null ? <pre className="log">{run.log || '(no output)'}</pre> : <p className="muted small">No log for this command.</p>}
                </details>
              </li>
            ))}
          </ul>
        )}
        {detail.verifyLog && report.verification.length === 0 ? <pre className="log">{detail.verifyLog}</pre> : null}
      </section>

      <section className="card" aria-labelledby="budget-heading">
        <h2 id="budget-heading">Budgets{budgets.milestoneId ? ` · milestone ${budgets.milestoneId}` : ''}</h2>
        {budgets.meters.length > 0 ? (
          <div className="meters">
            {budgets.meters.map((m) => (
              <Meter key={m.counter} meter={m} />
            ))}
          </div>
        ) : (
          <p className="muted">No budget data (STATE.json or relais.config.json is missing or unreadable).</p>
        )}
        {report.budgetWarnings.length > 0 ? (
          <ul className="warnings">
            {report.budgetWarnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        ) : null}
      </section>

      <section className="card" aria-labelledby="report-heading">
        <h2 id="report-heading">REPORT.md</h2>
        {detail.reportMarkdown ? <RenderedMarkdown text={detail.reportMarkdown} className="report-md" /> : <p className="muted">This tick wrote no report.</p>}
      </section>

      {detail.diffPatch ? (
        <section className="card" aria-labelledby="tick-diff-heading">
          <div className="card-header">
            <h2 id="tick-diff-heading">Diff</h2>
            <DiffModeToggle />
          </div>
          <PatchTextDiff text={detail.diffPatch} />
        </section>
      ) : null}
    </div>
  );
}
