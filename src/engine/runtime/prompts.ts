// Approvals that ask the user something without holding a task: for now the handoff nudge
// ("this agent session's context is over 90% full — hand off?"). Raised from token-usage
// metrics, at most once per (session, threshold); declining changes nothing, accepting queues a
// handoff brief for the project.
import type { RuntimeEvent } from '../../shared/events.js';
import { INITIAL_NUDGE_STATE, stepThresholdNudge, type NudgeState } from '../handoff/threshold.js';

/** A handoff-prompt approval waiting for the user. */
export interface HandoffPrompt {
  readonly approvalId: string;
  readonly projectId: string;
  readonly kind: 'handoff-prompt';
  readonly sessionId: string;
  readonly thresholdPct: number;
  readonly pct: number;
}

export class PromptBook {
  private nudge: NudgeState = INITIAL_NUDGE_STATE;
  private readonly pending = new Map<string, HandoffPrompt>();

  constructor(
    private readonly emit: (event: RuntimeEvent) => void,
    private readonly newId: () => string,
  ) {}

  /** Feeds one usage report; raises a handoff prompt the first time its session crosses 90%. */
  observe(event: Extract<RuntimeEvent, { type: 'metrics.usage' }>): void {
    const { usage } = event;
    if (!usage.sessionId || usage.contextTokens === undefined || usage.contextWindow === undefined) return;
    const step = stepThresholdNudge(this.nudge, { sessionId: usage.sessionId, projectId: event.projectId, usage: { input_tokens: usage.contextTokens }, contextWindow: usage.contextWindow });
    this.nudge = step.state;
    if (!step.payload) return;
    const prompt: HandoffPrompt = { approvalId: this.newId(), projectId: event.projectId, kind: 'handoff-prompt', sessionId: step.payload.sessionId, thresholdPct: step.payload.thresholdPct, pct: step.payload.pct };
    this.pending.set(prompt.approvalId, prompt);
    this.emit({ type: 'approval.requested', ...prompt });
  }

  has(approvalId: string): boolean {
    return this.pending.has(approvalId);
  }

  /** Settles a prompt; `taskId` is the handoff task an acceptance queued (null when declined or refused). */
  resolve(approvalId: string, accepted: boolean, by: 'user' | 'shutdown', taskId: string | null): HandoffPrompt | null {
    const prompt = this.pending.get(approvalId);
    if (!prompt) return null;
    this.pending.delete(approvalId);
    this.emit({ type: 'approval.resolved', approvalId, projectId: prompt.projectId, kind: prompt.kind, accepted, by, taskId });
    return prompt;
  }

  /** Declines every prompt (shutdown): declining is harmless. */
  declineAll(): void {
    for (const id of [...this.pending.keys()]) this.resolve(id, false, 'shutdown', null);
  }

  list(): HandoffPrompt[] {
    return [...this.pending.values()];
  }
}
