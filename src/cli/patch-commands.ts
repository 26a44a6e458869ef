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
import { applyPatch, recoverPending, type FaultPoint, type PatchHooks } from '../engine/patch/transaction.js';
import { startClipboardWatcher } from '../engine/patch/watcher.js';
import { commitPaths } from '../engine/git/commit.js';
import { isGitRepo } from '../engine/git/core.js';
import { confirm, EXIT, print, printError, printJson, UsageError } from './io.js';
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

/** Rolls back what a crashed transaction left behind before any command runs. */
function recoverFirst(root: string): void {
  const recovered = recoverPending(root);
  if (Array.isArray(recovered)) printRecoveries(recovered);
}

function requireConfig(root: string): RelayConfig {
  const config = loadRelayConfig(root);
  if (!config.ok) {
    printError(`✘ ${config.error.message}`);
    process.exit(EXIT.failed);
  }
  return config.value;
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
        { fault: faultHook() },
      );
      if (options.json) printJson(outcomeJson(outcome));
      else printOutcome(outcome);
      process.exitCode = outcome.status === 'applied' || outcome.status === 'skipped' ? EXIT.ok : EXIT.failed;
    });

  program
    .command('prompt')
    .description('print the system prompt that teaches an assistant the answer format')
    .action(() => {
      const root = projectRoot(program);
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
    .action(async (options: { yes?: boolean; interval?: string; prompt?: boolean }) => {
      const root = projectRoot(program);
      recoverFirst(root);
      let config = requireConfig(root);
      let configMtime = statSync(path.join(root, CONFIG_FILE)).mtimeMs;
      const { default: clipboard } = await import('clipboardy');
      if (options.prompt !== false) {
        print(systemPrompt(config.projectId));
        print('—'.repeat(60));
      }
      const interval = options.interval ? Number(options.interval) : config.watcher.clipboardPollInterval;
      if (!Number.isFinite(interval) || interval < 50) throw new UsageError('--interval must be a number of milliseconds ≥ 50');
      const watcher = startClipboardWatcher({
        source: { read: () => clipboard.read() },
        intervalMs: interval,
        onError: (error) => printError(`! clipboard: ${(error as Error).message}`),
        onCandidate: async (text) => {
          if (config.core.watchConfig) {
            const mtime = statSync(path.join(root, CONFIG_FILE)).mtimeMs;
            if (mtime !== configMtime) {
              const reloaded = loadRelayConfig(root);
              if (reloaded.ok) {
                config = reloaded.value;
                print(`• ${CONFIG_FILE} changed; reloaded.`);
              } else printError(`! ${CONFIG_FILE} changed but is invalid; keeping the previous settings.\n${reloaded.error.message}`);
              configMtime = mtime;
            }
          }
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
      await watcher.ready;
      print(`Watching the clipboard for answers to project "${config.projectId}" (every ${interval} ms). Ctrl+C stops.`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
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
    .action((options: { json?: boolean; limit?: string }) => {
      const root = projectRoot(program);
      recoverFirst(root);
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
    .option('--json', 'print one JSON result object')
    .action(async (target: string, options: { yes?: boolean; json?: boolean }) => {
      const root = projectRoot(program);
      recoverFirst(root);
      requireConfig(root);
      const found = findTransaction(root, target);
      if (found.ok && !options.yes && !options.json) {
        const r = found.value;
        print(`Revert ${r.uuid} (${r.gitCommitMsg ?? r.promptSummary ?? 'no message'}): ${describeStats(r.files)}`);
        if (!(await confirm('Revert it?'))) {
          printError('Not reverted. (Pass --yes to revert without a terminal prompt.)');
          process.exitCode = EXIT.failed;
          return;
        }
      }
      const outcome = await revertTransaction({ root, target, decide: terminalDecider(true) }, { fault: faultHook() });
      if (options.json) printJson(outcomeJson(outcome));
      else printOutcome(outcome, 'Reverted with');
      process.exitCode = outcome.status === 'applied' ? EXIT.ok : EXIT.failed;
    });

  const gitCommand = program.command('git').description('git helpers');
  gitCommand
    .command('commit')
    .description("commit the latest transaction's files with its gitCommitMsg")
    .option('-y, --yes', 'do not ask for confirmation')
    .action(async (options: { yes?: boolean }) => {
      const root = projectRoot(program);
      recoverFirst(root);
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
      try {
        const sha = await commitPaths(root, paths, message);
        print(`✔ Committed ${sha.slice(0, 10)}: ${message}`);
      } catch (error) {
        printError(`✘ git commit failed: ${(error as Error).message}`);
        process.exitCode = EXIT.failed;
      }
    });
}
