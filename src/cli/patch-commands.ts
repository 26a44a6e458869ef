import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { CONFIG_FILE, STATE_DIR, loadRelayConfig, type RelayConfig } from '../engine/patch/config.js';
import { PROJECT_ID_PATTERN, initProject } from '../engine/patch/init.js';
import { parseResponse } from '../engine/patch/parse.js';
import { systemPrompt } from '../engine/patch/prompt.js';
import { findTransaction, revertTransaction } from '../engine/patch/revert.js';
import { damagedRecords, listCommitted } from '../engine/patch/state.js';
import { describeStats } from '../engine/patch/summary.js';
import { toArgv } from '../engine/patch/commands.js';
import { applyPatch, recoverPending, type FaultPoint, type PatchHooks } from '../engine/patch/transaction.js';
import { commitTransactionFiles } from '../engine/patch/git-commit.js';
import { startClipboardWatcher } from '../engine/patch/watcher.js';
import { isGitRepo } from '../engine/git/core.js';
import { failingIo, type WriteIo } from '../engine/fs/write-io.js';
import { canAsk, confirm, EXIT, print, printError, printJson, UsageError } from './io.js';
import { outcomeJson, printOutcome, printRecoveries, terminalDecider } from './patch-output.js';
import { findProjectRoot } from './project.js';

/** Options every relay command accepts. */
export interface GlobalOptions {
  readonly cwd?: string;
}

export function projectRoot(program: Command): string {
  const { cwd } = program.opts<GlobalOptions>();
  return findProjectRoot(cwd ?? process.cwd());
}

/**
 * Test hook: RELAY_FAULT=<point> makes the process kill itself with SIGKILL at that point of a
 * transaction, so crash recovery can be tested against a real dead process.
 */
function faultHook(): PatchHooks['fault'] {
  const point = process.env.RELAY_FAULT;
  if (!point) return undefined;
  return (at: FaultPoint) => {
    if (at === point) process.kill(process.pid, 'SIGKILL');
  };
}

/**
 * Test hook: RELAY_IO_FAULT=<ERRNO>@<n> makes the n-th file-system write step of the command fail
 * with that errno (ENOSPC, EROFS, EACCES, EIO), as a full or read-only disk would; `+` after n
 * keeps failing every later step too. The fault harness walks n over every step.
 */
function ioHook(): WriteIo | undefined {
  const spec = /^([A-Z]+)@(\d+)(\+?)$/.exec(process.env.RELAY_IO_FAULT ?? '');
  if (!spec) return undefined;
  return failingIo({
    code: spec[1]!,
    failAt: Number(spec[2]),
    sticky: spec[3] === '+',
    onFault: (fault) => process.stderr.write(`[RELAY_IO_FAULT] step ${fault.step}: ${fault.call}\n`),
  });
}

/** The test hooks of this process (none unless the RELAY_FAULT / RELAY_IO_FAULT variables are set). */
function testHooks(): PatchHooks {
  const fault = faultHook();
  const io = ioHook();
  return { ...(fault ? { fault } : {}), ...(io ? { io } : {}) };
}

/** Rolls back what a crashed transaction left behind before any command runs, and says so. */
async function recoverFirst(root: string): Promise<void> {
  const report = await recoverPending(root, testHooks());
  if ('busy' in report) return; // the running process recovers its own; reading stays possible
  printRecoveries(report.recovered);
  if (report.gitCommit) printError(`! ${report.gitCommit}`);
  for (const problem of report.problems) printError(`! ${problem.message}`);
}

function requireConfig(root: string): RelayConfig {
  const config = loadRelayConfig(root);
  if (!config.ok) {
    printError(`✘ ${config.error.message}`);
    process.exit(EXIT.failed);
  }
  return config.value;
}

/** How often `relay watch` looks at relay.config.json for edits. */
const CONFIG_POLL_MS = 500;

