// `relais doctor`: is everything a tick needs in place?
import type { Command } from 'commander';
import { EXIT, print, withHelp } from '../../io.js';
import { rootOf } from './shared.js';

/** Registers `relais doctor`. */
export function registerDoctor(program: Command): void {
  withHelp(program.command('doctor').description('check git, the Claude CLI (path, version, permission modes, root), config, goal, verification commands, schemas and budgets').option('--json', 'print one JSON object'), {
    about: 'Each check prints ✔ (ok), ⚠ (works, but worth fixing) or ✘ (a tick would fail or be refused), with the fix.',
    examples: ['relais doctor', 'relais doctor --json | jq ".checks[] | select(.status != \\"ok\\")"'],
    exitCodes: { 0: 'no check failed (warnings allowed)', 1: 'a check failed' },
  }).action(async (options: { json?: boolean }) => {
    const { doctor, thisProcessRunner } = await import('../../../engine/tick/index.js');
    const report = await doctor({ root: rootOf(program), ...thisProcessRunner(process.env) });
    if (options.json) print(JSON.stringify(report, null, 2));
    else for (const check of report.checks) print(`${check.status === 'ok' ? '✔' : check.status === 'warn' ? '⚠' : '✘'} ${check.name}: ${check.detail}`);
    process.exitCode = report.ok ? EXIT.ok : EXIT.failed;
  });
}
