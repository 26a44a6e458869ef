// "Hand off": preview the brief a new session in another provider would start from, see how
// it validates (saving: secrets only; dispatching: sections, hard cap, secrets), copy it, save
// it, dispatch it. Dispatching starts an interactive agent, which a window cannot host: after
// saving, "Start in a terminal" opens the user's terminal running the exact
// `relay handoff --resume … --to …` command (the CLI dispatches); the command stays there to copy.
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { HandoffPreview, HandoffValidation } from '../../shared/contract.js';
import { href } from '../app/routes';
import { OptionList } from '../components/controls';
import { CopyButton } from '../components/CopyButton';
import { TaskStatus } from '../components/TaskStatus';
import { Badge, ErrorBox, Loading } from '../components/ui';
import { relayCall } from '../data/client';
import { useBuildHandoff, useLiveTask, useProjects, useStartHandoffInTerminal } from '../data/hooks';
import { queryKeys } from '../data/query-keys';
import { groupDigits } from '../lib/blast';
import { RenderedMarkdown } from '../lib/markdown';
import { handoffDispatchCommand } from '../lib/shell';

const TARGETS = ['claude', 'codex'] as const;

function ValidationList(props: { readonly title: string; readonly what: string; readonly report: HandoffValidation }) {
  const { report } = props;
  return (
    <section className={`validation card tone-${report.ok ? (report.warnings.length > 0 ? 'warning' : 'success') : 'danger'}`} aria-label={props.title}>
      <h2>
        {props.title} <Badge tone={report.ok ? 'success' : 'danger'}>{report.ok ? 'passes' : 'refused'}</Badge>
      </h2>
      <p className="muted small">{props.what}</p>
      {report.errors.length === 0 && report.warnings.length === 0 ? <p className="small">No findings.</p> : null}
      <ul className="issues">
        {report.errors.map((issue, i) => (
          <li key={`e${i}`} className="issue-error">
            <code className="error-code">{issue.code}</code> {issue.message}
          </li>
        ))}
        {report.warnings.map((issue, i) => (
          <li key={`w${i}`} className="issue-warning">
            <code>{issue.code}</code> {issue.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

function TokenGauge(props: { readonly preview: HandoffPreview }) {
  const { tokens, softCap, hardCap } = props.preview;
  const level = tokens > hardCap ? 'over' : tokens > softCap ? 'warn' : 'ok';
  return (
    <div className={`meter meter-${level}`}>
      <div className="meter-label">
        <span>Size</span>
        <span className="muted">
          ~{groupDigits(tokens)} tokens (soft cap {groupDigits(softCap)}, hard cap {groupDigits(hardCap)})
        </span>
      </div>
      <div className="meter-track" role="meter" aria-label="Brief size in tokens" aria-valuemin={0} aria-valuemax={hardCap} aria-valuenow={Math.min(tokens, hardCap)}>
        <div className="meter-fill" style={{ width: `${Math.min(100, Math.round((tokens / hardCap) * 100))}%` }} />
      </div>
    </div>
  );
}

function SavedBrief(props: { readonly taskId: string; readonly projectId: string; readonly root: string; readonly target: string | null }) {
  const task = useLiveTask(props.taskId);
  const [to, setTo] = useState<string>(props.target ?? 'claude');
  const start = useStartHandoffInTerminal();
  const toId = useId();
  const result = task?.result?.kind === 'handoff' ? task.result.handoff : null;
  return (
    <TaskStatus taskId={props.taskId}>
      {() =>
        result ? (
          <section className="card" aria-label="Continue in a terminal">
            <p>
              Saved <code>{result.path}</code>
              {result.tokens !== null ? ` (~${groupDigits(result.tokens)} tokens)` : ''}.
            </p>
            <p className="muted small">
              Starting the new session is interactive: it runs in your terminal, not in this window. “Start in a terminal” opens yours running this command (or copy it): it
              re-reads the brief’s working memory, rebuilds it from the history as it is then, and starts the agent seeded with it:
            </p>
            <div className="inline-form">
              <label htmlFor={toId}>Agent</label>
              <select
                id={toId}
                value={to}
                onChange={(e) => {
                  setTo(e.target.value);
                  start.reset();
                }}
              >
                <OptionList values={TARGETS} />
              </select>
            </div>
            <pre className="command" aria-label="Dispatch command">
              {handoffDispatchCommand(props.root, result.briefId, to)}
            </pre>
            <div className="button-row">
              <button type="button" className="button primary small" disabled={start.isPending} onClick={() => start.mutate({ projectId: props.projectId, briefId: result.briefId, target: to })}>
                {start.isPending ? 'Starting…' : 'Start in a terminal'}
              </button>
              <CopyButton label="Copy command" getText={() => handoffDispatchCommand(props.root, result.briefId, to)} className="button small" />
            </div>
            {start.isSuccess ? (
              <p className="success-line" role="status">
                Started {start.variables.target} in {start.data.launched}.
              </p>
            ) : null}
            {start.isError ? <ErrorBox error={start.error} title="The terminal was not started" /> : null}
          </section>
        ) : null
      }
    </TaskStatus>
  );
}

export function HandoffView(props: { readonly projectId: string }) {
  const projects = useProjects();
  const [target, setTarget] = useState<string>('');
  const [showRaw, setShowRaw] = useState(false);
  const build = useBuildHandoff();
  const targetId = useId();
  const project = projects.data?.find((p) => p.projectId === props.projectId);
  const preview = useQuery({
    queryKey: queryKeys.handoffPreview(props.projectId, target || null),
    queryFn: () => relayCall('previewHandoff', { projectId: props.projectId, ...(target ? { target } : {}) }),
    // A preview is a snapshot: refreshed when the project's history changes (task events), not on a timer.
    staleTime: Infinity,
  });
  const data = preview.data;
  return (
    <div className="view view-handoff">
      <p className="breadcrumb">
        <a href={href.projects()}>← Projects</a>
      </p>
      <header className="view-header">
        <h1 tabIndex={-1}>
          Hand off <span className="muted">· {project?.name ?? props.projectId}</span>
        </h1>
        <div className="inline-form">
          <label htmlFor={targetId}>For</label>
          <select id={targetId} value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">any agent</option>
            {TARGETS.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
          <button type="button" className="button subtle" onClick={() => void preview.refetch()} disabled={preview.isFetching}>
            {preview.isFetching ? 'Rebuilding…' : 'Rebuild preview'}
          </button>
        </div>
      </header>
      <p className="muted">
        A brief of this project’s recorded work (patches, ticks, answers, commits), so a session in another provider can carry on. Nothing is written until you save it.
      </p>
      {preview.isPending ? <Loading label="Building the brief…" /> : null}
      {preview.isError ? <ErrorBox error={preview.error} title="The brief could not be built" /> : null}
      {data ? (
        <>
          <div className="grid-2">
            <section className="card" aria-label="Brief summary">
              <TokenGauge preview={data} />
              <p className="small">
                Working memory:{' '}
                {data.workingMemory.status === 'provided' ? (
                  <Badge tone="success">from {data.workingMemory.fromBriefId}</Badge>
                ) : (
                  <Badge tone="warning">missing ({data.workingMemory.reason})</Badge>
                )}
              </p>
              <table className="sections-table">
                <thead>
                  <tr>
                    <th scope="col">Section</th>
                    <th scope="col">Tokens</th>
                    <th scope="col">Budget</th>
                  </tr>
                </thead>
                <tbody>
                  {data.sections.map((s) => (
                    <tr key={s.id}>
                      <td>
                        {s.title}
                        {s.truncated ? <span className="muted small"> (trimmed{s.omitted > 0 ? `, ${s.omitted} left out` : ''})</span> : null}
                      </td>
                      <td>{groupDigits(s.tokens)}</td>
                      <td className="muted">{groupDigits(s.budget)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
            <div className="panel-stack">
              <ValidationList title="Saving" what="PERMISSIVE: secrets only; the soft cap is a warning." report={data.permissive} />
              <ValidationList title="Dispatching" what="STRICT: required sections, the hard cap (relay handoff --force overrides it), secrets (no override)." report={data.strict} />
            </div>
          </div>

          <div className="button-row">
            {data.markdown !== null ? <CopyButton label="Copy brief" getText={() => data.markdown ?? ''} className="button" /> : null}
            <button type="button" className="button primary" disabled={!data.permissive.ok || build.isPending} onClick={() => build.mutate({ projectId: props.projectId, ...(target ? { target } : {}) })}>
              {build.isPending ? 'Saving…' : 'Save brief'}
            </button>
            {!data.permissive.ok ? <span className="muted small">Remove the secret from the record it comes from, then rebuild.</span> : null}
          </div>
          {build.isError ? <ErrorBox error={build.error} title="The brief was not saved" /> : null}
          {build.data && project ? <SavedBrief key={build.data.taskId} taskId={build.data.taskId} projectId={props.projectId} root={project.root} target={target || null} /> : null}

          {data.markdown !== null ? (
            <section className="card" aria-labelledby="brief-preview-heading">
              <div className="card-header">
                <h2 id="brief-preview-heading">Preview</h2>
                <div className="segmented" role="radiogroup" aria-label="Brief view">
                  <button type="button" role="radio" aria-checked={!showRaw} className={!showRaw ? 'active' : ''} onClick={() => setShowRaw(false)}>
                    Rendered
                  </button>
                  <button type="button" role="radio" aria-checked={showRaw} className={showRaw ? 'active' : ''} onClick={() => setShowRaw(true)}>
                    Markdown
                  </button>
                </div>
              </div>
              {showRaw ? <pre className="log brief-raw">{data.markdown}</pre> : <RenderedMarkdown text={data.markdown} headingOffset={2} />}
            </section>
          ) : (
            <ErrorBox error={{ code: 'BRIEF_REFUSED', message: 'The brief holds secret-looking text, so it is not shown. The findings above name the pattern and the line.' }} />
          )}
        </>
      ) : null}
    </div>
  );
}
