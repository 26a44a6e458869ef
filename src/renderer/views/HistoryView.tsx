// History: every run of every project, newest first, in one virtualised list over paged
// queries, so ten thousand runs scroll as smoothly as ten. Filters live in the URL.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import type { Run } from '../../shared/contract.js';
import type { RunKind, RunStatus } from '../../shared/schemas.js';
import { href } from '../app/routes';
import { navigate } from '../app/router';
import { OptionList } from '../components/controls';
import { Stat } from '../components/DiffView';
import { Badge, Empty, ErrorBox, Loading, RelativeTime, useNow } from '../components/ui';
import { useProjects, useRunPages } from '../data/hooks';
import type { RunFilter } from '../data/query-keys';
import { kindLabel, RUN_KINDS, RUN_STATUSES, statusLook, verdictLook } from '../lib/badges';
import { filesLabel, groupDigits, parseBlastSummary } from '../lib/blast';
import { Welcome } from './Welcome';

const ROW_HEIGHT = 64;
/** Start fetching the next page this many rows before the end. */
const PREFETCH_ROWS = 40;

function RunRow(props: { readonly run: Run; readonly projectName: string; readonly now: number }) {
  const { run } = props;
  const blast = parseBlastSummary(run.summary);
  const status = statusLook(run.status);
  const verdict = run.verdict ? verdictLook(run.verdict) : null;
  return (
    <a className="run-row" href={href.run(run.id)} data-run-id={run.id}>
      <span className={`kind-icon kind-${run.kind}`} aria-hidden="true">
        {kindLabel(run.kind).slice(0, 1)}
      </span>
      <span className="run-main">
        <span className="run-title">{run.title}</span>
        <span className="run-sub">
          <span className="run-project">{props.projectName}</span>
          <span aria-hidden="true"> · </span>
          <span>{kindLabel(run.kind)}</span>
          {run.code && run.code !== run.verdict?.toUpperCase() ? (
            <>
              <span aria-hidden="true"> · </span>
              <code className="run-code">{run.code}</code>
            </>
          ) : null}
          {!blast && run.summary ? (
            <>
              <span aria-hidden="true"> · </span>
              <span className="run-summary">{run.summary}</span>
            </>
          ) : null}
        </span>
      </span>
      <span className="run-badges">
        {run.status !== 'done' || !verdict ? <Badge tone={status.tone}>{status.label}</Badge> : null}
        {verdict ? <Badge tone={verdict.tone}>{verdict.label}</Badge> : null}
      </span>
      <span className="run-blast">
        {blast ? (
          <>
            <Stat added={blast.added} removed={blast.removed} />
            <span className="muted"> {filesLabel(blast.files)}</span>
          </>
        ) : null}
      </span>
      <span className="run-time">
        <RelativeTime iso={run.startedAt} now={props.now} />
      </span>
    </a>
  );
}

function FilterBar(props: { readonly filter: RunFilter }) {
  const projects = useProjects();
  const set = (change: Partial<Record<keyof RunFilter, string>>): void => {
    const next: Record<string, string | undefined> = { ...props.filter, ...change };
    const filter: RunFilter = {
      ...(next.projectId ? { projectId: next.projectId } : {}),
      ...(next.kind ? { kind: next.kind as RunKind } : {}),
      ...(next.status ? { status: next.status as RunStatus } : {}),
    };
    navigate(href.history(filter), { replace: true });
  };
  return (
    <div className="filter-bar" role="group" aria-label="Filter runs">
      <label>
        Project
        <select value={props.filter.projectId ?? ''} onChange={(e) => set({ projectId: e.target.value })}>
          <option value="">All projects</option>
          {(projects.data ?? []).map((p) => (
            <option key={p.projectId} value={p.projectId}>
              {p.name === p.projectId ? p.projectId : `${p.name} (${p.projectId})`}
            </option>
          ))}
          {props.filter.projectId && !projects.data?.some((p) => p.projectId === props.filter.projectId) ? <option value={props.filter.projectId}>{props.filter.projectId}</option> : null}
        </select>
      </label>
      <label>
        Kind
        <select value={props.filter.kind ?? ''} onChange={(e) => set({ kind: e.target.value })}>
          <option value="">All kinds</option>
          <OptionList values={RUN_KINDS} label={kindLabel} />
        </select>
      </label>
      <label>
        Status
        <select value={props.filter.status ?? ''} onChange={(e) => set({ status: e.target.value })}>
          <option value="">Any status</option>
          <OptionList values={RUN_STATUSES} />
        </select>
      </label>
      {props.filter.projectId || props.filter.kind || props.filter.status ? (
        <button type="button" className="button subtle" onClick={() => navigate(href.history(), { replace: true })}>
          Clear filters
        </button>
      ) : null}
    </div>
  );
}

