// Projects: add a folder, and per project its settings (approval policy, linter,
// clipboard watching), its system prompt, and the ways to start work on it.
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ApprovalPolicy, Project } from '../../shared/schemas.js';
import { href } from '../app/routes';
import { SettingSwitch } from '../components/controls';
import { CopyButton } from '../components/CopyButton';
import { TaskStatus } from '../components/TaskStatus';
import { Badge, Empty, ErrorBox, Loading } from '../components/ui';
import { relayCall } from '../data/client';
import { useProjects, useReindex, useRemoveProject, useRunTick, useUpdateSettings } from '../data/hooks';
import { queryKeys } from '../data/query-keys';
import { shellLine } from '../lib/shell';
import { TickConfirm } from './TickConfirm';
import { AddProjectForm } from './AddProject';

function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function PolicySetting(props: { readonly project: Project }) {
  const update = useUpdateSettings();
  // The choice shows at once; the host's answer replaces it (or its error says why not).
  const [chosen, setChosen] = useState<ApprovalPolicy | null>(null);
  const policy = chosen ?? props.project.settings.approvalPolicy;
  const [until, setUntil] = useState(() => (policy.mode === 'until' ? toLocalInput(policy.until) : toLocalInput(new Date(Date.now() + 3_600_000).toISOString())));
  const name = useId();
  const set = (next: ApprovalPolicy): void => {
    setChosen(next);
    update.mutate({ projectId: props.project.projectId, approvalPolicy: next }, { onSettled: () => setChosen(null) });
  };
  const untilIso = (): string | null => {
    const ms = Date.parse(until);
    return Number.isNaN(ms) ? null : new Date(ms).toISOString();
  };
  return (
    <fieldset className="setting">
      <legend>Approval</legend>
      <label className="radio">
        <input type="radio" name={name} checked={policy.mode === 'ask'} onChange={() => set({ mode: 'ask' })} /> Ask me every time
      </label>
      <label className="radio">
        <input type="radio" name={name} checked={policy.mode === 'auto'} onChange={() => set({ mode: 'auto' })} /> Approve automatically
      </label>
      <div className="radio-with-input">
        <label className="radio">
          <input
            type="radio"
            name={name}
            checked={policy.mode === 'until'}
            onChange={() => {
              const iso = untilIso();
              if (iso) set({ mode: 'until', until: iso });
            }}
          />{' '}
          Approve automatically until
        </label>
        <input type="datetime-local" aria-label="Approve automatically until" value={until} onChange={(e) => setUntil(e.target.value)} />
        {policy.mode === 'until' ? (
          <button
            type="button"
            className="button small"
            onClick={() => {
              const iso = untilIso();
              if (iso) set({ mode: 'until', until: iso });
            }}
          >
            Update
          </button>
        ) : null}
      </div>
      {policy.mode === 'until' && Date.parse(policy.until) < Date.now() ? <p className="muted small">That time has passed: patches wait for you again.</p> : null}
      {update.isError ? <ErrorBox error={update.error} title="The policy was not changed" /> : null}
    </fieldset>
  );
}

function linterText(linter: Project['linter']): string {
  if (linter === null) return '';
  return typeof linter === 'string' ? linter : shellLine(linter);
}

function LinterSetting(props: { readonly project: Project }) {
  const update = useUpdateSettings();
  const current = linterText(props.project.linter);
  const [value, setValue] = useState(current);
  const id = useId();
  const dirty = value.trim() !== current.trim();
  return (
    <form
      className="setting"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate({ projectId: props.project.projectId, linter: value.trim() === '' ? null : value.trim() });
      }}
    >
      <label htmlFor={id}>Linter</label>
      <p className="muted small">Run before and after each patch; new errors keep it waiting for you. Saved in relay.config.json.</p>
      <div className="inline-form">
        <input id={id} type="text" value={value} onChange={(e) => setValue(e.target.value)} placeholder="e.g. npx eslint . (empty: none)" spellCheck={false} autoComplete="off" />
        <button type="submit" className="button" disabled={!dirty || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save linter'}
        </button>
      </div>
      {update.isError ? <ErrorBox error={update.error} title="The linter was not saved" /> : null}
    </form>
  );
}

function WatchingSetting(props: { readonly project: Project }) {
  const update = useUpdateSettings();
  return (
    <SettingSwitch label="Watch the clipboard for answers to this project" checked={props.project.settings.watching} onChange={(watching) => update.mutateAsync({ projectId: props.project.projectId, watching })}>
      {update.isError ? <ErrorBox error={update.error} title="Watching was not changed" /> : null}
    </SettingSwitch>
  );
}

