// `relais run`: one tick.
import type { Command } from 'commander';
import { EXIT, print, printError, withHelp } from '../../io.js';
import { rootOf } from './shared.js';

/** Registers `relais run`. */
export function registerRun(program: Command): void {
  withHelp(program.command('run').description('run one tick in the repository (exit code 0 only for SUCCESS)').option('--json', 'print each stage event and the final result as JSON lines'), {
    about: `Ctrl+C stops the tick cleanly: the running step is killed, the tick reports STOP_INTERRUPTED,
rolls back and releases the lock (a second Ctrl+C exits at once).`,
    examples: ['relais run', 'relais run --json | tail -1'],
    exitCodes: { 0: 'SUCCESS (the change is left for you to review and commit)', 1: 'STOP (rolled back) or BLOCKED (nothing spent); the code is printed and written to the report' },
  }).action(async (options: { json?: boolean }) => {
    const { runTick, thisProcessRunner } = await import('../../../engine/tick/index.js');
    const { outcomeJson, printEvent, printOutcome } = await import('../../relais-output.js');
    // Children run in their own process group, so a closed terminal (SIGHUP) does not reach
    // them: it is handled like Ctrl+C, or Claude would go on editing with no tick to judge it.
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
      // The same identity the app's tick engine takes: the root check cannot differ between them.
      ...thisProcessRunner(process.env),
      signal: cancel.signal,
      onEvent: options.json ? (event) => print(JSON.stringify(event)) : printEvent,
      ...rollbackFault(),
    });
    for (const signal of signals) process.off(signal, interrupt);
    if (options.json) print(JSON.stringify(outcomeJson(outcome)));
    else printOutcome(outcome);
    process.exitCode = outcome.verdict === 'success' ? EXIT.ok : EXIT.failed;
  });
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
