import { invokeClaude, orchestratorArgs } from './claude.js';
import type { TickConfig } from './config.js';
import { costToCharge, msLeft, summariseCall, type CallSummary, type TickContext } from './context.js';
import { orchestratorValues, patchAttemptsLeft } from './inputs.js';
import { parseModelJson } from './model-json.js';
import { fillTemplate, withRetryReason } from './prompts.js';
import { unsafeGlob } from './scope.js';
import type { Counters } from './state.js';
import type { Task } from './task.js';
import type { SchemaCheck } from './validate.js';

/** How the orchestrator stage ended. */
export type OrchestrateResult =
  | { readonly kind: 'task'; readonly task: Task; readonly calls: readonly CallSummary[] }
  /** Still no valid TASK after the allowed retry: BLOCKED_ORCHESTRATOR_OUTPUT_INVALID. */
  | { readonly kind: 'invalid'; readonly problems: readonly string[]; readonly calls: readonly CallSummary[] }
  /** A call failed or gave no `result`: STOP_INTERRUPTED, never retried. */
  | { readonly kind: 'interrupted'; readonly reason: string; readonly calls: readonly CallSummary[] };

/**
 * Validates the orchestrator's answer: JSON, then task.schema.json, then the runner's own
 * rules the schema cannot express. Returns the problems, one per line, for the retry prompt.
 */
export function validateTask(text: string, checkTask: SchemaCheck<Task>, config: TickConfig, milestone: string, used: Counters): { ok: true; task: Task } | { ok: false; problems: string[] } {
  const parsed = parseModelJson(text);
  if (!parsed.ok) return { ok: false, problems: [parsed.error.message] };
  const checked = checkTask(parsed.value);
  if (!checked.ok) return { ok: false, problems: checked.errors.map((e) => `task.schema.json: ${e}`) };
  const task = checked.value;
  const problems: string[] = [];
  if (task.milestone_id !== milestone) problems.push(`milestone_id must be "${milestone}" (the current milestone), not "${task.milestone_id}"`);
  for (const glob of [...task.scope.allowed_globs, ...task.scope.forbidden_globs]) {
    const unsafe = unsafeGlob(glob);
    if (unsafe) problems.push(`glob "${glob}" ${unsafe}; globs are relative to the repository root`);
  }
  const ids = [...task.verification.fast, ...task.verification.slow];
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) problems.push(`verification lists ${[...new Set(twice)].join(', ')} more than once; run each template at most once per tick`);
  if (task.builder.mode === 'patch') {
    const left = patchAttemptsLeft(config, used);
    if (left === null) problems.push('builder.mode "patch" is disabled in this repository (builder.allow_patch_mode is false); use "claude_code"');
    else if (left === 0) problems.push('no patch attempts are left in this milestone; use builder.mode "claude_code"');
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, task };
}

/** ORCHESTRATE: one call, plus one retry only when the answer is not a valid TASK. */
export async function orchestrate(ctx: TickContext): Promise<OrchestrateResult> {
  const { project } = ctx;
  const { config } = project;
  const firstPrompt = fillTemplate(project.prompts.orchestratorUser, await orchestratorValues(ctx));
  const args = orchestratorArgs(config, project.prompts.orchestratorSystem);
  const attempts = 1 + config.orchestrator.max_parse_retries_per_tick;
  const calls: CallSummary[] = [];
  let prompt = firstPrompt;
  let problems: string[] = [];
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    ctx.ledger.charge({ orchestrator_calls: 1 });
    const record = await invokeClaude({ command: ctx.claudeCommand, args, prompt, cwd: project.root, timeoutMs: msLeft(ctx), ...(ctx.env ? { env: ctx.env } : {}), ...(ctx.signal ? { signal: ctx.signal } : {}) }, () => ctx.clock().getTime());
    ctx.ledger.add({ estimated_cost_usd: costToCharge(record, config.orchestrator.max_budget_usd) });
    ctx.onClaudeCall?.(record, 'orchestrator');
    if (record.verdict.kind !== 'answered') {
      calls.push(summariseCall('orchestrator', attempt, record, null));
      return { kind: 'interrupted', reason: `orchestrator call ${attempt}: ${record.verdict.reason}`, calls };
    }
    const checked = validateTask(record.verdict.text, project.checkTask, config, ctx.milestone, ctx.ledger.counters);
    calls.push(summariseCall('orchestrator', attempt, record, checked.ok ? null : checked.problems.join('; ')));
    if (checked.ok) return { kind: 'task', task: checked.task, calls };
    problems = checked.problems;
    prompt = withRetryReason(firstPrompt, problems.map((p) => `- ${p}`).join('\n'));
  }
  return { kind: 'invalid', problems, calls };
}
