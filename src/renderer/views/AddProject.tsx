// Adding a project: the system's folder picker in the desktop app, and everywhere a path field
// checked as it is typed (does the folder exist, is it a Relay Desk project already, is it
// registered), so the person learns what will happen before pressing Add.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { href } from '../app/routes';
import { ErrorBox } from '../components/ui';
import { relayCall } from '../data/client';
import { useRegisterProject } from '../data/hooks';
import { queryKeys } from '../data/query-keys';

/** How long typing must pause before the path is checked. */
const CHECK_DELAY_MS = 250;

function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function AddProjectForm(props: { readonly headingLevel?: 2 | 3 }) {
  const client = useQueryClient();
  const register = useRegisterProject();
  const [path, setPath] = useState('');
  const [projectId, setProjectId] = useState('');
  const [picking, setPicking] = useState<{ error: unknown } | 'busy' | null>(null);
  const pathId = useId();
  const idId = useId();
  const statusId = useId();
  const headingId = useId();
  const typed = useDebounced(path.trim(), CHECK_DELAY_MS);
  const info = useQuery({ queryKey: queryKeys.hostInfo(), queryFn: () => relayCall('getHostInfo', {}), staleTime: Infinity });
  const check = useQuery({ queryKey: queryKeys.checkFolder(typed), queryFn: () => relayCall('checkFolder', { path: typed }), enabled: typed !== '', staleTime: 0 });
  const checked = typed === path.trim() ? check.data : undefined;
  const canAdd = checked !== undefined && checked.problem === null && checked.registeredAs === null && checked.root !== null;

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (!canAdd || !checked?.root) return;
    register.mutate(
      { root: checked.root, ...(checked.projectId === null && projectId.trim() ? { projectId: projectId.trim() } : {}) },
      {
        onSuccess: () => {
          setPath('');
          setProjectId('');
          void client.invalidateQueries({ queryKey: queryKeys.projects() });
        },
      },
    );
  };
  const pick = async (): Promise<void> => {
    setPicking('busy');
    try {
      const chosen = await relayCall('pickFolder', {});
      if (chosen.path) setPath(chosen.path);
      setPicking(null);
    } catch (error) {
      setPicking({ error });
    }
  };
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';

  return (
    <form className="card register-form" onSubmit={submit} aria-labelledby={headingId}>
      <Heading id={headingId}>Add a project</Heading>
      <p className="muted small">
        Its <code>relay.config.json</code> is read, or created (as <code>relay init</code> would) when it has none. Nothing else in the folder is changed.
      </p>
      <div className="form-row">
        <label htmlFor={pathId}>Project folder</label>
        <div className="inline-form">
          <input
            id={pathId}
            type="text"
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/home/me/code/my-project or ~/code/my-project"
            spellCheck={false}
            autoComplete="off"
            aria-describedby={statusId}
            aria-invalid={checked?.problem ? true : undefined}
          />
          {info.data?.folderPicker ? (
            <button type="button" className="button" onClick={() => void pick()} disabled={picking === 'busy'}>
              Choose a folder…
            </button>
          ) : null}
        </div>
        <p id={statusId} className="folder-check small" role="status" aria-live="polite">
          {path.trim() === '' ? (
            <span className="muted">An absolute path; ~ is your home folder.</span>
          ) : !checked ? (
            <span className="muted">Checking…</span>
          ) : checked.problem ? (
            <span className="text-danger">
              <code>{checked.problem.code}</code> {checked.problem.message}
            </span>
          ) : checked.registeredAs ? (
            <span>
              Already added as <a href={href.history({ projectId: checked.registeredAs })}>{checked.registeredAs}</a>.
            </span>
          ) : (
            <span className="text-success">
              ✓ <code>{checked.root}</code>
              {checked.projectId ? <> has relay.config.json (projectId {checked.projectId})</> : <> will be set up with a relay.config.json</>}
              {checked.gitRepository ? ', a git repository.' : ' (not a git repository: ticks and reviews need one).'}
            </span>
          )}
        </p>
      </div>
      {checked && checked.problem === null && checked.projectId === null && checked.registeredAs === null ? (
        <div className="form-row">
          <label htmlFor={idId}>
            projectId <span className="muted">(optional; default: the folder name)</span>
          </label>
          <input id={idId} type="text" value={projectId} onChange={(e) => setProjectId(e.target.value)} spellCheck={false} autoComplete="off" />
        </div>
      ) : null}
      <div className="button-row">
        <button type="submit" className="button primary" disabled={register.isPending || !canAdd}>
          {register.isPending ? 'Adding…' : 'Add project'}
        </button>
      </div>
      {picking !== null && picking !== 'busy' ? <ErrorBox error={picking.error} title="The folder picker did not open" /> : null}
      {register.isError ? <ErrorBox error={register.error} title="The folder was not added" /> : null}
      {register.isSuccess ? (
        <p className="success-line" role="status">
          Added <strong>{register.data.name}</strong> with projectId <code>{register.data.projectId}</code>. <a href={href.history({ projectId: register.data.projectId })}>Open its history</a>
        </p>
      ) : null}
    </form>
  );
}
