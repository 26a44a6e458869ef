// `relais status`: the lock, the last tick, a pending BLOCKED.json and the budgets left.
import type { Command } from 'commander';
import { EXIT, print, withHelp } from '../../io.js';
import { rootOf } from './shared.js';

/** Registers `relais status`. */
export function registerStatus(program: Command): void {
  withHelp(
    program
      .command('status')
      .description('show the lock, the last tick, a pending BLOCKED.json and the budgets left')
      .option('--preflight', 'also check whether a tick could start now (changes nothing)')
      .option('--json', 'print one JSON object'),
    {
      about: 'Reads only: status never writes a file, not even with --preflight.',
      examples: ['relais status', 'relais status --preflight', 'relais status --json | jq .budgets'],
      exitCodes: { 0: 'shown (and, with --preflight, a tick could start)', 1: 'with --preflight: a tick could not start now (the reason and the fix are printed)' },
    },
  ).action(async (options: { preflight?: boolean; json?: boolean }) => {
    const { tickStatus, thisProcessRunner } = await import('../../../engine/tick/index.js');
    const status = await tickStatus({ root: rootOf(program), ...thisProcessRunner(process.env), preflight: options.preflight === true });
    if (options.json) print(JSON.stringify(status, null, 2));
    else {
      const { printStatus } = await import('../../relais-output.js');
      printStatus(status);
    }
    process.exitCode = status.preflight && !status.preflight.ready ? EXIT.failed : EXIT.ok;
  });
}
