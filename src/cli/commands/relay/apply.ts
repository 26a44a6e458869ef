// `relay apply <file>`: one answer from a file or stdin, applied as one transaction.
import path from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE } from '../../../engine/patch/names.js';
import { EXIT, printJson, readStdin, UsageError, withHelp } from '../../io.js';
import { requireProject } from '../../project.js';

interface ApplyOptions {
  readonly yes?: boolean;
  readonly json?: boolean;
  readonly reply?: boolean;
}

/** Registers `relay apply`. */
export function registerApply(program: Command): void {
  withHelp(
    program
      .command('apply')
      .description('apply an assistant answer saved in a file ("-" reads standard input)')
      .argument('<file>', 'file holding the answer')
      .option('-y, --yes', 'approve without asking (never code your configured commands would run)')
      .option('--json', 'print one JSON result object')
      .option('--reply', 'when the answer is refused, print only the reply for the assistant (to pipe to the clipboard)'),
    {
      about: `The answer may be in Relay Desk's format (with its YAML control block) or in an assistant's own
format: git diffs, apply_patch envelopes, SEARCH/REPLACE blocks, whole files labelled with their
path. Without a control block it is for this project. A refusal says which file and block failed
and why, and ends with a reply to paste back to the assistant.

The answer is applied as one transaction: every file is worked out in memory first, then
written; the linter and pre/post commands of ${CONFIG_FILE} run; approval is automatic
(patch.approvalMode "auto") or asked on the terminal ("manual"; --yes approves). A refused
or rejected answer leaves every file as it was.

An answer that changes a file those commands would run (lint.js for "node lint.js",
package.json, *.config.js, Makefile, …) always waits for you, and no command runs before you
approve its diff. --yes approves files nobody has looked at, so it does not approve that: such
an answer is rolled back (REVIEW_REQUIRED); apply it without --yes to review it.

--json prints one object: { status: "applied" | "skipped" | "rejected" | "rolled-back",
  uuid, files: [{ path, change: "create" | "modify" | "delete", added, removed }],
  error: null | { code, message, path?, reply?, closest?: { startLine, lines, similarity },
  block?: { format, line, path } }, warnings, branch, linter, recovered }.`,
      examples: ['relay apply answer.md', 'pbpaste | relay apply - --yes --json', 'relay apply answer.md --reply | xclip -selection clipboard'],
      exitCodes: { 0: 'applied (or already applied: skipped)', 1: 'rejected or rolled back (the tree is as before), or not in a Relay project', 2: 'the command line was wrong or the file cannot be read' },
    },
  ).action(async (file: string, options: ApplyOptions) => {
    const { readFileSync } = await import('node:fs');
    // Bytes, not text: the engine's intake refuses what is not UTF-8 instead of decoding it to U+FFFD.
    let text: Uint8Array;
    try {
      text = file === '-' ? await readStdin() : readFileSync(path.resolve(file));
    } catch (error) {
      throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const root = requireProject(program, options.json ? { json: (error) => ({ status: 'rejected', uuid: null, recovered: [], files: [], error }) } : {});
    const { applyPatch } = await import('../../../engine/patch/transaction.js');
    const { outcomeJson, printOutcome, printReplyOnly, terminalDecider } = await import('../../patch-output.js');
    const { testHooks } = await import('../../fault.js');
    const outcome = await applyPatch({ root, text, source: 'file', decide: terminalDecider(options.yes === true) }, testHooks());
    if (options.json) printJson(outcomeJson(outcome));
    else if (options.reply) printReplyOnly(outcome);
    else printOutcome(outcome);
    process.exitCode = outcome.status === 'applied' || outcome.status === 'skipped' ? EXIT.ok : EXIT.failed;
  });
}
