import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { runProcess, type ProcOutcome } from '../proc/run.js';
import { assertNever } from '../result.js';
import { DEPTH_ENV } from '../relay/depth.js';
import { agentChildEnv, buildChildEnv, redactSecrets, type ChildEnv } from '../secrets/index.js';
import type { TickConfig } from './config.js';
import { judgeCall, parseClaudeVersion, parsePermissionModes, wrapperCost, type CallVerdict } from './wrapper.js';

/** The environment a tick's children get their allow-list from (the caller's; process.env when absent). */
export type SourceEnv = Readonly<Record<string, string | undefined>>;

/** One Claude Code call: the adapter's only input. */
export interface ClaudeInvocation {
  readonly command: string;
  readonly args: readonly string[];
  /** Written to stdin, which is then closed. */
  readonly prompt: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly env?: SourceEnv;
  /** Kills the call when aborted. */
  readonly signal?: AbortSignal;
}

/** A finished call, with what the runner needs to account for it. */
export interface ClaudeCallRecord {
  readonly argv: readonly string[];
  readonly exitCode: number | null;
  readonly durationMs: number;
  readonly verdict: CallVerdict;
  /** total_cost_usd from the wrapper, null when the wrapper did not say. */
  readonly costUsd: number | null;
  readonly stderrTail: string;
}

/** A command given as a relative path ("./bin/claude") is taken from the repository root. */
export function commandPath(command: string, root: string): string {
  return command.includes('/') && !path.isAbsolute(command) ? path.resolve(root, command) : command;
}

function modelFlags(model: string, fallback: string): string[] {
  // The CLI refuses a fallback equal to the main model.
  return fallback && fallback !== model ? ['--model', model, '--fallback-model', fallback] : ['--model', model];
}

function budgetFlag(usd: number): string[] {
  return usd > 0 ? ['--max-budget-usd', String(usd)] : [];
}

/** The orchestrator's argv: print mode, JSON wrapper, plan mode, one turn by default. */
export function orchestratorArgs(config: TickConfig, systemPrompt: string): string[] {
  const o = config.orchestrator;
  return [
    '-p',
    '--output-format',
    config.claude_code_cli.output_format,
    '--max-turns',
    String(o.max_turns),
    ...(config.claude_code_cli.no_session_persistence ? ['--no-session-persistence'] : []),
    ...(o.allowed_tools.trim() ? ['--allowedTools', o.allowed_tools] : []),
    '--permission-mode',
    o.permission_mode,
    ...modelFlags(config.models.orchestrator_model, config.models.orchestrator_fallback_model),
    ...budgetFlag(o.max_budget_usd),
    '--append-system-prompt',
    systemPrompt,
  ];
}

/** The builder's argv: restricted tools, the configured permission mode, `maxTurns` turns. */
export function builderArgs(config: TickConfig, maxTurns: number, systemPrompt: string): string[] {
  const b = config.builder.claude_code;
  return [
    '-p',
    '--output-format',
    config.claude_code_cli.output_format,
    '--max-turns',
    String(maxTurns),
    ...(config.claude_code_cli.no_session_persistence ? ['--no-session-persistence'] : []),
    '--allowedTools',
    b.allowed_tools,
    '--permission-mode',
    b.permission_mode,
    ...modelFlags(config.models.builder_model, config.models.builder_fallback_model),
    ...budgetFlag(b.max_budget_usd),
    '--append-system-prompt',
    systemPrompt,
  ];
}

const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/**
 * The environment of a Claude call (builder, orchestrator, probe): the agent allow-list with
 * Claude's own credentials, and the relay depth guard passed on unchanged (so a builder that
 * asks a friend counts as one level).
 */
export function claudeEnv(env: SourceEnv | undefined): ChildEnv {
  return agentChildEnv('claude', env ?? process.env, { allow: [DEPTH_ENV] });
}

