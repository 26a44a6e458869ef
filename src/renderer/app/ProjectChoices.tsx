// An answer without a control block that fits several projects waits in the runtime until a
// person picks one: a bar above the view, like the handoff prompt, with one button per project
// it fits. Picking applies it there (as a patch task of that project); "Not now" drops it.
import { useQueryClient } from '@tanstack/react-query';
import { ErrorBox } from '../components/ui';
import { useChooseProject, useRuntimeState } from '../data/hooks';
import { queryKeys } from '../data/query-keys';

export function ProjectChoices() {
  const runtime = useRuntimeState();
  const client = useQueryClient();
  const choose = useChooseProject();
  const choices = runtime.data?.choices ?? [];
  if (choices.length === 0) return null;
  const settled = (): void => void client.invalidateQueries({ queryKey: queryKeys.runtime() });
  return (
    <div className="prompt-bars">
      {choices.map((choice) => (
        <section key={choice.choiceId} className="prompt-bar" aria-label={`Which project is “${choice.title}” for?`}>
          <p>
            The {choice.source === 'clipboard' ? 'copied' : 'pasted'} answer <strong>{choice.title}</strong> fits {choice.projectIds.length} projects. Which one is it for?
          </p>
          <div className="button-row">
            {choice.projectIds.map((projectId) => (
              <button key={projectId} type="button" className="button primary" disabled={choose.isPending} onClick={() => choose.mutate({ choiceId: choice.choiceId, projectId }, { onSettled: settled })}>
                Apply to {projectId}
              </button>
            ))}
            <button type="button" className="button subtle" disabled={choose.isPending} onClick={() => choose.mutate({ choiceId: choice.choiceId, projectId: null }, { onSettled: settled })}>
              Not now
            </button>
          </div>
        </section>
      ))}
      {choose.isError ? <ErrorBox error={choose.error} title="The answer was not applied" /> : null}
    </div>
  );
}