function RemoveControl(props: { readonly project: Project }) {
  const remove = useRemoveProject();
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return (
      <button type="button" className="button danger-outline" onClick={() => setConfirming(true)}>
        Remove…
      </button>
    );
  }
  return (
    <div className="confirm" role="group" aria-label={`Confirm removing ${props.project.projectId}`}>
      <p>Forget this project? Its folder and files stay as they are; you can register it again later.</p>
      <div className="button-row">
        <button type="button" className="button danger" disabled={remove.isPending} onClick={() => remove.mutate(props.project.projectId)}>
          {remove.isPending ? 'Removing…' : 'Remove project'}
        </button>
        <button type="button" className="button subtle" onClick={() => setConfirming(false)}>
          Keep it
        </button>
      </div>
      {remove.isError ? <ErrorBox error={remove.error} title="The project was not removed" /> : null}
    </div>
  );
}

function ProjectActions(props: { readonly project: Project }) {
  const client = useQueryClient();
  const tick = useRunTick();
  const reindex = useReindex();
  const [confirmingTick, setConfirmingTick] = useState(false);
  const { projectId } = props.project;
  return (
    <div className="project-actions">
      <div className="button-row">
        <CopyButton
          label="Copy system prompt"
          className="button primary"
          getText={async () => (await client.fetchQuery({ queryKey: queryKeys.systemPrompt(projectId), queryFn: () => relayCall('getSystemPrompt', { projectId }) })).prompt}
        />
        <a className="button" href={href.paste(projectId)}>
          Paste answer
        </a>
        <a className="button" href={href.ask(projectId)}>
          Ask a friend
        </a>
        <a className="button" href={href.handoff(projectId)}>
          Hand off
        </a>
        <button type="button" className="button" disabled={tick.isPending || confirmingTick} onClick={() => setConfirmingTick(true)}>
          Run tick…
        </button>
        <a className="button subtle" href={href.history({ projectId })}>
          History
        </a>
        <button type="button" className="button subtle" disabled={reindex.isPending} onClick={() => reindex.mutate(projectId)}>
          {reindex.isPending ? 'Reindexing…' : 'Reindex'}
        </button>
      </div>
      {confirmingTick ? (
        <TickConfirm
          projectId={projectId}
          projectName={props.project.name}
          starting={tick.isPending}
          onClose={() => setConfirmingTick(false)}
          onStart={() => tick.mutate(projectId, { onSettled: () => setConfirmingTick(false) })}
        />
      ) : null}
      {tick.isError ? <ErrorBox error={tick.error} title="The tick was not started" /> : null}
      {tick.data ? <TaskStatus taskId={tick.data.taskId} cancellable /> : null}
      {reindex.isError ? <ErrorBox error={reindex.error} title="Reindex failed" /> : null}
      {reindex.data ? (
        <p className="muted small" role="status">
          Reindexed: {reindex.data.patches} patches, {reindex.data.ticks} ticks{reindex.data.removed > 0 ? `, ${reindex.data.removed} stale rows dropped` : ''}
          {reindex.data.skipped.length > 0 ? `; ${reindex.data.skipped.length} file(s) skipped` : ''}.
        </p>
      ) : null}
    </div>
  );
}

function ProjectCard(props: { readonly project: Project }) {
  const { project } = props;
  const headingId = useId();
  return (
    <section className="card project-card" aria-labelledby={headingId} data-project-id={project.projectId}>
      <header className="project-header">
        <h2 id={headingId}>{project.name}</h2>
        <span className="muted">projectId</span> <code className="project-id">{project.projectId}</code>
        <span className="spacer" />
        <Badge tone={project.settings.approvalPolicy.mode === 'ask' ? 'neutral' : 'warning'}>{project.settings.approvalPolicy.mode === 'ask' ? 'asks before applying' : 'auto-approves'}</Badge>
      </header>
      <p className="muted small project-root">
        <code>{project.root}</code>
      </p>
      {project.configError ? <ErrorBox error={{ code: 'CONFIG_UNREADABLE', message: project.configError }} title="relay.config.json cannot be read" /> : null}
      <ProjectActions project={project} />
      <details className="settings">
        <summary>Settings</summary>
        <div className="settings-grid">
          <PolicySetting project={project} />
          <div>
            <LinterSetting key={linterText(project.linter)} project={project} />
            <WatchingSetting project={project} />
          </div>
        </div>
        <div className="danger-zone">
          <RemoveControl project={project} />
        </div>
      </details>
    </section>
  );
}

export function ProjectsView() {
  const projects = useProjects();
  return (
    <div className="view view-projects">
      <header className="view-header">
        <h1 tabIndex={-1}>Projects</h1>
      </header>
      <AddProjectForm />
      {projects.isPending ? <Loading label="Loading projects…" /> : null}
      {projects.isError ? <ErrorBox error={projects.error} title="The projects could not be loaded" /> : null}
      {projects.data && projects.data.length === 0 ? (
        <Empty title="No projects yet.">Add a folder above. Each project gets a projectId; answers name it, so they land in the right folder.</Empty>
      ) : null}
      {projects.data?.map((project) => <ProjectCard key={project.projectId} project={project} />)}
    </div>
  );
}
