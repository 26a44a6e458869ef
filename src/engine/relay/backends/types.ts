import type { SessionUsage } from '../../claude-usage.js';
import type { Env } from '../depth.js';
import type { ProcRunner } from '../../proc/run.js';
import type { RetryPolicy } from '../../llm/retry.js';
import type { BackendResult } from '../errors.js';

/** The one sandbox vocabulary of the relay; each backend maps it to its own flags or refuses. */
export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** Backends the relay knows (src/shared holds the list: the window offers the same ones). */
export { BACKEND_NAMES, type BackendName } from '../../../shared/facts.js';
import type { BackendName } from '../../../shared/facts.js';

/**
 * What a running relay reports as it goes. `delta` pieces concatenate to the final answer;
 * `progress` says what the agent is doing (commands, reasoning, interim messages); `warning`
 * is something the caller should know (e.g. native review failed and the diff path was used).
 */
export type RelayEvent =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'progress'; readonly text: string }
  | { readonly type: 'warning'; readonly text: string }
  /** Token figures of the agent's session, when it reports them (claude): metrics and the handoff nudge. */
  | { readonly type: 'usage'; readonly usage: SessionUsage };

/** Receives relay events as they happen. */
export type RelayEventSink = (event: RelayEvent) => void;

/** How a backend streams: answer deltas, progress only, or nothing until the end. */
export type StreamingKind = 'answer' | 'progress' | 'none';

/** What the native review path of a backend can honour. */
export interface NativeReviewCapability {
  /** Sandbox modes the native review can be trusted to run under. */
  readonly sandboxes: readonly SandboxMode[];
  /** Whether a model can be chosen for it. */
  readonly model: boolean;
  /** Whether a custom review prompt can accompany a base branch. */
  readonly prompt: boolean;
}

/** One row of the capability table. */
export interface BackendCapabilities {
  readonly transport: 'cli' | 'http';
  /** Sandbox modes this backend accepts; others are refused before anything is sent. */
  readonly sandboxes: readonly SandboxMode[];
  /** Null when the backend has no review of its own (the diff path is used). */
  readonly nativeReview: NativeReviewCapability | null;
  readonly streaming: StreamingKind;
}

/** A `fetch` the relay and the HTTP client call; the platform's by default. */
export type FetchLike = typeof fetch;

/** Starts an agent CLI and reports how it ended (engine/proc's runProcess, or a test's stand-in). */
export type Spawner = ProcRunner;

/** Side effects a backend uses, injected so tests and the app can supply their own. */
export interface BackendDeps {
  readonly spawner: Spawner;
  readonly fetch: FetchLike;
  /** Retry policy of HTTP backends (tests pass tiny delays). */
  readonly retry?: Partial<RetryPolicy>;
  /** How HTTP backends wait between retries (tests can record instead of sleeping). */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Everything a backend needs for one run. */
export interface BackendRunInput {
  /** The full prompt envelope. */
  readonly prompt: string;
  readonly repoPath: string;
  readonly timeoutMs: number;
  readonly sandbox: SandboxMode;
  readonly model: string | null;
  /** The caller's environment with PHONE_A_FRIEND_DEPTH already raised; the agent gets an allow-list drawn from it. */
  readonly env: Env;
  readonly signal?: AbortSignal;
  readonly onEvent?: RelayEventSink;
  readonly deps: BackendDeps;
}

/** Everything a backend needs for a native review against a base. */
export interface BackendReviewInput extends Omit<BackendRunInput, 'prompt'> {
  readonly base: string;
}

/** A backend's answer. */
export interface BackendReply {
  readonly text: string;
}

/** A relay target: one CLI or HTTP server behind a common shape. */
export interface Backend {
  readonly name: BackendName;
  readonly capabilities: BackendCapabilities;
  /** Sends the envelope and resolves with the answer, or with the failure (a thrown error is a bug). */
  run(input: BackendRunInput): Promise<BackendResult<BackendReply>>;
  /** The backend's own diff review against `base`, when it has one. */
  review?(input: BackendReviewInput): Promise<BackendResult<BackendReply>>;
}