function RunList(props: { readonly filter: RunFilter }) {
  const pages = useRunPages(props.filter);
  const projects = useProjects();
  const now = useNow();
  const scrollRef = useRef<HTMLDivElement>(null);
  const runs = useMemo(() => pages.data?.pages.flatMap((p) => p.runs) ?? [], [pages.data]);
  const names = useMemo(() => new Map((projects.data ?? []).map((p) => [p.projectId, p.name])), [projects.data]);
  const hasMore = pages.hasNextPage === true;
  const virtualizer = useVirtualizer({
    count: runs.length + (hasMore ? 1 : 0),
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? 0;
  const { fetchNextPage, isFetchingNextPage } = pages;

  useEffect(() => {
    if (hasMore && !isFetchingNextPage && lastIndex >= runs.length - PREFETCH_ROWS) void fetchNextPage();
  }, [hasMore, isFetchingNextPage, lastIndex, runs.length, fetchNextPage]);

  if (pages.isPending) return <Loading label="Loading history…" />;
  if (pages.isError) return <ErrorBox error={pages.error} title="The history could not be loaded" />;
  if (runs.length === 0) {
    const filtered = Boolean(props.filter.projectId || props.filter.kind || props.filter.status);
    return (
      <Empty title={filtered ? 'No runs match these filters.' : 'No runs yet.'}>
        {filtered ? (
          <a href={href.history()}>Show all runs</a>
        ) : (
          <>
            Register a project in <a href={href.projects()}>Projects</a>, then copy its system prompt into your chat, or <a href={href.paste()}>paste an answer</a>.
          </>
        )}
      </Empty>
    );
  }
  return (
    <>
      <p className="list-count muted" aria-live="polite">
        {groupDigits(runs.length)}
        {hasMore ? '+' : ''} run{runs.length === 1 && !hasMore ? '' : 's'}
        {pages.isFetching && !isFetchingNextPage ? ' · refreshing…' : ''}
      </p>
      <div ref={scrollRef} className="run-list-scroll" data-testid="run-list">
        <div role="list" aria-label="Runs" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const run = runs[item.index];
            return (
              <div
                key={run?.id ?? 'more'}
                role="listitem"
                aria-setsize={hasMore ? -1 : runs.length}
                aria-posinset={item.index + 1}
                className="run-row-wrap"
                style={{ position: 'absolute', top: 0, left: 0, right: 0, height: item.size, transform: `translateY(${item.start}px)` }}
              >
                {run ? <RunRow run={run} projectName={names.get(run.projectId) ?? run.projectId} now={now} /> : <Loading label="Loading more runs…" />}
              </div>
            );
          })}
        </div>
      </div>
    </>
  );
}

export function HistoryView(props: { readonly filter: RunFilter }) {
  const projects = useProjects();
  // The first window: nothing registered yet, so nothing to list; say what the app is for instead.
  if (projects.data && projects.data.length === 0 && !props.filter.projectId && !props.filter.kind && !props.filter.status) return <Welcome />;
  return (
    <div className="view view-history">
      <header className="view-header">
        <h1 tabIndex={-1}>History</h1>
        <FilterBar filter={props.filter} />
      </header>
      {/* A new list per filter: scroll position and pages belong to one query. */}
      <RunList key={JSON.stringify(props.filter)} filter={props.filter} />
    </div>
  );
}
