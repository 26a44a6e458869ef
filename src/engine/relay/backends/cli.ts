import { assertNever, fail, ok } from '../../result.js';
import type { BackendResult } from '../errors.js';
import { agentChildEnv, redactSecrets, secretValuesOf } from '../../secrets/index.js';
import { DEPTH_ENV } from '../depth.js';
import { locateProgram } from './locate.js';
import type { ProcOutput, ProcRequest } from '../../proc/run.js';
import type { Backend, BackendReply, BackendRunInput, SandboxMode } from './types.js';

/**
 * Longest prompt passed as one argv element. Linux refuses a single argument over 128 KiB
 * (MAX_ARG_STRLEN), far below the 500 KB envelope limit, so bigger prompts go through stdin.
 */
export const PROMPT_ARG_MAX_BYTES = 100_000;

/** True when the prompt is small enough to travel as an argument. */
export function fitsInArgv(prompt: string): boolean {
  return Buffer.byteLength(prompt, 'utf-8') <= PROMPT_ARG_MAX_BYTES;
}

/** One invocation of an agent CLI. */
export interface CliCall extends Pick<ProcRequest, 'input' | 'onStdout' | 'onStderr'> {
  readonly program: 'codex' | 'gemini' | 'claude';
  readonly installHint: string;
  readonly args: readonly string[];
}

/** What an agent CLI printed after exiting on its own. */
export interface CliExit extends Pick<ProcOutput, 'stdout' | 'stderr'> {
  readonly exitCode: number;
  /** Withholds secrets (by rule, and the caller's own secret values) in text that goes into a message. */
  readonly redact: (text: string) => string;
}

/** The last non-empty lines of a tool's output, for an error message. */
export function tail(text: string, lines = 5): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(-lines)
    .join('\n');
}

/** Output kept per stream: an agent that prints more is not giving an answer anyone reads. */
const MAX_AGENT_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * Finds and runs an agent CLI in the repo with its allow-list environment (engine/secrets'
 * AGENT_ENV: the tools profile, its own credentials, the raised depth guard); turns "not found",
 * "could not start", timeouts, cancellation and signals into the backend's failure, and hands
 * a normal exit (whatever its code) back to the backend to judge.
 */
export async function runCli(call: CliCall, input: Pick<BackendRunInput, 'repoPath' | 'timeoutMs' | 'env' | 'signal' | 'deps'>): Promise<BackendResult<CliExit>> {
  const located = locateProgram(call.program, input.env, call.installHint);
  if (!located.ok) return fail('NOT_FOUND', located.message);
  const knownValues = secretValuesOf(input.env);
  const mask = (text: string): string => redactSecrets(text, { knownValues });
  const outcome = await input.deps.spawner({
    command: located.path,
    args: call.args,
    cwd: input.repoPath,
    env: agentChildEnv(call.program, input.env, { allow: [DEPTH_ENV] }),
    ...(call.input !== undefined ? { input: call.input } : {}),
    timeoutMs: input.timeoutMs,
    maxOutputBytes: MAX_AGENT_OUTPUT_BYTES,
    ...(input.signal ? { signal: input.signal } : {}),
    ...(call.onStdout ? { onStdout: call.onStdout } : {}),
    ...(call.onStderr ? { onStderr: call.onStderr } : {}),
  });
  switch (outcome.kind) {
    case 'spawn-failed':
      return fail('SPAWN_FAILED', `Could not start ${call.program} (${located.path}): ${mask(outcome.message)}`);
    case 'timed-out':
      return fail('TIMEOUT', `${call.program} timed out after ${formatSeconds(input.timeoutMs)}`);
    case 'cancelled':
      return fail('CANCELLED', `${call.program} was cancelled`);
    case 'signalled':
      return fail('EXIT_CODE', `${call.program} was killed by ${outcome.signal}${tail(outcome.stderr) ? `: ${mask(tail(outcome.stderr))}` : ''}`);
    case 'exited':
      return ok({ exitCode: outcome.exitCode, stdout: outcome.stdout, stderr: outcome.stderr, redact: mask });
    default:
      return assertNever(outcome);
  }
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} second${seconds === 1 ? '' : 's'}`;
}

/** Splits a stream of text into complete lines for a callback, keeping the partial last line. */
export function lineFeeder(onLine: (line: string) => void): (text: string) => void {
  let buffer = '';
  return (text) => {
    buffer += text;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      onLine(buffer.slice(0, newline).replace(/\r$/, ''));
      buffer = buffer.slice(newline + 1);
      newline = buffer.indexOf('\n');
    }
  };
}

/** How a one-shot agent CLI (claude, gemini) is run and judged. */
export interface OneShotCli {
  readonly name: 'claude' | 'gemini';
  readonly installHint: string;
  /** argv for the envelope as its last argument, or (prompt null) for the envelope on stdin. */
  readonly args: (options: { sandbox: SandboxMode; model: string | null; prompt: string | null }) => string[];
  /** The answer, or the failure, in what the CLI printed. */
  readonly judge: (exit: CliExit, input: BackendRunInput) => BackendResult<BackendReply>;
}

/**
 * A backend over a one-shot agent CLI: one JSON reply at the end, every sandbox, no review of
 * its own. The envelope is its last argument, or goes on stdin when it is too big for argv.
 */
export function oneShotCliBackend(cli: OneShotCli): Backend {
  return {
    name: cli.name,
    capabilities: { transport: 'cli', sandboxes: ['read-only', 'workspace-write', 'danger-full-access'], nativeReview: null, streaming: 'none' },
    async run(input) {
      const inArgv = fitsInArgv(input.prompt);
      const args = cli.args({ sandbox: input.sandbox, model: input.model, prompt: inArgv ? input.prompt : null });
      const ran = await runCli({ program: cli.name, installHint: cli.installHint, args, ...(inArgv ? {} : { input: input.prompt }) }, input);
      return ran.ok ? cli.judge(ran.value, input) : ran;
    },
  };
}

/** The answer, trimmed; a blank one is EMPTY_ANSWER ("<program> completed without producing an answer"). */
export function answerOf(program: string, text: string): BackendResult<BackendReply> {
  const answer = text.trim();
  return answer ? ok({ text: answer }) : fail('EMPTY_ANSWER', `${program} completed without producing an answer`);
}
