// Follows one task the window started: its state while it runs, then its outcome with the
// engine's code and message, and a link to the history row it left.
import type { ReactNode } from 'react';
import { href } from '../app/routes';
import { useCancelTask, useLiveTask, useRunOfTask } from '../data/hooks';
import type { LiveTask } from '../data/live';
import { noticeForResult } from '../data/live';
import { Badge, ErrorBox, FailureBox } from './ui';
import { CopyButton } from './CopyButton';
import { RefusalCard } from './RefusalCard';

const STATE_LABEL: Record<LiveTask['state'], string> = {
  queued: 'Queued…',
  running: 'Running…',
  'waiting-approval': 'Waiting for your approval…',
  cancelling: 'Cancelling…',
  completed: 'Done',
  failed: 'Failed',
};

export function TaskStatus(props: { readonly taskId: string; readonly children?: (task: LiveTask) => ReactNode; readonly cancellable?: boolean }) {
  const task = useLiveTask(props.taskId);
  const run = useRunOfTask(task);
  const cancel = useCancelTask();
  if (!task) {
    return (
      <div className="task-status" role="status">
        Started task {props.taskId}…
      </div>
    );
  }
  const running = task.state !== 'completed' && task.state !== 'failed';
  const outcome = task.result ? noticeForResult(task.result) : null;
  // An answer the engine refused (not a person's "no"): its reason leads somewhere.
  const patchError = task.result && (task.result.kind === 'patch' || task.result.kind === 'revert') && task.result.patch.status === 'rejected' ? task.result.patch.error : null;
  const refusal = patchError && (patchError.reply || patchError.closest) ? patchError : null;
  return (
    <div className="task-status" data-task-state={task.state}>
      <div className="task-status-line" role="status" aria-live="polite">
        {running ? <span className="spinner" aria-hidden="true" /> : null}
        <span>{STATE_LABEL[task.state]}</span>
        {task.stages.length > 0 && running ? <span className="muted"> · {task.stages.at(-1)}</span> : null}
        {running && props.cancellable ? (
          <button type="button" className="button small subtle" onClick={() => cancel.mutate(task.taskId)} disabled={task.state === 'cancelling' || cancel.isPending}>
            Cancel
          </button>
        ) : null}
      </div>
      {cancel.isError ? <ErrorBox error={cancel.error} title="Could not cancel" /> : null}
      {task.state === 'failed' && task.error?.code === 'NOTHING_TO_REVIEW' ? (
        <div className="task-outcome tone-info" role="status">
          <strong>Nothing to review.</strong> <span>{task.error.message.replace(/^Nothing to review:\s*/, '')}</span>
        </div>
      ) : (
        props.children?.(task)
      )}
      {task.state === 'failed' && task.error && task.error.code !== 'NOTHING_TO_REVIEW' ? <FailureBox code={task.error.code} message={task.error.message} title={`The ${task.kind} failed`} /> : null}
      {task.state === 'completed' && refusal ? (
        <>
          <RefusalCard error={refusal} title={outcome?.title ?? 'The answer was refused'} />
          {refusal.reply ? (
            <div className="button-row">
              <CopyButton label="Copy reply for the assistant" className="button primary" getText={() => refusal.reply ?? ''} copiedLabel="Reply copied ✓" />
            </div>
          ) : null}
        </>
      ) : task.state === 'completed' && outcome ? (
        outcome.tone === 'danger' && outcome.code ? (
          <FailureBox code={outcome.code} message={outcome.message} title={outcome.title} />
        ) : (
          <div className={`task-outcome tone-${outcome.tone}`} role="status">
            <strong>{outcome.title}</strong> {outcome.code ? <Badge tone="neutral">{outcome.code}</Badge> : null} <span>{outcome.message}</span>
          </div>
        )
      ) : null}
      {run ? (
        <p>
          <a href={href.run(run.id)}>Open the run in History →</a>
        </p>
      ) : null}
    </div>
  );
}
