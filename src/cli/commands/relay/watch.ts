// `relay watch`: applies answers for this project as they are copied.
import { Option, type Command } from 'commander';
import { CONFIG_FILE } from '../../../engine/patch/names.js';
import { assertNever } from '../../../engine/result.js';
import { EXIT, print, printError, UsageError, withHelp } from '../../io.js';
import { requireProject } from '../../project.js';
import { recoverFirst } from '../../recover.js';

interface WatchOptions {
  readonly yes?: boolean;
  readonly interval?: string;
  readonly prompt?: boolean;
}

/** Registers `relay watch`. */
export function registerWatch(program: Command): void {
  withHelp(
    program
      .command('watch')
      .description('watch the clipboard and apply answers for this project as they are copied')
      .option('-y, --yes', 'approve every patch without asking (never code your configured commands would run)')
      .option('--prompt', 'print the system prompt (with this project\'s id) first, and again when the id changes')
      .option('--interval <ms>', 'milliseconds between clipboard reads where the clipboard has to be polled (default: watcher.clipboardPollInterval)')
      // Accepted for scripts written when the prompt was printed by default.
      .addOption(new Option('--no-prompt').hideHelp()),
    {
      about: `Text already on the clipboard at start is ignored; a copied answer for this project is
applied as with \`relay apply\`; answers for other projects are ignored. An answer without a
control block is applied when it fits this project (every file it edits exists here, every
edit matches, new files go into existing folders); other copied text (code, logs, diffs of
other repositories) is ignored. The clipboard is read only after a copy where the system
says so (X11, Wayland with wl-paste, macOS, Windows) and every --interval ms elsewhere
(RELAY_CLIPBOARD=poll forces polling). Edits to ${CONFIG_FILE} are picked up when saved
(core.watchConfig); an invalid edit keeps the previous settings.
\`relay prompt\` prints the instructions for your assistant.`,
      examples: ['relay watch', 'relay watch --yes', 'relay watch --prompt | tee prompt.txt'],
      exitCodes: { 0: 'stopped with Ctrl+C', 1: `the clipboard cannot be read (no display) or stopped being readable, ${CONFIG_FILE} is missing or invalid at start, or not in a Relay project` },
    },
  ).action(async (options: WatchOptions) => {
    const fixedInterval = options.interval !== undefined ? Number(options.interval) : null;
    if (fixedInterval !== null && (!Number.isFinite(fixedInterval) || fixedInterval < 50)) throw new UsageError('--interval must be a number of milliseconds ≥ 50');
    const root = requireProject(program);
    await recoverFirst(root);
    const { loadRelayConfig } = await import('../../../engine/patch/config.js');
    const loaded = loadRelayConfig(root);
    if (!loaded.ok) {
      printError(`✘ ${loaded.error.message}`);
      process.exitCode = EXIT.failed;
      return;
    }
    const { openClipboard } = await import('../../../engine/clipboard/index.js');
    const clipboard = await openClipboard({ env: process.env, platform: process.platform });
    if (!clipboard.ok) {
      printError(`✘ ${clipboard.error.message}`);
      process.exitCode = EXIT.failed;
      return;
    }
    const { systemPrompt } = await import('../../../engine/patch/prompt.js');
    const { startWatchSession } = await import('../../../engine/patch/watch-session.js');
    const { printOutcome, terminalDecider } = await import('../../patch-output.js');
    const showPrompt = (projectId: string): void => {
      print(systemPrompt(projectId));
      print('—'.repeat(60));
    };
    if (options.prompt === true) showPrompt(loaded.value.projectId);

    let lastError: string | null = null;
    const session = startWatchSession({
      root,
      config: loaded.value,
      source: clipboard.value.source,
      intervalMs: fixedInterval,
      decide: terminalDecider(options.yes === true),
      onEvent: (event) => {
        switch (event.type) {
          case 'config-invalid':
            printError(`! ${CONFIG_FILE} changed but is invalid; keeping the previous settings.\n${event.message}`);
            return;
          case 'config-reloaded':
            print(`• ${CONFIG_FILE} changed; reloaded.`);
            if (event.config.projectId !== event.previous.projectId) {
              print(`• The projectId is now "${event.config.projectId}"; give your assistant the new system prompt${options.prompt === true ? ':' : ' (`relay prompt` prints it).'}`);
              if (options.prompt === true) showPrompt(event.config.projectId);
            }
            return;
          case 'foreign-answer':
            print(`• Clipboard answer is for project "${event.projectId}", not "${event.expected}"; ignored.`);
            return;
          case 'ignored': // copied text that is not an answer for this project: said nowhere
            return;
          case 'near-miss':
            printError(`✘ A copied answer for this project does not apply (${event.refusal.code}): ${event.refusal.message}`);
            if (event.refusal.reply) printError(`\nReply for the assistant:\n\n${event.refusal.reply}`);
            return;
          case 'answer':
            print(`• New answer on the clipboard (${event.chars} characters)…`);
            return;
          case 'outcome':
            printOutcome(event.outcome);
            return;
          case 'clipboard-error': {
            // The same failure at every read is said once, not every half second.
            const message = (event.error as Error).message ?? String(event.error);
            if (message !== lastError) printError(`! clipboard: ${message}`);
            lastError = message;
            return;
          }
          case 'clipboard-lost':
            printError(`✘ Stopped watching: ${(event.error as Error).message ?? String(event.error)}`);
            process.exitCode = EXIT.failed;
            return;
          default:
            assertNever(event);
        }
      },
    });
    await session.ready;
    const how = clipboard.value.mode === 'poll' ? `every ${fixedInterval ?? loaded.value.watcher.clipboardPollInterval} ms` : 'read after each copy';
    print(`Watching the clipboard for answers to project "${loaded.value.projectId}" (${how}). Ctrl+C stops.`);
    if (clipboard.value.fallback) printError(`note: polling the clipboard because ${clipboard.value.fallback}.`);
    const stop = (): void => void session.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    await session.stopped;
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  });
}
