// "Ask a friend": send a prompt (and the working tree's diff, or a run as context) to another
// agent, or ask it for a diff-scoped review. The answer streams in from relay.output events
// and is saved as a run by the host.
import { useId, useMemo, useState, type FormEvent } from 'react';
import type { TaskTicket } from '../../shared/contract.js';
// The backends the relay ships with: one list, shared with the engine.
import { BACKEND_NAMES as BACKENDS } from '../../shared/facts.js';
import { href } from '../app/routes';
import { OptionList, SubmitRow } from '../components/controls';
import { TaskStatus } from '../components/TaskStatus';
import { ErrorBox, Loading } from '../components/ui';
import { useAsk, useProjects, useReview, useRun } from '../data/hooks';
import type { LiveTask } from '../data/live';
import { contextForRun, utf8Bytes } from '../lib/ask-context';
import { groupDigits } from '../lib/blast';
import { RenderedMarkdown } from '../lib/markdown';


function BackendPicker(props: { readonly value: string; readonly onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className="form-row">
      <label htmlFor={id}>Backend</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <OptionList values={BACKENDS} />
      </select>
    </div>
  );
}

/** The answer as it streams: plain text while it arrives (Markdown may be half-written), rendered once done. */
/** A relay task's answer as it streams in, then rendered once it is complete. */
export function StreamedAnswer(props: { readonly task: LiveTask }) {
  const { task } = props;
  const done = task.state === 'completed';
  const finalText = task.result && (task.result.kind === 'ask' || task.result.kind === 'review') ? task.result.relay.text : null;
  const text = done && finalText !== null ? finalText : task.output;
  return (
    <section className="card answer" aria-labelledby="streamed-heading">
      <h2 id="streamed-heading">Answer{done && task.result && (task.result.kind === 'ask' || task.result.kind === 'review') ? ` from ${task.result.relay.backend}` : ''}</h2>
      {text === '' && !done ? <p className="muted">Waiting for the first words…</p> : null}
      {done ? (
        <RenderedMarkdown text={text} headingOffset={2} />
      ) : (
        <pre className="streaming" role="log" aria-live="polite" aria-label="Streamed answer">
          {text}
        </pre>
      )}
      {task.diagnostics.trim() ? (
        <details>
          <summary>Diagnostics</summary>
          <pre className="log">{task.diagnostics}</pre>
        </details>
      ) : null}
    </section>
  );
}

function AskForm(props: { readonly projectId: string; readonly runId: string | null; readonly onStarted: (ticket: TaskTicket) => void }) {
  const ask = useAsk();
  const run = useRun(props.runId);
  const [prompt, setPrompt] = useState('');
  const [backend, setBackend] = useState<string>('codex');
  const [includeDiff, setIncludeDiff] = useState(props.runId === null);
  const [sendRun, setSendRun] = useState(true);
  const promptId = useId();
  const context = useMemo(() => (props.runId && run.data ? contextForRun(run.data) : null), [props.runId, run.data]);

  const submit = (event: FormEvent): void => {
    event.preventDefault();
    if (prompt.trim() === '') return;
    ask.mutate(
      { projectId: props.projectId, prompt, backend, includeDiff, ...(context && sendRun ? { context: context.text } : {}) },
      { onSuccess: props.onStarted },
    );
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Ask a friend">
      {props.runId ? (
        <div className="context-box">
          {run.isLoading ? <Loading label="Reading the run…" /> : null}
          {run.isError ? <ErrorBox error={run.error} title="The run could not be read" /> : null}
          {run.data && context ? (
            <>
              <label className="checkbox">
                <input type="checkbox" checked={sendRun} onChange={(e) => setSendRun(e.target.checked)} /> Send the run “{run.data.run.title}” as context ({groupDigits(utf8Bytes(context.text))} bytes
                {context.cut ? ', cut to the limit' : ''})
              </label>
              <details>
                <summary>What will be sent</summary>
                <pre className="log">{context.text}</pre>
              </details>
            </>
          ) : null}
        </div>
      ) : null}
      <div className="form-row">
        <label htmlFor={promptId}>Your question</label>
        <textarea id={promptId} value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={6} placeholder="What would you do differently here?" required />
      </div>
      <div className="form-columns">
        <BackendPicker value={backend} onChange={setBackend} />
        <label className="checkbox">
          <input type="checkbox" checked={includeDiff} onChange={(e) => setIncludeDiff(e.target.checked)} /> Include the working tree’s git diff
        </label>
      </div>
      <SubmitRow label="Ask" pendingLabel="Sending…" pending={ask.isPending} disabled={prompt.trim() === ''} />
      {ask.isError ? <ErrorBox error={ask.error} title="The question was not sent" /> : null}
    </form>
  );
}

