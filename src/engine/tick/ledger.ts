import { round } from './budgets.js';
import type { TickCode, Verdict } from './codes.js';
import { countersOf, saveState, withCounters, type Counters, type TickState } from './state.js';
import type { WorkspacePaths } from './workspace.js';

/**
 * The milestone's budget counters during a tick. STATE.json is written (atomically) before every
 * child process that can spend is started and when the tick ends, so a tick that crashes or is
 * killed half-way has still paid for every call it started; a call's cost, known when it ends,
 * is written with the next save.
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

  /** Adds to the milestone's counters and saves STATE.json: call it before starting a child. */
  charge(change: Partial<Counters>): void {
    this.add(change);
    saveState(this.paths, this.#state, this.clock());
  }

  /** Adds to the milestone's counters; saved with the next charge or at the end. */
  add(change: Partial<Counters>): void {
    this.#state = withCounters(this.#state, this.milestone, (c) => ({
      ticks: c.ticks + (change.ticks ?? 0),
      orchestrator_calls: c.orchestrator_calls + (change.orchestrator_calls ?? 0),
      builder_calls: c.builder_calls + (change.builder_calls ?? 0),
      verify_runs: c.verify_runs + (change.verify_runs ?? 0),
      estimated_cost_usd: round(c.estimated_cost_usd + (change.estimated_cost_usd ?? 0)),
      patch_attempts: c.patch_attempts + (change.patch_attempts ?? 0),
    }));
  }

  /** Counts the tick as started and records the budget warning flag (saved with the first call). */
  startTick(warning: boolean): void {
    this.#state = { ...this.#state, budget_warning: warning };
    this.add({ ticks: 1 });
  }

  /** Records how the tick ended and saves. */
  finish(runId: string, verdict: Verdict, code: TickCode): void {
    this.#state = { ...this.#state, last_run: { run_id: runId, verdict, code, ended_at: this.clock().toISOString() } };
    saveState(this.paths, this.#state, this.clock());
  }
}
