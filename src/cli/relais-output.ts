// How `relais` prints ticks, their outcome and the status, for people and as JSON. Loaded only
// when a command runs.
import { CODE_MEANING, type TickEvent, type TickOutcome, type TickStatus } from '../engine/tick/index.js';
import { assertNever } from '../engine/result.js';
import { print, printError } from './io.js';

/** Prints one stage event of a tick for people. */
export function printEvent(event: TickEvent): void {
  switch (event.type) {
    case 'started':
      print(`▶ tick ${event.runId} started at ${event.baseCommit.slice(0, 10)} (milestone ${event.milestoneId})`);
      for (const warning of event.budgetWarnings) printError(`⚠ ${warning}`);
      return;
    case 'orchestrated':
      if (event.task) print(`✔ orchestrated in ${event.calls} call(s): ${event.task.taskId} (${event.task.kind}) ${event.task.intent}`);
      else print(`✘ orchestrator: ${event.problem ?? 'no task'}`);
      return;
    case 'built':
      if (!event.completed) print(`✘ builder: ${event.problem ?? 'failed'}`);
      else if (!event.outputValid) print(`⚠ built (${event.mode}), but the output is invalid: ${event.problem ?? ''}`);
      else print(`✔ built (${event.mode}${event.mode === 'claude_code' ? `, at most ${event.maxTurns} turns` : ''})`);
      return;
    case 'judged':
      print(`${event.code ? '✘' : '✔'} judged: ${event.blastRadius}${event.violations.length > 0 ? `\n    ${event.violations.join('\n    ')}` : ''}`);
      return;
    case 'verified':
      print(event.code ? `✘ verification: ${event.problem ?? event.code}` : `✔ verified: ${event.runs.length} command(s) passed`);
      return;
    case 'reported':
      return; // the final outcome says it
    default:
      assertNever(event);
  }
}

/** Prints how a tick ended: the verdict line, what it means, and where the report is. */
export function printOutcome(outcome: TickOutcome): void {
  switch (outcome.verdict) {
    case 'success':
      print(`✔ SUCCESS: ${outcome.detail}`);
      print(`  Review the change (git diff) and commit it; the next tick needs a clean tree. Report: ${outcome.path}`);
      return;
    case 'stop':
      print(`■ STOP ${outcome.code}: ${outcome.detail}`);
      print(`  ${CODE_MEANING[outcome.code]}`);
      print(`  Report: ${outcome.path}`);
      return;
    case 'blocked':
      print(`⛔ BLOCKED ${outcome.code}: ${outcome.blocked.reason}`);
      print(`  Fix: ${outcome.blocked.remediation}`);
      for (const line of outcome.blocked.details.slice(0, 20)) print(`    ${line}`);
      print(`  Written to ${outcome.path}`);
      return;
    default:
      assertNever(outcome);
  }
}

/** The last JSON line of `relais run --json`. */
export function outcomeJson(outcome: TickOutcome): Record<string, unknown> {
  const common = { type: 'result', verdict: outcome.verdict, code: outcome.code, runId: outcome.runId, path: outcome.path, detail: outcome.detail };
  return outcome.verdict === 'blocked' ? { ...common, blocked: outcome.blocked } : { ...common, rolledBack: outcome.rolledBack, report: outcome.report };
}

/** Prints `relais status` for people. */
export function printStatus(status: TickStatus): void {
  print(`Relais in ${status.root}`);
  if (status.configProblem) print(`✘ config: ${status.configProblem}`);
  print(`lock: ${status.lock.state === 'free' ? 'free' : status.lock.state === 'held' ? `held by process ${status.lock.holder?.pid ?? 'unknown'}` : 'stale (the next run reclaims it)'}`);
  if (status.lastRun) print(`last tick: ${status.lastRun.runId} ${status.lastRun.verdict} ${status.lastRun.code} (ended ${status.lastRun.endedAt})`);
  else print('last tick: none yet');
  if (status.lastReport) print(`last report: ${status.lastReport.code}, ${status.lastReport.blastRadius} (${status.lastReport.path})`);
  if (status.blocked) print(`blocked: ${status.blocked.code}: ${status.blocked.reason}\n  Fix: ${status.blocked.remediation}`);
  if (status.budgets) {
    const { used, limits, milestoneId } = status.budgets;
    print(`budgets (milestone ${milestoneId}):`);
    print(`  ticks ${used.ticks}/${limits.max_ticks}, orchestrator calls ${used.orchestrator_calls}/${limits.max_orchestrator_calls}, builder calls ${used.builder_calls}/${limits.max_builder_calls}, verify runs ${used.verify_runs}/${limits.max_verify_runs}, cost $${used.estimated_cost_usd.toFixed(2)}/$${limits.max_estimated_cost_usd.toFixed(2)}`);
    for (const warning of status.budgets.warnings) print(`  ⚠ ${warning}`);
  }
  if (status.preflight) {
    if (status.preflight.ready) print('preflight: ready, a tick can start');
    else {
      print(`preflight: ${status.preflight.code}: ${status.preflight.reason}`);
      print(`  Fix: ${status.preflight.remediation}`);
      for (const line of status.preflight.details.slice(0, 20)) print(`    ${line}`);
    }
  }
}
