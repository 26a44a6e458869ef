import { statSync } from 'node:fs';
import path from 'node:path';
import type { RetryPolicy } from '../llm/retry.js';
import { ok } from '../result.js';
import { DEPTH_ENV, type Env } from './depth.js';
import { relayFail, type RelayOutcome } from './errors.js';
import { BUILTIN_BACKENDS, findBackend, type BackendTable } from './backends/registry.js';
import { runProcess } from '../proc/run.js';
import { SANDBOX_MODES, type Backend, type BackendDeps, type BackendRunInput, type FetchLike, type RelayEventSink, type SandboxMode, type Spawner } from './backends/types.js';

/** The backend used when none is named. */
export const DEFAULT_BACKEND = 'codex';
/** The sandbox used when none is named. */
export const DEFAULT_SANDBOX: SandboxMode = 'read-only';
/** Ten minutes: agents reading a repository are slow. */
export const DEFAULT_TIMEOUT_SECONDS = 600;
// setTimeout cannot wait longer than this (a larger delay fires at once).
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Options shared by relay() and reviewRelay(): the target, limits, and injected side effects. */
export interface RelayCommonOptions {
  /** The repository the other agent works in (its cwd). */
  readonly repoPath: string;
  /** codex (default), gemini, claude or ollama; anything else is refused. */
  readonly backend?: string;
  /** Whole-run limit in seconds (default 600); must be greater than zero. */
  readonly timeoutSeconds?: number;
  /** The backend's model; null or absent lets the backend choose. */
  readonly model?: string | null;
  /** read-only (default), workspace-write or danger-full-access, if the backend can honour it. */
  readonly sandbox?: string;
  /** Aborting cancels the run and kills the agent process (the failure CANCELLED). */
  readonly signal?: AbortSignal;
  /** Receives answer deltas, progress and warnings as they happen. */
  readonly onEvent?: RelayEventSink;
  /** The caller's environment (default process.env): depth guard, PATH, RELAY_*_BIN, OLLAMA_HOST, keys. */
  readonly env?: Env;
  /** Starts agent CLIs (default: engine/proc's runProcess). */
  readonly spawner?: Spawner;
  /** HTTP for Ollama (default: the platform's fetch). */
  readonly fetch?: FetchLike;
  /** HTTP retry policy (tests pass tiny delays). */
  readonly retry?: Partial<RetryPolicy>;
  /** Waits between HTTP retries. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Milliseconds clock for durations (default Date.now). */
  readonly clock?: () => number;
  /** The backends to choose from (default: the built-in four). */
  readonly backends?: BackendTable;
}

/** The common options after validation. */
export interface ResolvedCommon {
  readonly repoPath: string;
  readonly backend: Backend;
  readonly sandbox: SandboxMode;
  readonly timeoutMs: number;
  readonly model: string | null;
  readonly env: Env;
  readonly deps: BackendDeps;
  readonly clock: () => number;
}

/** Checks timeout, repo, backend and sandbox in the spec's order; the first that fails is the outcome. */
export function resolveCommon(options: RelayCommonOptions): RelayOutcome<ResolvedCommon> {
  const timeout = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  if (typeof timeout !== 'number' || Number.isNaN(timeout) || timeout <= 0) return relayFail('INVALID_TIMEOUT', 'Timeout must be greater than zero');
  const repoPath = path.resolve(options.repoPath);
  if (!isDirectory(repoPath)) return relayFail('INVALID_REPO', `Repository path does not exist or is not a directory: ${repoPath}`);
  const table = options.backends ?? BUILTIN_BACKENDS;
  const name = options.backend ?? DEFAULT_BACKEND;
  const backend = findBackend(name, table);
  if (!backend) return relayFail('UNSUPPORTED_BACKEND', `Unsupported relay backend: ${name}. Supported: ${Object.keys(table).sort().join(', ')}`);
  const sandbox = options.sandbox ?? DEFAULT_SANDBOX;
  if (!isSandboxMode(sandbox) || !backend.capabilities.sandboxes.includes(sandbox)) {
    return relayFail('INVALID_SANDBOX', `Invalid sandbox mode: ${sandbox}. Allowed values: ${[...backend.capabilities.sandboxes].sort().join(', ')}`);
  }
  return ok({
    repoPath,
    backend,
    sandbox,
    timeoutMs: Math.min(Math.round(timeout * 1000), MAX_TIMER_MS) || 1,
    model: options.model?.trim() ? options.model.trim() : null,
    env: options.env ?? process.env,
    deps: {
      spawner: options.spawner ?? runProcess,
      fetch: options.fetch ?? globalThis.fetch,
      ...(options.retry ? { retry: options.retry } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    },
    clock: options.clock ?? Date.now,
  });
}

/**
 * What every backend call gets, the prompt aside: the repository, limits, model, the caller's
 * environment with the depth guard raised to `depth`, cancellation and the event sink.
 */
export function backendInput(common: ResolvedCommon, options: Pick<RelayCommonOptions, 'signal' | 'onEvent'>, depth: number): Omit<BackendRunInput, 'prompt'> {
  return {
    repoPath: common.repoPath,
    timeoutMs: common.timeoutMs,
    sandbox: common.sandbox,
    model: common.model,
    env: { ...common.env, [DEPTH_ENV]: String(depth) },
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    deps: common.deps,
  };
}

/** True for the three sandbox names. */
export function isSandboxMode(value: string): value is SandboxMode {
  return (SANDBOX_MODES as readonly string[]).includes(value);
}

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
