import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic.js';
import { fail, ok, type Result } from '../result.js';
import { TICK_CODES, type TickCode } from './codes.js';
import type { WorkspacePaths } from './workspace.js';

const Count = z.number().int().min(0);

const CountersSchema = z
  .object({
    ticks: Count,
    orchestrator_calls: Count,
    builder_calls: Count,
    verify_runs: Count,
    estimated_cost_usd: z.number().min(0),
    patch_attempts: Count.default(0),
  })
  .strict();

export const StateSchema = z
  .object({
    version: z.literal(1),
    milestones: z.record(z.string().min(1), CountersSchema),
    budget_warning: z.boolean(),
    last_run: z
      .object({
        run_id: z.string().min(1),
        verdict: z.enum(['success', 'stop', 'blocked']),
        code: z.enum(TICK_CODES as [TickCode, ...TickCode[]]),
        ended_at: z.string(),
      })
      .strict()
      .nullable(),
    updated_at: z.string(),
  })
  .strict();

/** One milestone's spend so far. */
export type Counters = z.infer<typeof CountersSchema>;
/** STATE.json: the budget counters of every milestone and the last tick's outcome. */
export type TickState = z.infer<typeof StateSchema>;

export const ZERO_COUNTERS: Counters = { ticks: 0, orchestrator_calls: 0, builder_calls: 0, verify_runs: 0, estimated_cost_usd: 0, patch_attempts: 0 };

/** A fresh state: no milestone has spent anything. */
export function emptyState(now: Date): TickState {
  return { version: 1, milestones: {}, budget_warning: false, last_run: null, updated_at: now.toISOString() };
}

/** The counters of `milestone` (zero when it has not spent anything yet). */
export function countersOf(state: TickState, milestone: string): Counters {
  return state.milestones[milestone] ?? ZERO_COUNTERS;
}

/** A copy of `state` with `milestone`'s counters changed by `change`. */
export function withCounters(state: TickState, milestone: string, change: (c: Counters) => Counters): TickState {
  return { ...state, milestones: { ...state.milestones, [milestone]: change(countersOf(state, milestone)) } };
}

/** Reads STATE.json: null when it does not exist yet, a failure when it is not valid. */
export function loadState(paths: WorkspacePaths): Result<TickState | null, 'STATE_INVALID'> {
  if (!existsSync(paths.state)) return ok(null);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(paths.state, 'utf8'));
  } catch (error) {
    return fail('STATE_INVALID', `STATE.json is not JSON: ${(error as Error).message}`);
  }
  const parsed = StateSchema.safeParse(data);
  if (!parsed.success) return fail('STATE_INVALID', `STATE.json does not match its schema: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  return ok(parsed.data);
}

/** Writes STATE.json atomically. */
export function saveState(paths: WorkspacePaths, state: TickState, now: Date): void {
  writeFileAtomic(paths.state, `${JSON.stringify({ ...state, updated_at: now.toISOString() }, null, 2)}\n`);
}
