import { round } from './budgets.js';
import type { TickCode, Verdict } from './codes.js';
import { countersOf, saveState, withCounters, type Counters, type TickState } from './state.js';
import type { WorkspacePaths } from './workspace.js';

/**
 * The milestone's budget counters during a tick. Every charge is written to STATE.json at once
 * (atomically), so a tick that crashes half-way has still paid for what it spent.
 */
export class BudgetLedger {
  #state: TickState;

  constructor(
    private readonly paths: WorkspacePaths,
    private readonly milestone: string,
    state: TickState,
    private readonly clock: () => Date,
  ) {
    this.#state = state;
  }

  /** The milestone's counters now. */
  get counters(): Counters {
    return countersOf(this.#state, this.milestone);
  }

  /** Adds to the milestone's counters and saves STATE.json. */
  charge(change: Partial<Counters>): void {
    this.#state = withCounters(this.#state, this.milestone, (c) => ({
      ticks: c.ticks + (change.ticks ?? 0),
      orchestrator_calls: c.orchestrator_calls + (change.orchestrator_calls ?? 0),
      builder_calls: c.builder_calls + (change.builder_calls ?? 0),
      verify_runs: c.verify_runs + (change.verify_runs ?? 0),
      estimated_cost_usd: round(c.estimated_cost_usd + (change.estimated_cost_usd ?? 0)),
      patch_attempts: c.patch_attempts + (change.patch_attempts ?? 0),
    }));
    saveState(this.paths, this.#state, this.clock());
  }

  /** Records the budget warning flag and saves. */
  setWarning(on: boolean): void {
    this.#state = { ...this.#state, budget_warning: on };
    saveState(this.paths, this.#state, this.clock());
  }

  /** Records how the tick ended and saves. */
  finish(runId: string, verdict: Verdict, code: TickCode): void {
    this.#state = { ...this.#state, last_run: { run_id: runId, verdict, code, ended_at: this.clock().toISOString() } };
    saveState(this.paths, this.#state, this.clock());
  }
}
