// Answers without a control block that fit several registered projects wait here for a person
// to pick one (the window's chooser, the notification's buttons). The answer is held as it was
// read, so picking a project applies it without reading it again. Few are kept: an old choice
// nobody made is dropped when a new one comes, and every choice is dropped at shutdown.
import type { RuntimeEvent } from '../../shared/events.js';
import type { PatchSource } from '../../shared/schemas.js';
import type { IncomingAnswer } from '../patch/incoming.js';

/** An answer waiting for a person to say which project it is for. */
export interface ProjectChoice {
  readonly choiceId: string;
  readonly source: PatchSource;
  readonly projectIds: readonly string[];
  readonly title: string;
  readonly requestedAt: number;
  readonly answer: IncomingAnswer;
}

/** Choices held at most; the oldest gives way. */
export const MAX_CHOICES = 10;

export class ChoiceBook {
  private readonly pending = new Map<string, ProjectChoice>();

  constructor(private readonly emit: (event: RuntimeEvent) => void) {}

  /** Holds a choice and announces it. */
  hold(choice: ProjectChoice): void {
    this.pending.set(choice.choiceId, choice);
    this.emit({ type: 'patch.choice-requested', choiceId: choice.choiceId, source: choice.source, projectIds: [...choice.projectIds], title: choice.title });
    for (const oldest of this.pending.keys()) {
      if (this.pending.size <= MAX_CHOICES) break;
      this.resolve(oldest, null, null, 'expired');
    }
  }

  get(choiceId: string): ProjectChoice | undefined {
    return this.pending.get(choiceId);
  }

  /** Settles a choice: the project picked and the task it queued, or nothing. */
  resolve(choiceId: string, projectId: string | null, taskId: string | null, by: 'user' | 'expired' | 'shutdown'): void {
    if (!this.pending.delete(choiceId)) return;
    this.emit({ type: 'patch.choice-resolved', choiceId, projectId, taskId, by });
  }

  /** Drops every choice (shutdown). */
  dropAll(): void {
    for (const id of [...this.pending.keys()]) this.resolve(id, null, null, 'shutdown');
  }

  /** The waiting choices, as the runtime's state shows them. */
  list(): Array<{ choiceId: string; source: PatchSource; projectIds: string[]; title: string; requestedAt: number }> {
    return [...this.pending.values()].map((c) => ({ choiceId: c.choiceId, source: c.source, projectIds: [...c.projectIds], title: c.title, requestedAt: c.requestedAt }));
  }
}
