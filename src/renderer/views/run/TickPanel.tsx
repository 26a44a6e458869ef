// A tick run, diff first: the verdict and its evidence (code, intent, blast radius, scope,
// checks, cost) in one compact strip, "Approve & commit" in a bar that stays in view, then tabs:
// the changes (file list and diff) open first, the checks (scope, verification with logs,
// budgets as of this tick) and REPORT.md each in their own tab, so nothing is said twice.
import { useMemo, useState } from 'react';
import type { TickDetail } from '../../../shared/contract.js';
import { ActionBar, AskAboutRun } from '../../components/ActionBar';
import { DiffModeToggle, PatchTextDiff, Stat } from '../../components/DiffView';
import { FileIndex } from '../../components/FileIndex';
import { Tabs } from '../../components/Tabs';
import { Badge } from '../../components/ui';
import { filesLabel } from '../../lib/blast';
import { parseUnifiedDiff } from '../../lib/diff-rows';
import { RenderedMarkdown } from '../../lib/markdown';
import { budgetMetersAsOfTick, formatUsd, readTickReport, tickCostUsd, type BudgetMeter, type TickReportView } from '../../lib/tick-report';
import { formatDuration } from '../../lib/time';
import { useCommitControl } from './TickCommit';

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

/** The verdict and what it rests on, in one strip. */
function TickEvidence(props: { readonly detail: TickDetail; readonly report: TickReportView }) {
  const { detail, report } = props;
  const tone = report.verdict ? VERDICT_TONE[report.verdict] : 'neutral';
  const cost = tickCostUsd(detail.meta);
  const failed = report.verification.filter((r) => !r.passed).length;
  return (
    <section className={`verdict-banner tone-${tone}`} aria-label="Verdict">
      <div className="verdict-word">{report.verdict ? report.verdict.toUpperCase() : 'NO REPORT'}</div>
      <div className="verdict-meta">
        {/* SUCCESS is both a verdict and its code: the code is shown when it says more. */}
        {report.code && report.code !== report.verdict?.toUpperCase() ? <code className="verdict-code">{report.code}</code> : null}
        {report.intent ? <p className="verdict-intent">{report.intent}</p> : null}
        <p className="evidence-line">
          {report.blast ? (
            <span>
              <Stat added={report.blast.added} removed={report.blast.removed} /> in {filesLabel(report.blast.files)}
              {report.blast.created > 0 ? `, ${report.blast.created} new` : ''}
            </span>
          ) : null}
          {report.scope ? <Badge tone={report.scope.ok ? 'success' : 'danger'}>{report.scope.ok ? 'in scope' : `${report.scope.violations.length} scope violation${report.scope.violations.length === 1 ? '' : 's'}`}</Badge> : null}
          {report.verification.length > 0 ? (
            <Badge tone={failed === 0 ? 'success' : 'danger'}>{failed === 0 ? `${report.verification.length} check${report.verification.length === 1 ? '' : 's'} passed` : `${failed} of ${report.verification.length} checks failed`}</Badge>
          ) : null}
          {cost !== null ? <span>cost {formatUsd(cost)}</span> : null}
          {report.durationMs !== null ? <span className="muted">took {formatDuration(report.durationMs)}</span> : null}
        </p>
        <p className="muted small">
          {report.taskId ? <>Task {report.taskId} · </> : null}
          {report.taskKind ? <>{report.taskKind} · </> : null}
          {report.milestoneId ? <>milestone {report.milestoneId} · </> : null}
          run {detail.runId}
          {report.baseCommit ? (
            <>
              {' '}
              · <code>{report.baseCommit.slice(0, 10)}</code> → <code>{report.headCommit?.slice(0, 10) ?? '?'}</code>
            </>
          ) : null}
        </p>
      </div>
    </section>
  );
}

