// The options `relay ask` and `relay review` share, and their help. Loaded at start-up, so it
// imports nothing but commander and the relay limits.
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_CONTEXT_FILE_BYTES, MAX_DIFF_BYTES, MAX_PROMPT_BYTES } from '../engine/relay/limits.js';

/** Options both commands take. */
export interface CommonFlags {
  readonly backend?: string;
  readonly repo?: string;
  readonly model?: string;
  readonly sandbox?: string;
  readonly timeout?: number;
  readonly json?: boolean;
  readonly verbose?: boolean;
}

function parseSeconds(value: string): number {
  const seconds = Number(value);
  if (value.trim() === '' || Number.isNaN(seconds)) throw new InvalidArgumentError('expected a number of seconds.');
  return seconds;
}

/** What both commands' --help says about backends, sandbox modes and limits. */
export const BACKEND_HELP = `Backends:
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
Limits: context ${MAX_CONTEXT_FILE_BYTES} bytes, diff ${MAX_DIFF_BYTES} bytes, whole prompt ${MAX_PROMPT_BYTES} bytes.`;

/** Adds the options both commands take. */
export function addCommonOptions(command: Command): Command {
  return command
    .option('-b, --backend <name>', 'codex, gemini, claude or ollama (default: codex)')
    .option('--repo <path>', 'the repository the agent works in (default: the current folder)')
    .option('-m, --model <model>', "the backend's model (default: the backend's own choice)")
    .option('--sandbox <mode>', 'read-only, workspace-write or danger-full-access (default: read-only)')
    .option('--timeout <seconds>', 'give up after this many seconds (default: 600)', parseSeconds)
    .option('--json', 'print one result object instead of the answer')
    .option('-v, --verbose', 'show what the agent does on stderr (default when stderr is a terminal)');
}
