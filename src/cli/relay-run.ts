// Running one `relay ask` / `relay review`: printing the agent's events as they come, Ctrl+C as
// cancellation, the answer's record, and the exit code. Loaded only when one of them runs.
import path from 'node:path';
import type { Command } from 'commander';
import { newAnswerId, recordAnswer, type RelayErrorCode, type RelayEvent, type RelayOutcome, type RelayResult } from '../engine/relay/index.js';
import { assertNever } from '../engine/result.js';
import { EXIT, printError, printJson } from './io.js';
import type { CommonFlags } from './relay-options.js';

/**
 * Refusals caused by the command line itself (a missing prompt, an unknown backend, a file or
 * folder it names that is not there): exit 2, like every other usage error.
 */
const USAGE_CODES: ReadonlySet<RelayErrorCode> = new Set<RelayErrorCode>(['PROMPT_REQUIRED', 'INVALID_TIMEOUT', 'INVALID_REPO', 'UNSUPPORTED_BACKEND', 'INVALID_SANDBOX', 'CONTEXT_CONFLICT', 'CONTEXT_FILE', 'BASE_NOT_FOUND']);

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
export interface Asked {
  readonly root: string;
  readonly kind: 'ask' | 'review';
  readonly prompt: string;
}

/** Runs one relay call with Ctrl+C wired to cancellation, printing and recording the outcome. */
export async function runRelayCommand<R extends RelayResult>(flags: CommonFlags, asked: Asked, call: (signal: AbortSignal, onEvent: (event: RelayEvent) => void) => Promise<RelayOutcome<R>>): Promise<void> {
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  process.once('SIGINT', cancel);
  process.once('SIGTERM', cancel);
  const printer = terminalPrinter(flags);
  try {
    const outcome = await call(controller.signal, printer.onEvent);
    if (!outcome.ok) {
      const { error } = outcome;
      printer.abandon();
      printError(`✘ ${error.message}`);
      if (flags.json) printJson({ ok: false, error: { code: error.code, message: error.message } });
      process.exitCode = USAGE_CODES.has(error.code) ? EXIT.usage : EXIT.failed;
      return;
    }
    const result = outcome.value;
    printer.finish(result.answer);
    // Recorded so a handoff brief (here or in the app) knows what the other agent said.
    const id = newAnswerId();
    const record = recordAnswer(asked.root, { id, kind: asked.kind, backend: result.backend, createdAt: new Date().toISOString(), prompt: asked.prompt, answer: result.answer, ok: true });
    if (flags.json) printJson({ ok: true, ...result, ...(record ? { recordId: id } : {}) });
    process.exitCode = EXIT.ok;
  } catch (error) {
    // A bug: the stream cut short still ends its line before the error is reported.
    printer.abandon();
    throw error;
  } finally {
    process.off('SIGINT', cancel);
    process.off('SIGTERM', cancel);
  }
}

/** The options `ask` and `review` pass alike: backend, limits, environment and cancellation. */
export function commonRelayOptions(flags: CommonFlags, signal: AbortSignal, onEvent: (event: RelayEvent) => void) {
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

/** The repository the agent works in: --repo, relative to -C or the current folder. */
export function repoOf(flags: CommonFlags, program: Command): string {
  const cwd = program.opts<{ cwd?: string }>().cwd;
  return path.resolve(cwd ?? process.cwd(), flags.repo ?? '.');
}