function ChecksTab(props: { readonly detail: TickDetail; readonly report: TickReportView }) {
  const { detail, report } = props;
  const budgets = budgetMetersAsOfTick(detail.report, detail.budgetLimits);
  return (
    <div className="panel-stack">
      <section className="card" aria-labelledby="scope-heading">
        <h2 id="scope-heading">Scope</h2>
        {report.scope ? (
          <>
            {report.scope.violations.length > 0 ? (
              <ul className="violations" aria-label="Scope violations">
                {report.scope.violations.map((v, i) => (
                  <li key={i}>{v}</li>
                ))}
              </ul>
            ) : (
              <p>Every touched path is in the task’s scope.</p>
            )}
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
                    <Badge tone={run.passed ? 'success' : 'danger'}>{run.timedOut ? 'timed out' : run.passed ? 'passed' : `exit ${run.exitCode ?? '?'}`}</Badge> <strong>{run.templateId}</strong>{' '}
                    <span className="muted">({run.phase})</span> <code className="small">{run.command}</code> {run.durationMs !== null ? <span className="muted small">{formatDuration(run.durationMs)}</span> : null}
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
        <h2 id="budget-heading">Budgets{budgets.milestoneId ? ` · milestone ${budgets.milestoneId}` : ''} · as of this tick</h2>
        {budgets.meters.length > 0 ? (
          <div className="meters">
            {budgets.meters.map((m) => (
              <Meter key={m.counter} meter={m} />
            ))}
          </div>
        ) : (
          <p className="muted">This tick’s report holds no budget figures (or relais.config.json cannot be read for the caps).</p>
        )}
        {report.budgetWarnings.length > 0 ? (
          <ul className="warnings">
            {report.budgetWarnings.map((w, i) => (
              <li key={i}>{w}</li>
            ))}
          </ul>
        ) : null}
      </section>
    </div>
  );
}

type TickTab = 'changes' | 'checks' | 'report';

export function TickPanel(props: { readonly detail: TickDetail; readonly projectId: string; readonly runId: string }) {
  const { detail } = props;
  const report = readTickReport(detail);
  const files = useMemo(() => (detail.diffPatch ? parseUnifiedDiff(detail.diffPatch) : []), [detail.diffPatch]);
  const [tab, setTab] = useState<TickTab>('changes');
  const commit = useCommitControl(detail, props.projectId);
  return (
    <div className="panel-stack">
      <TickEvidence detail={detail} report={report} />
      <ActionBar below={commit.below ?? undefined}>
        {commit.button}
        <AskAboutRun projectId={props.projectId} runId={props.runId} />
      </ActionBar>
      <Tabs
        label="Tick"
        selected={tab}
        onSelect={setTab}
        tabs={[
          { key: 'changes', label: `Changes (${filesLabel(files.length)})` },
          { key: 'checks', label: 'Checks' },
          { key: 'report', label: 'REPORT.md' },
        ]}
      >
        {tab === 'changes' ? (
          <section aria-labelledby="tick-diff-heading" className="card">
            <div className="card-header">
              <h2 id="tick-diff-heading">Diff</h2>
              {files.length > 0 ? <DiffModeToggle /> : null}
            </div>
            {files.length > 0 ? (
              <>
                <FileIndex files={files.map((f) => ({ path: f.path, added: f.added, removed: f.removed, change: f.oldPath === null ? 'create' : f.newPath === null ? 'delete' : 'modify' }))} />
                <PatchTextDiff files={files} />
              </>
            ) : (
              <p className="muted">{detail.diffPatch === null ? 'No diff was kept for this tick.' : 'This tick changed no tracked file.'}</p>
            )}
          </section>
        ) : tab === 'checks' ? (
          <ChecksTab detail={detail} report={report} />
        ) : (
          <section className="card" aria-labelledby="report-heading">
            <h2 id="report-heading" className="visually-hidden">
              REPORT.md
            </h2>
            {detail.reportMarkdown ? <RenderedMarkdown text={detail.reportMarkdown} className="report-md" headingOffset={2} /> : <p className="muted">This tick wrote no report.</p>}
          </section>
        )}
      </Tabs>
    </div>
  );
}
