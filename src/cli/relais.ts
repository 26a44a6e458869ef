import path from 'node:path';
import { Command } from 'commander';
import { CODE_MEANING, doctor, initWorkspace, runTick, tickStatus, type TickEvent, type TickOutcome, type TickStatus } from '../engine/tick/index.js';
import { assertNever } from '../engine/result.js';
import { EXIT, print, printError, runProgram } from './io.js';

interface GlobalOptions {
  readonly cwd?: string;
}

function rootOf(program: Command): string {
  return path.resolve(program.opts<GlobalOptions>().cwd ?? process.cwd());
}

/**
 * Test hook: RELAIS_FAULT=rollback:<ms> kills this process with SIGKILL <ms> milliseconds after a
 * rollback starts (0: at once), so the fault harness can prove an interrupted rollback is finished.
 */
function rollbackFault(): { onRollbackStart?: () => void } {
  const spec = /^rollback:(\d+)$/.exec(process.env.RELAIS_FAULT ?? '');
  if (!spec) return {};
  const ms = Number(spec[1]);
  const kill = (): void => {
    process.kill(process.pid, 'SIGKILL');
  };
  return { onRollbackStart: () => (ms === 0 ? kill() : void setTimeout(kill, ms)) };
}

function identity(): { env: NodeJS.ProcessEnv; uid: number | null } {
  return { env: process.env, uid: typeof process.getuid === 'function' ? process.getuid() : null };
}

function printEvent(event: TickEvent): void {
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

function printOutcome(outcome: TickOutcome): void {
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

function outcomeJson(outcome: TickOutcome): Record<string, unknown> {
  const common = { type: 'result', verdict: outcome.verdict, code: outcome.code, runId: outcome.runId, path: outcome.path, detail: outcome.detail };
  return outcome.verdict === 'blocked' ? { ...common, blocked: outcome.blocked } : { ...common, rolledBack: outcome.rolledBack, report: outcome.report };
}

function printStatus(status: TickStatus): void {
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

/** Builds the `relais` program; separate from running it so tests can inspect it. */
export function buildRelaisProgram(): Command {
  const program = new Command('relais')
    .description('Relais: one deterministic orchestrator → builder → judge tick over the Claude Code CLI.')
    .version('0.1.0')
    .option('-C, --cwd <dir>', 'run as if started in <dir> (the repository root holding relais.config.json)')
    .showHelpAfterError('(run `relais --help` for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      `
A tick: lock → preflight → orchestrator proposes one TASK (plan mode) → builder edits the repo
(restricted tools) → the judge checks scope, limits and verifications from git → REPORT.json and
REPORT.md, or BLOCKED.json. Any STOP after the builder rolls the repository back to where it was.

Exit codes: 0 success (run) or ok, 1 STOP, BLOCKED or a failed check, 2 the command line was wrong.`,
    );

  program
    .command('init')
    .description('write relais.config.json and the relais/ workspace (schemas, prompts, fixture list, ignore rules); existing files are kept')
    .action(() => {
      const root = rootOf(program);
      const result = initWorkspace(root);
      if (!result.ok) {
        printError(`✘ ${result.error.message}`);
        process.exitCode = EXIT.failed;
        return;
      }
      for (const file of result.value.created) print(`✔ created ${file}`);
      for (const file of result.value.kept) print(`  kept ${file}`);
      print('\nNext: set project.goal in relais.config.json, point claude_code_cli.command at your Claude CLI if it is not on PATH,');
      print('then commit: git add relais.config.json relais && git commit -m "Add relais"   and run `relais doctor`.');
    });

  program
    .command('run')
    .description('run one tick in the repository (exit code 0 only for SUCCESS)')
    .option('--json', 'print each stage event and the final result as JSON lines')
    .action(async (options: { json?: boolean }) => {
      // Ctrl+C stops the tick cleanly: the running child is killed, the tick reports
      // STOP_INTERRUPTED, rolls back and releases the lock (a second Ctrl+C exits at once).
      // Children run in their own process group, so a closed terminal (SIGHUP) does not reach
      // them: it is handled the same way, or Claude would go on editing with no tick to judge it.
      const cancel = new AbortController();
      const interrupt = (): void => {
        if (cancel.signal.aborted) process.exit(130);
        printError('■ Stopping the tick: killing the running step and rolling back… (Ctrl+C again to exit at once)');
        cancel.abort();
      };
      const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
      for (const signal of signals) process.on(signal, interrupt);
      const outcome = await runTick({
        root: rootOf(program),
        ...identity(),
        signal: cancel.signal,
        onEvent: options.json ? (event) => print(JSON.stringify(event)) : printEvent,
        ...rollbackFault(),
      });
      for (const signal of signals) process.off(signal, interrupt);
      if (options.json) print(JSON.stringify(outcomeJson(outcome)));
      else printOutcome(outcome);
      process.exitCode = outcome.verdict === 'success' ? EXIT.ok : EXIT.failed;
    });

  program
    .command('status')
    .description('show the lock, the last tick, a pending BLOCKED.json and the budgets left')
    .option('--preflight', 'also check whether a tick could start now (changes nothing)')
    .option('--json', 'print one JSON object')
    .action(async (options: { preflight?: boolean; json?: boolean }) => {
      const status = await tickStatus({ root: rootOf(program), ...identity(), preflight: options.preflight === true });
      if (options.json) print(JSON.stringify(status, null, 2));
      else printStatus(status);
      process.exitCode = status.preflight && !status.preflight.ready ? EXIT.failed : EXIT.ok;
    });

  program
    .command('doctor')
    .description('check git, the Claude CLI (path, version, permission modes, root), config, schemas and budgets')
    .option('--json', 'print one JSON object')
    .action(async (options: { json?: boolean }) => {
      const report = await doctor({ root: rootOf(program), ...identity() });
      if (options.json) print(JSON.stringify(report, null, 2));
      else for (const check of report.checks) print(`${check.status === 'ok' ? '✔' : check.status === 'warn' ? '⚠' : '✘'} ${check.name}: ${check.detail}`);
      process.exitCode = report.ok ? EXIT.ok : EXIT.failed;
    });

  return program;
}

await runProgram(buildRelaisProgram());
