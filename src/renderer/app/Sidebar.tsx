// Navigation, and what the runtime is doing right now (with Cancel).
import type { Route } from './routes';
import { href } from './routes';
import { useCancelTask, useProjects, useRuntimeState } from '../data/hooks';

function NavLink(props: { readonly to: string; readonly active: boolean; readonly children: string }) {
  return (
    <a href={props.to} className={`nav-link${props.active ? ' active' : ''}`} aria-current={props.active ? 'page' : undefined}>
      {props.children}
    </a>
  );
}

function ActiveTasks() {
  const runtime = useRuntimeState();
  const cancel = useCancelTask();
  const tasks = (runtime.data?.projects ?? []).flatMap((p) => [...(p.active ? [p.active] : []), ...p.queued]);
  if (tasks.length === 0) return null;
  return (
    <section className="active-tasks" aria-label="Tasks in progress">
      <h2>In progress</h2>
      <ul>
        {tasks.map((task) => (
          <li key={task.taskId}>
            <span className="task-title" title={task.title}>
              {task.title}
            </span>
            <span className="muted small">
              {task.projectId} · {task.state}
            </span>
            <button type="button" className="button small subtle" disabled={task.state === 'cancelling'} onClick={() => cancel.mutate(task.taskId)} aria-label={`Cancel ${task.title}`}>
              Cancel
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Sidebar(props: { readonly route: Route }) {
  const projects = useProjects();
  const { route } = props;
  return (
    <nav className="sidebar" aria-label="Relay Desk">
      <div className="brand">Relay Desk</div>
      <NavLink to={href.history()} active={route.name === 'history' || route.name === 'run'}>
        History
      </NavLink>
      <NavLink to={href.projects()} active={route.name === 'projects' || route.name === 'ask' || route.name === 'handoff'}>
        Projects
      </NavLink>
      <NavLink to={href.paste()} active={route.name === 'paste'}>
        Paste answer
      </NavLink>
      <NavLink to={href.settings()} active={route.name === 'settings'}>
        Settings
      </NavLink>
      {projects.data && projects.data.length > 0 ? (
        <section className="sidebar-projects" aria-label="Project history">
          <h2>Projects</h2>
          <ul>
            {projects.data.map((p) => (
              <li key={p.projectId}>
                <a href={href.history({ projectId: p.projectId })} className={route.name === 'history' && route.filter.projectId === p.projectId ? 'active' : ''}>
                  {p.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ActiveTasks />
    </nav>
  );
}
