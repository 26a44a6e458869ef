// One run: its header (what, where, when, outcome) and the panel of its kind (patch and tick
// panels open on the change, with their actions in a bar that stays in view).
import type { RunDetail } from '../../shared/contract.js';
import { href } from '../app/routes';
import { TaskStatus } from '../components/TaskStatus';
import { Badge, Empty, ErrorBox, Loading, RelativeTime, useNow } from '../components/ui';
import { useProjects, useRun } from '../data/hooks';
import { assertNever, kindLabel, statusLook, verdictLook } from '../lib/badges';
import { exactTime, formatDuration } from '../lib/time';
import { StreamedAnswer } from './AskView';
import { HandoffPanel } from './run/HandoffPanel';
import { PatchPanel } from './run/PatchPanel';
import { RelayPanel } from './run/RelayPanel';
import { TickPanel } from './run/TickPanel';

function DetailBody(props: { readonly data: RunDetail }) {
  const { run, detail, detailError } = props.data;
  // Still running: follow it live (stages, streamed output, Cancel); its final detail replaces this.
  if (run.status === 'running' && run.taskId) {
    const streams = run.kind === 'relay' || run.kind === 'review';
    return (
      <TaskStatus taskId={run.taskId} cancellable>
        {streams ? (task) => <StreamedAnswer task={task} /> : undefined}
      </TaskStatus>
    );
  }
  if (!detail) {
    return (
      <>
        {detailError ? <ErrorBox error={{ code: 'DETAIL_UNREADABLE', message: detailError }} title="The run’s file of truth could not be read" /> : null}
        <Empty title="No detail was recorded for this run.">{run.summary ? <p>{run.summary}</p> : null}</Empty>
      </>
    );
  }
  const body = (() => {
    switch (detail.kind) {
      case 'patch':
        return <PatchPanel run={run} detail={detail} />;
      case 'tick':
        return <TickPanel detail={detail} projectId={run.projectId} runId={run.id} />;
      case 'relay':
      case 'review':
        return <RelayPanel detail={detail} />;
      case 'handoff':
        return <HandoffPanel detail={detail} />;
      default:
        return assertNever(detail);
    }
  })();
  return (
    <>
      {detailError ? <ErrorBox error={{ code: 'DETAIL_PARTIAL', message: detailError }} title="Part of this run could not be read" /> : null}
      {body}
    </>
  );
}

function EventsLog(props: { readonly data: RunDetail }) {
  if (props.data.events.length === 0) return null;
  return (
    <details className="card events-log">
      <summary>Runtime events ({props.data.events.length})</summary>
      <ol>
        {props.data.events.map((e) => (
          <li key={e.seq}>
            <span className="muted small">{exactTime(new Date(e.ts).toISOString())}</span> <code>{e.event.type}</code>
            {'code' in e.event ? <> · {String(e.event.code)}</> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}

export function RunDetailView(props: { readonly runId: string }) {
  const query = useRun(props.runId);
  const projects = useProjects();
  const now = useNow();
  if (query.isPending) return <Loading label="Loading the run…" />;
  if (query.isError) {
    return (
      <div className="view">
        <p>
          <a href={href.history()}>← History</a>
        </p>
        <h1 tabIndex={-1}>Run</h1>
        <ErrorBox error={query.error} title="This run could not be loaded" />
      </div>
    );
  }
  const { run } = query.data;
  const project = projects.data?.find((p) => p.projectId === run.projectId);
  const status = statusLook(run.status);
  const verdict = run.verdict ? verdictLook(run.verdict) : null;
  const duration = run.endedAt ? Date.parse(run.endedAt) - Date.parse(run.startedAt) : null;
  return (
    <div className="view view-run">
      <p className="breadcrumb">
        <a href={href.history()}>← History</a>
        <span aria-hidden="true"> / </span>
        <a href={href.history({ projectId: run.projectId })}>{project?.name ?? run.projectId}</a>
      </p>
      <header className="run-header">
        <div className="run-header-badges">
          <Badge tone="info">{kindLabel(run.kind)}</Badge>
          <Badge tone={status.tone}>{status.label}</Badge>
          {verdict ? <Badge tone={verdict.tone}>{verdict.label}</Badge> : null}
          {run.code && run.code !== run.verdict?.toUpperCase() ? <code className="run-code">{run.code}</code> : null}
        </div>
        <h1 tabIndex={-1}>{run.title}</h1>
        <p className="muted">
          Started <RelativeTime iso={run.startedAt} now={now} />
          {duration !== null && duration > 0 ? <> · took {formatDuration(duration)}</> : null}
          {run.file ? (
            <>
              {' '}
              · <code className="small">{run.file}</code>
            </>
          ) : null}
        </p>
        {/* Patch and tick pages carry this link in their action bar. */}
        {query.data.detail?.kind === 'patch' || query.data.detail?.kind === 'tick' ? null : (
          <div className="button-row">
            <a className="button subtle" href={href.ask(run.projectId, run.id)}>
              Ask a friend about this run
            </a>
          </div>
        )}
      </header>
      <DetailBody data={query.data} />
      <EventsLog data={query.data} />
    </div>
  );
}