/** The environment of a verification command: the user's own tools, no credentials. */
export function toolEnv(env: SourceEnv | undefined): ChildEnv {
  return buildChildEnv({ from: env ?? process.env, profile: 'tools' });
}

/**
 * Runs one Claude Code call as a child (argv only, no shell, cwd = repo root) and judges it.
 * It runs in its own process group (engine/proc): on timeout, cancel or exit, the tools Claude
 * started go with it.
 */
export async function invokeClaude(call: ClaudeInvocation, now: () => number = Date.now): Promise<ClaudeCallRecord> {
  const started = now();
  const child = await runProcess({
    command: commandPath(call.command, call.cwd),
    args: call.args,
    cwd: call.cwd,
    env: claudeEnv(call.env),
    input: call.prompt,
    timeoutMs: Math.floor(call.timeoutMs),
    maxOutputBytes: MAX_OUTPUT_BYTES,
    ...(call.signal ? { signal: call.signal } : {}),
  });
  const ran = child.kind !== 'spawn-failed';
  const stdout = ran ? child.stdout : '';
  const stderr = ran ? child.stderr : '';
  const exitCode = child.kind === 'exited' ? child.exitCode : null;
  const verdict = judgeCall({
    spawnError: ran ? null : child.message,
    timedOut: child.kind === 'timed-out',
    signal: child.kind === 'signalled' ? child.signal : child.kind === 'cancelled' ? 'SIGTERM (cancelled)' : null,
    exitCode,
    stdout,
    stderr,
  });
  // Kept for reports and logs, which outlive the moment: what Claude printed may quote a secret.
  const tail = redactSecrets(stderr.trim());
  return {
    argv: [call.command, ...call.args],
    exitCode,
    durationMs: Math.max(0, Math.round(now() - started)),
    verdict,
    costUsd: wrapperCost(verdict.wrapper),
    stderrTail: tail.length > 2000 ? tail.slice(-2000) : tail,
  };
}

/** The absolute path the command resolves to, searching PATH for a bare name; null when not found. */
export function resolveCommand(command: string, root: string, env: SourceEnv): string | null {
  const executable = (file: string): boolean => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes('/')) {
    const file = commandPath(command, root);
    return executable(file) ? file : null;
  }
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, command);
    if (executable(file)) return file;
  }
  return null;
}

/** What `claude --version` and `claude --help` tell about the installed CLI. */
export interface ClaudeProbe {
  readonly version: string | null;
  readonly permissionModes: readonly string[];
  readonly problem: string | null;
}

function probeFailure(outcome: ProcOutcome): string {
  switch (outcome.kind) {
    case 'spawn-failed':
      return outcome.message;
    case 'exited':
      return outcome.stderr.trim() || `exit code ${outcome.exitCode}`;
    case 'signalled':
      return `stopped by ${outcome.signal}`;
    case 'timed-out':
      return 'no answer within 20 seconds';
    case 'cancelled':
      return 'cancelled';
    default:
      return assertNever(outcome);
  }
}

/** Asks the Claude CLI for its version and the permission modes it accepts (for `relais doctor`). */
export async function probeClaude(command: string, root: string, env: SourceEnv | undefined): Promise<ClaudeProbe> {
  const run = (args: string[]) => runProcess({ command: commandPath(command, root), args, cwd: root, env: claudeEnv(env), timeoutMs: 20_000, maxOutputBytes: 1024 * 1024 });
  const version = await run(['--version']);
  if (version.kind !== 'exited' || version.exitCode !== 0) return { version: null, permissionModes: [], problem: `\`${command} --version\` failed: ${probeFailure(version)}` };
  const help = await run(['--help']);
  return {
    version: parseClaudeVersion(version.stdout),
    permissionModes: help.kind === 'spawn-failed' ? [] : parsePermissionModes(help.stdout),
    problem: help.kind === 'exited' && help.exitCode === 0 ? null : `\`${command} --help\` failed`,
  };
}
