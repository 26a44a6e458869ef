import { readFileSync } from 'node:fs';
import path from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import {
  DEFAULT_REVIEW_PROMPT,
  MAX_CONTEXT_FILE_BYTES,
  MAX_DIFF_BYTES,
  MAX_PROMPT_BYTES,
  newAnswerId,
  recordAnswer,
  relay,
  reviewRelay,
  RelayError,
  type RelayEvent,
  type RelayResult,
} from '../engine/relay/index.js';
import { assertNever } from '../engine/result.js';
import { EXIT, printError, printJson } from './io.js';

/** Options both commands take. */
interface CommonFlags {
  readonly backend?: string;
  readonly repo?: string;
  readonly model?: string;
  readonly sandbox?: string;
  readonly timeout?: number;
  readonly json?: boolean;
  readonly verbose?: boolean;
}

interface AskFlags extends CommonFlags {
  readonly contextFile?: string;
  readonly context?: string;
  readonly includeDiff?: boolean;
}

interface ReviewFlags extends CommonFlags {
  readonly base?: string;
  readonly prompt?: string;
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || Number.isNaN(seconds)) throw new InvalidArgumentError('expected a number of seconds.');
  return seconds;
}

const BACKEND_HELP = `
Backends:
  codex    the Codex CLI (codex exec; native review with codex exec review --base)
  gemini   the Gemini CLI (gemini -o json -p)
  claude   the Claude Code CLI (claude -p --output-format json)
  ollama   an Ollama server at OLLAMA_HOST (default http://localhost:11434); model from
           --model, OLLAMA_MODEL, or the server's most recent model
  CLIs are found on PATH, or at the absolute path in RELAY_CODEX_BIN / RELAY_GEMINI_BIN /
  RELAY_CLAUDE_BIN. They run in the repository with an allow-list environment (PATH, HOME,
  locale, terminal, proxies without passwords, toolchains, their own API key; more names with
  RELAY_PASS_ENV) and PHONE_A_FRIEND_DEPTH raised by one; a relay started inside a relay is
  refused.

Sandbox: read-only (default) | workspace-write | danger-full-access; a backend that cannot
  honour a mode refuses it (ollama: read-only only).
Limits: context ${MAX_CONTEXT_FILE_BYTES} bytes, diff ${MAX_DIFF_BYTES} bytes, whole prompt ${MAX_PROMPT_BYTES} bytes.
Exit codes: 0 answered (the answer is on stdout), 1 the relay failed (reason on stderr),
  2 the command line was wrong.`;

function addCommonOptions(command: Command): Command {
  return command
    .option('-b, --backend <name>', 'codex, gemini, claude or ollama (default: codex)')
    .option('--repo <path>', 'the repository the agent works in (default: the current folder)')
    .option('-m, --model <model>', "the backend's model (default: the backend's own choice)")
    .option('--sandbox <mode>', 'read-only, workspace-write or danger-full-access (default: read-only)')
    .option('--timeout <seconds>', 'give up after this many seconds (default: 600)', parseSeconds)
    .option('--json', 'print one result object instead of the answer')
    .option('-v, --verbose', 'show what the agent does on stderr (default when stderr is a terminal)');
}

/** Prints events as they come: answer deltas to stdout, progress and warnings to stderr. */
function terminalPrinter(flags: CommonFlags): { onEvent: (event: RelayEvent) => void; finish: (answer: string) => void; abandon: () => void } {
  const showProgress = !flags.json && (flags.verbose ?? Boolean(process.stderr.isTTY));
  let streamed = '';
  return {
    onEvent(event) {
      switch (event.type) {
        case 'delta':
          if (flags.json) return;
          streamed += event.text;
          process.stdout.write(event.text);
          return;
        case 'progress':
          if (showProgress) printError(`· ${event.text.replace(/\s*\n\s*/g, ' ').slice(0, 300)}`);
          return;
        case 'warning':
          printError(`! ${event.text}`);
          return;
        case 'usage':
          return;
        default:
          assertNever(event);
      }
    },
    finish(answer) {
      if (flags.json) return;
      if (streamed) {
        if (!streamed.endsWith('\n')) process.stdout.write('\n');
        return;
      }
      process.stdout.write(`${answer}\n`);
    },
    abandon() {
      // A stream cut short still ends its line, so the shell prompt does not glue onto it.
      if (streamed && !streamed.endsWith('\n')) process.stdout.write('\n');
    },
  };
}

/** What was asked, for the answer's record in a Relay project's `.relaycode/answers/`. */
interface Asked {
  readonly root: string;
  readonly kind: 'ask' | 'review';
  readonly prompt: string;
}