function ReviewForm(props: { readonly projectId: string; readonly onStarted: (ticket: TaskTicket) => void }) {
  const review = useReview();
  const [backend, setBackend] = useState<string>('codex');
  const [base, setBase] = useState('');
  const [prompt, setPrompt] = useState('');
  const baseId = useId();
  const promptId = useId();
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    review.mutate(
      { projectId: props.projectId, backend, ...(base.trim() ? { base: base.trim() } : {}), ...(prompt.trim() ? { prompt: prompt.trim() } : {}) },
      { onSuccess: props.onStarted },
    );
  };
  return (
    <form className="card" onSubmit={submit} aria-label="Ask for a review">
      <p className="muted">The other agent reviews what HEAD changed since the base branch (its own review command where it has one, else the diff in the prompt).</p>
      <div className="form-columns">
        <BackendPicker value={backend} onChange={setBackend} />
        <div className="form-row">
          <label htmlFor={baseId}>Base branch</label>
          <input id={baseId} type="text" value={base} onChange={(e) => setBase(e.target.value)} placeholder="main (default: main, else master, else HEAD~1)" spellCheck={false} />
        </div>
      </div>
      <div className="form-row">
        <label htmlFor={promptId}>What to look at (optional)</label>
        <textarea id={promptId} value={prompt} onChange={(e) => setPrompt(e.target.value)} rows={3} placeholder="Review the following changes." />
      </div>
      <SubmitRow label="Request review" pendingLabel="Sending…" pending={review.isPending} />
      {review.isError ? <ErrorBox error={review.error} title="The review was not requested" /> : null}
    </form>
  );
}

export function AskView(props: { readonly projectId: string; readonly runId: string | null; readonly mode: 'ask' | 'review' }) {
  const projects = useProjects();
  const [ticket, setTicket] = useState<TaskTicket | null>(null);
  const project = projects.data?.find((p) => p.projectId === props.projectId);
  return (
    <div className="view view-ask">
      <p className="breadcrumb">
        <a href={href.projects()}>← Projects</a>
      </p>
      <header className="view-header">
        <h1 tabIndex={-1}>
          {props.mode === 'review' ? 'Ask for a review' : 'Ask a friend'} <span className="muted">· {project?.name ?? props.projectId}</span>
        </h1>
        <div className="segmented" role="tablist" aria-label="Kind of question">
          <a role="tab" aria-selected={props.mode === 'ask'} className={props.mode === 'ask' ? 'active' : ''} href={href.ask(props.projectId, props.runId)}>
            Ask
          </a>
          <a role="tab" aria-selected={props.mode === 'review'} className={props.mode === 'review' ? 'active' : ''} href={href.review(props.projectId)}>
            Review
          </a>
        </div>
      </header>
      {projects.data && !project ? <ErrorBox error={{ code: 'UNKNOWN_PROJECT', message: `No project "${props.projectId}" is registered.` }} /> : null}
      {props.mode === 'ask' ? <AskForm projectId={props.projectId} runId={props.runId} onStarted={setTicket} /> : <ReviewForm projectId={props.projectId} onStarted={setTicket} />}
      {ticket ? <TaskStatus key={ticket.taskId} taskId={ticket.taskId} cancellable>{(task) => <StreamedAnswer task={task} />}</TaskStatus> : null}
    </div>
  );
}
