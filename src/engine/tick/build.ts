import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { applyPatchFile } from '../git/apply.js';
import { builderArgs, invokeClaude } from './claude.js';
import { costToCharge, msLeft, summariseCall, type CallSummary, type TickContext } from './context.js';
import { builderValues } from './inputs.js';
import { parseModelJson } from './model-json.js';
import { fillTemplate } from './prompts.js';
import type { BuilderResult, Task } from './task.js';
import { assertNever } from '../result.js';

/** Called right around the builder's own activity, so the runner's writes fall outside it. */
export interface BuildWatch {
  readonly start: () => void;
  readonly stop: () => void;
}

/** How the BUILD stage ended. */
export interface BuildResult {
  readonly mode: Task['builder']['mode'];
  /** False when the invocation failed (crash, timeout, is_error): STOP_INTERRUPTED. */
  readonly completed: boolean;
  /** False when the final answer is not a valid builder_result (or the patch does not apply). */
  readonly outputValid: boolean;
  readonly result: BuilderResult | null;
  readonly problem: string | null;
  readonly maxTurns: number;
  readonly call: CallSummary | null;
  readonly costUsd: number;
}

/** The builder's --max-turns: the task's wish, never above the configured cap. */
export function builderMaxTurns(task: Task, configCap: number): number {
  return Math.min(task.builder.max_turns, configCap);
}

async function applyTaskPatch(ctx: TickContext, task: Task, watch: BuildWatch): Promise<BuildResult> {
  ctx.ledger.charge({ patch_attempts: 1 });
  // Outside the repository: a temp file inside it would itself be a touched path.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'relais-patch-'));
  try {
    const file = path.join(dir, 'task.patch');
    writeFileSync(file, task.builder.patch ?? '');
    watch.start();
    const applied = await applyPatchFile(ctx.project.root, file);
    watch.stop();
    return { mode: 'patch', completed: true, outputValid: applied.applied, result: null, problem: applied.applied ? null : `the task's patch does not apply: ${applied.reason}`, maxTurns: 0, call: null, costUsd: 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** BUILD: one builder call (or, for mode "patch", one `git apply` of the task's patch). */
export async function build(ctx: TickContext, task: Task, limits: { maxFiles: number; maxLines: number }, forbidden: readonly string[], watch: BuildWatch): Promise<BuildResult> {
  if (task.builder.mode === 'patch') return applyTaskPatch(ctx, task, watch);
  const { project } = ctx;
  const settings = project.config.builder.claude_code;
  const maxTurns = builderMaxTurns(task, settings.max_turns);
  const prompt = fillTemplate(project.prompts.builderUser, builderValues(task, limits, forbidden, project.builderResultSchemaText));
  ctx.ledger.charge({ builder_calls: 1 });
  watch.start();
  const record = await invokeClaude(
    { command: ctx.claudeCommand, args: builderArgs(project.config, maxTurns, project.prompts.builderSystem), prompt, cwd: project.root, timeoutMs: msLeft(ctx), ...(ctx.env ? { env: ctx.env } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) },
    () => ctx.clock().getTime(),
  );
  watch.stop();
  ctx.onClaudeCall?.(record, 'builder');
  const costUsd = costToCharge(record, settings.max_budget_usd);
  ctx.ledger.add({ estimated_cost_usd: costUsd });
  const base = { mode: 'claude_code' as const, maxTurns, costUsd };
  switch (record.verdict.kind) {
    case 'failed':
      return { ...base, completed: false, outputValid: false, result: null, problem: record.verdict.reason, call: summariseCall('builder', 1, record, null) };
    case 'no_result':
      return { ...base, completed: true, outputValid: false, result: null, problem: record.verdict.reason, call: summariseCall('builder', 1, record, null) };
    case 'answered': {
      const parsed = parseModelJson(record.verdict.text);
      const checked = parsed.ok ? project.checkBuilderResult(parsed.value) : null;
      const problem = !parsed.ok ? parsed.error.message : checked && !checked.ok ? `builder_result.schema.json: ${checked.errors.join('; ')}` : null;
      const result = checked && checked.ok ? checked.value : null;
      return { ...base, completed: true, outputValid: result !== null, result, problem, call: summariseCall('builder', 1, record, problem) };
    }
    default:
      return assertNever(record.verdict);
  }
}
