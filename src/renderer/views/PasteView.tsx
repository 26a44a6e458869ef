// The paste box: an assistant's answer applied through the same path as the clipboard
// (`applyPatch`, routed by the answer's projectId unless a project is chosen). The engine's
// verdict, refusal included, is shown with its code and message.
import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { TaskStatus } from '../components/TaskStatus';
import { ErrorBox, Kbd } from '../components/ui';
import { useApplyPatch, useProjects } from '../data/hooks';
import { isMacPlatform } from '../lib/approval';

export function PasteView(props: { readonly projectId: string | null }) {
  const projects = useProjects();
  const apply = useApplyPatch();
  const [text, setText] = useState('');
  const [projectId, setProjectId] = useState(props.projectId ?? '');
  const textId = useId();
  const projectSelectId = useId();
  const mac = isMacPlatform(navigator.platform);

  const submit = (event?: FormEvent): void => {
    event?.preventDefault();
    if (text.trim() === '' || apply.isPending) return;
    apply.mutate({ text, source: 'paste', ...(projectId ? { projectId } : {}) });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit();
  };

  return (
    <div className="view view-paste">
      <header className="view-header">
        <h1 tabIndex={-1}>Paste an answer</h1>
      </header>
      <form className="card" onSubmit={submit}>
        <p className="muted">
          Paste a chat assistant’s answer in the relaycode format (file blocks, then the YAML block with its projectId). It is applied exactly as a copied answer would be: one
          transaction, checked by the linter, and held for your approval unless the project auto-approves.
        </p>
        <div className="form-row">
          <label htmlFor={projectSelectId}>Project</label>
          <select id={projectSelectId} value={projectId} onChange={(e) => setProjectId(e.target.value)}>
            <option value="">The one the answer names (its projectId)</option>
            {(projects.data ?? []).map((p) => (
              <option key={p.projectId} value={p.projectId}>
                {p.projectId}
              </option>
            ))}
          </select>
        </div>
        <div className="form-row">
          <label htmlFor={textId}>Answer</label>
          <textarea id={textId} className="paste-area" value={text} onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} rows={16} spellCheck={false} placeholder="Paste the whole answer here…" />
        </div>
        <div className="button-row">
          <button type="submit" className="button primary" disabled={text.trim() === '' || apply.isPending}>
            {apply.isPending ? 'Applying…' : 'Apply answer'} <Kbd>{mac ? '⌘↵' : 'Ctrl+Enter'}</Kbd>
          </button>
          <button
            type="button"
            className="button subtle"
            onClick={() => {
              setText('');
              apply.reset();
            }}
            disabled={text === '' && !apply.data && !apply.error}
          >
            Clear
          </button>
        </div>
      </form>
      <section aria-label="Result" className="paste-result">
        {apply.isError ? <ErrorBox error={apply.error} title="The answer was not applied" /> : null}
        {apply.data ? <TaskStatus key={apply.data.taskId} taskId={apply.data.taskId} /> : null}
      </section>
    </div>
  );
}