/** Runs one relay call with Ctrl+C wired to cancellation, printing and recording the outcome. */
async function runRelayCommand<R extends RelayResult>(flags: CommonFlags, asked: Asked, call: (signal: AbortSignal, onEvent: (event: RelayEvent) => void) => Promise<R>): Promise<void> {
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  const printer = terminalPrinter(flags);
  try {
    const result = await call(controller.signal, printer.onEvent);
    printer.finish(result.answer);
    // Recorded so a handoff brief (here or in the app) knows what the other agent said.
    const id = newAnswerId();
    const record = recordAnswer(asked.root, { id, kind: asked.kind, backend: result.backend, createdAt: new Date().toISOString(), prompt: asked.prompt, answer: result.answer, ok: true });
    if (flags.json) printJson({ ok: true, ...result, ...(record ? { recordId: id } : {}) });
    process.exitCode = EXIT.ok;
  } catch (error) {
    printer.abandon();
    if (!(error instanceof RelayError)) throw error;
    printError(`✘ ${error.message}`);
    if (flags.json) printJson({ ok: false, error: { code: error.code, message: error.message } });
    process.exitCode = EXIT.failed;
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
}

/** The options `ask` and `review` pass alike: backend, limits, environment and cancellation. */
function commonRelayOptions(flags: CommonFlags, signal: AbortSignal, onEvent: (event: RelayEvent) => void) {
  return {
    ...(flags.backend !== undefined ? { backend: flags.backend } : {}),
    ...(flags.timeout !== undefined ? { timeoutSeconds: flags.timeout } : {}),
    ...(flags.model !== undefined ? { model: flags.model } : {}),
    ...(flags.sandbox !== undefined ? { sandbox: flags.sandbox } : {}),
    env: process.env,
    signal,
    onEvent,
  };
}

function repoOf(flags: CommonFlags, program: Command): string {
  const cwd = program.opts<{ cwd?: string }>().cwd;
  return path.resolve(cwd ?? process.cwd(), flags.repo ?? '.');
}

/** Registers `relay ask` and `relay review`. */
export function registerRelayCommands(program: Command): void {
  addCommonOptions(
    program
      .command('ask')
      .description('ask another coding agent about your repository and print its answer')
      .argument('[prompt]', 'the request ("-" reads it from stdin)'),
  )
    .option('--context-file <file>', 'send this file as additional context')
    .option('--context <text>', 'send this text as additional context (not with --context-file)')
    .option('--include-diff', 'send the uncommitted diff (or the last commit\'s, when clean)')
    .addHelpText('after', `\nExamples:\n  relay ask "Is the retry logic in src/net.ts sound?" --include-diff\n  relay ask - --backend ollama --model qwen2.5-coder < question.md\n${BACKEND_HELP}`)
    .action(async (prompt: string | undefined, flags: AskFlags) => {
      const text = prompt === '-' ? readFileSync(0, 'utf8') : (prompt ?? '');
      const base = program.opts<{ cwd?: string }>().cwd ?? process.cwd();
      const repoPath = repoOf(flags, program);
      await runRelayCommand(flags, { root: repoPath, kind: 'ask', prompt: text }, (signal, onEvent) =>
        relay({
          prompt: text,
          repoPath,
          ...(flags.contextFile !== undefined ? { contextFile: path.resolve(base, flags.contextFile) } : {}),
          ...(flags.context !== undefined ? { contextText: flags.context } : {}),
          includeDiff: Boolean(flags.includeDiff),
          ...commonRelayOptions(flags, signal, onEvent),
        }),
      );
    });

  addCommonOptions(
    program
      .command('review')
      .description("ask another coding agent to review what HEAD changed since a base branch"),
  )
    .option('--base <branch>', 'compare against this branch (default: main, else master, else HEAD~1)')
    .option('--prompt <text>', 'what to ask about the changes (default: "Review the following changes.")')
    .addHelpText('after', `\nExamples:\n  relay review\n  relay review --base develop --backend gemini\n${BACKEND_HELP}`)
    .action(async (flags: ReviewFlags) => {
      const repoPath = repoOf(flags, program);
      await runRelayCommand(flags, { root: repoPath, kind: 'review', prompt: flags.prompt ?? DEFAULT_REVIEW_PROMPT }, (signal, onEvent) =>
        reviewRelay({
          repoPath,
          ...(flags.base !== undefined ? { base: flags.base } : {}),
          ...(flags.prompt !== undefined ? { prompt: flags.prompt } : {}),
          ...commonRelayOptions(flags, signal, onEvent),
        }),
      );
    });
}