/** What tells one version of a file from the next (mtime alone misses two saves within its resolution). */
function stampOf(file: string): string {
  try {
    const stat = statSync(file);
    return `${stat.mtimeMs}:${stat.size}:${stat.ino}`;
  } catch {
    return 'missing';
  }
}

function suggestLinter(root: string): string | null {
  if (existsSync(path.join(root, 'tsconfig.json'))) return 'npx tsc --noEmit';
  if (existsSync(path.join(root, 'pyproject.toml'))) return 'ruff check .';
  if (existsSync(path.join(root, 'go.mod'))) return 'go vet ./...';
  if (existsSync(path.join(root, 'Cargo.toml'))) return 'cargo check';
  return null;
}

export function registerPatchCommands(program: Command): void {
  program
    .command('init')
    .description(`create ${CONFIG_FILE} and ${STATE_DIR}/ in the current project`)
    .option('--project-id <id>', 'the id assistants must put in their answers (default: the folder name)')
    .option('--linter <command>', 'a linter to run after each patch, e.g. "npx tsc --noEmit" (run without a shell)')
    .addHelpText('after', `
Writes ${CONFIG_FILE} with defaults for everything (no linter, no pre/post command unless
--linter is given), creates ${STATE_DIR}/ and adds it to .gitignore. Changes nothing when
${CONFIG_FILE} already exists.

Examples:
  relay init
  relay init --project-id shop --linter "npx tsc --noEmit"

Exit codes: 0 done (or already set up), 1 the existing config is invalid, 2 bad flags.`)
    .action((options: { projectId?: string; linter?: string }) => {
      const root = path.resolve(program.opts<GlobalOptions>().cwd ?? process.cwd());
      const configFile = path.join(root, CONFIG_FILE);
      if (existsSync(configFile)) {
        const existing = loadRelayConfig(root);
        print(existing.ok ? `${CONFIG_FILE} already exists (projectId: ${existing.value.projectId}); nothing changed.` : `${CONFIG_FILE} already exists but is invalid:\n${existing.error.message}`);
        process.exitCode = existing.ok ? EXIT.ok : EXIT.failed;
        return;
      }
      const projectId = (options.projectId ?? path.basename(root)).trim();
      if (!PROJECT_ID_PATTERN.test(projectId)) throw new UsageError(`--project-id must be letters, digits, ".", "_" or "-": ${JSON.stringify(projectId)}`);
      const linterArgv = options.linter === undefined ? null : toArgv(options.linter);
      if (linterArgv && !linterArgv.ok) throw new UsageError(`--linter: ${linterArgv.error.message}`);
      const { ignored } = initProject(root, { projectId, ...(options.linter ? { linter: options.linter } : {}) });
      print(`✔ Created ${CONFIG_FILE} (projectId: ${projectId})${ignored ? ` and added ${STATE_DIR}/ to .gitignore` : ''}.`);
      const suggestion = suggestLinter(root);
      if (!options.linter && suggestion) print(`  Tip: to check every patch with a linter, run \`relay init\` with --linter "${suggestion}" or set patch.linter in ${CONFIG_FILE}.`);
      print('  Next: `relay prompt` prints the instructions to give your assistant; `relay watch` applies answers you copy.');
    });

  program
    .command('apply')
    .description('apply an assistant answer saved in a file ("-" reads standard input)')
    .argument('<file>', 'file holding the answer')
    .option('-y, --yes', 'approve without asking')
    .option('--json', 'print one JSON result object')
    .addHelpText(
      'after',
      `
The answer is applied as one transaction: every file is worked out in memory first, then
written; the linter and pre/post commands of ${CONFIG_FILE} run; approval is automatic
(patch.approvalMode "auto") or asked on the terminal ("manual"; --yes approves). A refused
or rejected answer leaves every file as it was.

Examples:
  relay apply answer.md
  pbpaste | relay apply - --yes --json

--json prints one object: { status: "applied" | "skipped" | "rejected" | "rolled-back",
  uuid, files: [{ path, change: "create" | "modify" | "delete", added, removed }],
  error: null | { code, message }, warnings, branch, linter, recovered }.
Exit codes: 0 applied (or already applied: skipped), 1 rejected or rolled back (the tree is
  as before), 2 the command line was wrong or the file cannot be read.`,
    )
    .action(async (file: string, options: { yes?: boolean; json?: boolean }) => {
      const root = projectRoot(program);
      let text: string;
      try {
        text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(path.resolve(file), 'utf8');
      } catch (error) {
        throw new UsageError(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      const outcome = await applyPatch(
        { root, text, source: 'file', decide: terminalDecider(options.yes === true) },
        testHooks(),
      );
      if (options.json) printJson(outcomeJson(outcome));
      else printOutcome(outcome);
      process.exitCode = outcome.status === 'applied' || outcome.status === 'skipped' ? EXIT.ok : EXIT.failed;
    });

  program
    .command('prompt')
    .description('print the system prompt that teaches an assistant the answer format')
    .action(async () => {
      const root = projectRoot(program);
      await recoverFirst(root);
      const config = loadRelayConfig(root);
      if (!config.ok) printError(`note: ${config.error.message} Using the folder name as projectId.`);
      print(systemPrompt(config.ok ? config.value.projectId : path.basename(root)));
    });

  program
    .command('watch')
    .description('watch the clipboard and apply answers for this project as they are copied')
    .option('-y, --yes', 'approve every patch without asking')
    .option('--interval <ms>', 'clipboard poll interval in milliseconds (default: watcher.clipboardPollInterval)')
    .option('--no-prompt', 'do not print the system prompt at start')
    .addHelpText(
      'after',
      `
Prints the system prompt (with this project's id), then polls the clipboard. Text already on
the clipboard at start is ignored; a copied answer for this project is applied as with
\`relay apply\`; answers for other projects are ignored. Edits to ${CONFIG_FILE} are picked up
when saved (core.watchConfig); an invalid edit keeps the previous settings.

Examples:
  relay watch
  relay watch --yes --no-prompt

Exit codes: runs until Ctrl+C (0); 1 when the config is missing or invalid at start.`,
    )
    .action(async (options: { yes?: boolean; interval?: string; prompt?: boolean }) => {
      const root = projectRoot(program);
      await recoverFirst(root);
      let config = requireConfig(root);
      const configFile = path.join(root, CONFIG_FILE);
      let configStamp = stampOf(configFile);
      const fixedInterval = options.interval !== undefined;
      const interval = fixedInterval ? Number(options.interval) : config.watcher.clipboardPollInterval;
      if (!Number.isFinite(interval) || interval < 50) throw new UsageError('--interval must be a number of milliseconds ≥ 50');
      const { default: clipboard } = await import('clipboardy');
      if (options.prompt !== false) {
        print(systemPrompt(config.projectId));
        print('—'.repeat(60));
      }

      /** Reloads relay.config.json when it changed (core.watchConfig); a broken edit keeps the last good settings. */
      const reloadIfChanged = (): void => {
        if (!config.core.watchConfig) return;
        const stamp = stampOf(configFile);
        if (stamp === configStamp) return;
        configStamp = stamp;
        const reloaded = loadRelayConfig(root);
        if (!reloaded.ok) {
          printError(`! ${CONFIG_FILE} changed but is invalid; keeping the previous settings.\n${reloaded.error.message}`);
          return;
        }
        const previous = config;
        config = reloaded.value;
        print(`• ${CONFIG_FILE} changed; reloaded.`);
        if (config.projectId !== previous.projectId) {
          print(`• The projectId is now "${config.projectId}"; give your assistant the new system prompt:`);
          print(systemPrompt(config.projectId));
          print('—'.repeat(60));
        }
        if (!fixedInterval && config.watcher.clipboardPollInterval !== previous.watcher.clipboardPollInterval) watcher.setIntervalMs(config.watcher.clipboardPollInterval);
      };

      const watcher = startClipboardWatcher({
        source: { read: () => clipboard.read() },
        intervalMs: interval,
        onError: (error) => printError(`! clipboard: ${(error as Error).message}`),
        onCandidate: async (text) => {
          reloadIfChanged(); // an answer copied right after an edit uses the edit
          const parsed = parseResponse(text);
          if (parsed.ok && parsed.value.control.projectId !== config.projectId) {
            print(`• Clipboard answer is for project "${parsed.value.control.projectId}", not "${config.projectId}"; ignored.`);
            return;
          }
          print(`• New answer on the clipboard (${text.length} characters)…`);
          const outcome = await applyPatch({ root, text, source: 'clipboard', config, decide: terminalDecider(options.yes === true) });
          printOutcome(outcome);
        },
      });
      // The config is also checked on its own clock, so an edit is picked up (and said) when it is saved.
      const configTimer = setInterval(reloadIfChanged, CONFIG_POLL_MS);
      await watcher.ready;
      print(`Watching the clipboard for answers to project "${config.projectId}" (every ${interval} ms). Ctrl+C stops.`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          clearInterval(configTimer);
          void watcher.stop().then(resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });

  program
    .command('log')
    .description('list applied transactions, newest first')
    .option('--json', 'print JSON')
    .option('-n, --limit <n>', 'show at most n transactions')
    .addHelpText('after', `\nThe number before each entry is what \`relay revert <index>\` takes (1 = newest).\n--json prints an array of { index, uuid, createdAt, source, gitCommitMsg, promptSummary,\n  files: [{ path, change, added, removed }], revertOf, revertedBy }.`)
    .action(async (options: { json?: boolean; limit?: string }) => {
      const root = projectRoot(program);
      await recoverFirst(root);
      const limit = options.limit ? Number(options.limit) : Infinity;
      if (Number.isNaN(limit) || limit < 1) throw new UsageError('--limit must be a positive number');
      const records = listCommitted(root).slice(0, limit);
      if (options.json) {
        printJson(
          records.map((r, i) => ({
            index: i + 1,
            uuid: r.uuid,
            createdAt: r.createdAt,
            source: r.source,
            gitCommitMsg: r.gitCommitMsg ?? null,
            promptSummary: r.promptSummary ?? null,
            files: r.files,
            revertOf: r.revertOf ?? null,
            revertedBy: r.revertedBy ?? null,
          })),
        );
        return;
      }
      if (records.length === 0) print('No transactions yet.');
      records.forEach((r, i) => {
        const state = r.revertedBy ? ' [reverted]' : r.revertOf ? ` [revert of ${r.revertOf.slice(0, 8)}]` : '';
        print(`${String(i + 1).padStart(3)}. ${r.uuid}  ${r.createdAt}${state}`);
        print(`     ${r.gitCommitMsg ?? r.promptSummary ?? '(no message)'} — ${describeStats(r.files)}`);
        r.files.forEach((f) => print(`       ${f.change === 'create' ? 'A' : f.change === 'delete' ? 'D' : 'M'} ${f.path} +${f.added}/-${f.removed}`));
      });
      for (const damaged of damagedRecords(root)) printError(`! ${damaged.reason}`);
    });

  program
    .command('revert')
    .description('undo a transaction (uuid, or its number in `relay log`; default 1 = newest) as a new transaction')
    .argument('[target]', 'uuid, uuid prefix, or log index', '1')
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--json', 'print one JSON result object (needs --yes: a script cannot answer the question)')
    .addHelpText(
      'after',
      `
The files go back to what they were before the transaction, as a new transaction of their
own (listed in \`relay log\`). A file changed since then is merged three ways, keeping the
later edits; if they overlap the change, nothing is reverted and the file is named.

Examples:
  relay revert            (the newest transaction, after a confirmation)
  relay revert 3 --yes
  relay revert 1f2e3d4c --yes --json

Exit codes: 0 reverted, 1 not reverted (not found, already reverted, conflict, not
  confirmed; the tree is as before), 2 the command line was wrong.`,
    )
    .action(async (target: string, options: { yes?: boolean; json?: boolean }) => {
      const root = projectRoot(program);
      await recoverFirst(root);
      const config = loadRelayConfig(root);
      if (!config.ok) {
        if (options.json) printJson({ status: 'rejected', uuid: null, recovered: [], files: [], error: config.error });
        else printError(`✘ ${config.error.message}`);
        process.exitCode = EXIT.failed;
        return;
      }
      const found = findTransaction(root, target);
      if (found.ok && !options.yes) {
        const r = found.value;
        // --json is for scripts, which cannot answer the question: they must say --yes.
        const asked = !options.json && canAsk();
        if (asked) print(`Revert ${r.uuid} (${r.gitCommitMsg ?? r.promptSummary ?? 'no message'}): ${describeStats(r.files)}`);
        if (!asked || !(await confirm('Revert it?'))) {
          const message = asked ? 'Not reverted: you declined.' : `Not reverted: reverting ${r.uuid} needs a confirmation; pass --yes to revert without a terminal prompt.`;
          if (options.json) printJson({ status: 'rejected', uuid: r.uuid, recovered: [], files: [], error: { code: 'NOT_CONFIRMED', message } });
          else printError(`✘ ${message}`);
          process.exitCode = EXIT.failed;
          return;
        }
      }
      const outcome = await revertTransaction({ root, target, decide: terminalDecider(true) }, testHooks());
      if (options.json) printJson(outcomeJson(outcome));
      else printOutcome(outcome, 'Reverted with', 'Not reverted');
      process.exitCode = outcome.status === 'applied' ? EXIT.ok : EXIT.failed;
    });

  const gitCommand = program.command('git').description('git helpers');
  gitCommand
    .command('commit')
    .description("commit the latest transaction's files with its gitCommitMsg")
    .option('-y, --yes', 'do not ask for confirmation')
    .addHelpText(
      'after',
      `
Stages and commits only the files the newest transaction of \`relay log\` touched (other
changes in the work tree stay uncommitted), with its gitCommitMsg as the message.

Exit codes: 0 committed, 1 not a git repository, no transaction, nothing to commit, not
  confirmed or git failed.`,
    )
    .action(async (options: { yes?: boolean }) => {
      const root = projectRoot(program);
      await recoverFirst(root);
      if (!(await isGitRepo(root))) {
        printError('✘ This project is not a git repository.');
        process.exitCode = EXIT.failed;
        return;
      }
      const latest = listCommitted(root)[0];
      if (!latest) {
        printError('✘ No transaction to commit yet.');
        process.exitCode = EXIT.failed;
        return;
      }
      const message = latest.gitCommitMsg ?? latest.promptSummary ?? `relay: ${latest.uuid}`;
      const paths = [...new Set([...Object.keys(latest.result), ...latest.files.map((f) => f.path)])];
      if (!options.yes) {
        print(`Commit ${paths.length} file(s) of ${latest.uuid} as "${message}"`);
        if (!(await confirm('Commit?'))) {
          printError('Not committed. (Pass --yes to commit without a terminal prompt.)');
          process.exitCode = EXIT.failed;
          return;
        }
      }
      const committed = await commitTransactionFiles(root, paths, message, testHooks());
      if (!committed.ok) {
        printError(`✘ ${committed.error.message}`);
        process.exitCode = EXIT.failed;
        return;
      }
      printRecoveries(committed.value.recovered);
      for (const note of committed.value.notes) printError(`! ${note}`);
      const { sha } = committed.value;
      if (sha === null) {
        printError(`✘ Nothing to commit: the files of ${latest.uuid} (${paths.join(', ')}) are as in the last commit.`);
        process.exitCode = EXIT.failed;
        return;
      }
      print(`✔ Committed ${sha.slice(0, 10)}: ${message}`);
    });
}
