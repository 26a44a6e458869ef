// The host: the contract turned into handlers over one runtime and one store, behind a single
// `invoke(channel, input)` that validates input before any handler runs and turns every
// outcome into a reply envelope. Electron's ipcMain and `relay ui` are two thin bindings of it.
import { contract, isChannelName, TRANSPORT_ERRORS, type ChannelInput, type ChannelName, type ChannelOutput, type EventEnvelope, type IpcReply } from '../shared/contract.js';
import { existsSync } from 'node:fs';
import type { z } from 'zod';
import { recoverPending } from '../engine/patch/transaction.js';
import { createRuntime, type Engines, type Runtime, type RuntimeOptions } from '../engine/runtime/index.js';
import type { Store } from '../engine/store/index.js';
import { createHandlers, type Handlers } from './handlers.js';
import { attachRecorder, type Recorder } from './recorder.js';
import { startLiveHistory, type LiveHistory } from './live-history.js';
import type { ProjectWatchOptions } from './project-watch.js';
import type { ProjectRef } from '../engine/records/index.js';
import { defaultTerminalSettings, type TerminalSettings } from './handoff-terminal.js';
import type { AppSettings } from '../shared/schemas.js';
import type { FolderPicker } from './folders.js';

export interface Host {
  /** Runs one channel: unknown channel or invalid input are refused before any handler runs. */
  invoke(channel: string, input: unknown): Promise<IpcReply<unknown>>;
  /** Typed `invoke` for callers in Node (tests, the CLI). */
  call<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<IpcReply<ChannelOutput<C>>>;
  /** Runtime events (replaying held ones newer than `since`, when given). */
  subscribe(listener: (envelope: EventEnvelope) => void, since?: number): () => void;
  readonly runtime: Runtime;
  readonly store: Store;
  readonly handlers: Handlers;
  /** Settles once the start-up crash recovery of every registered project has finished (it runs in the background). */
  readonly recovered: Promise<void>;
  /** The watchers of the registered projects' files of truth (what is watched, for diagnostics and tests). */
  readonly liveHistory: LiveHistory;
  /** Shuts the runtime down (pending approvals denied, tasks cancelled) and writes the last events. The store stays open. */
  close(): Promise<void>;
}

export interface HostOptions {
  readonly store: Store;
  readonly engines?: Partial<Engines>;
  readonly clock?: () => number;
  readonly newId?: () => string;
  /** Other runtime options (grace period, event capacity, command timeouts). */
  readonly runtime?: Omit<RuntimeOptions, 'engines' | 'clock' | 'newId' | 'startSeq'>;
  /** Check every handler's output against the contract (default true; a mismatch is an OUTPUT_INVALID error). */
  readonly validateOutput?: boolean;
  /** Where recording failures go (default console.error). */
  readonly onRecordError?: (error: unknown) => void;
  /** How the projects' files of truth are watched (debounce), for tests. */
  readonly watch?: ProjectWatchOptions;
  /** Told after the app settings changed through the contract. */
  readonly onAppSettingsChanged?: (settings: AppSettings) => void;
  /** "Start in a terminal": environment, relay CLI and platform (default: this process's). */
  readonly terminal?: Partial<TerminalSettings>;
  /** The system's folder picker (the Electron shell's); a browser window types the path instead. */
  readonly folderPicker?: FolderPicker;
}

/**
 * Starts a runtime over the store's registered projects: each project's files of truth are
 * watched and reindexed (so CLI-made runs show up, now and while the host runs), and its
 * interrupted transactions are rolled back in the background (each becoming a run).
 */
export function createHost(options: HostOptions): Host {
  const { store } = options;
  const clock = options.clock ?? Date.now;
  const runtime = createRuntime({
    ...options.runtime,
    ...(options.engines ? { engines: options.engines } : {}),
    clock,
    ...(options.newId ? { newId: options.newId } : {}),
    startSeq: store.events.lastSeq(),
  });
  const onError = options.onRecordError;
  const recorder: Recorder = attachRecorder({ runtime, store, clock, ...(onError ? { onError } : {}) });
  // Watchers start on each project's registration, before its reindex: nothing written meanwhile is missed.
  const live = startLiveHistory({ runtime, store, recorder, ...(options.watch ? { watch: options.watch } : {}), ...(onError ? { onError } : {}) });
  const recoveries: Array<Promise<void>> = [];
  for (const project of store.projects.list()) {
    runtime.send({ type: 'RegisterProject', projectId: project.projectId, root: project.root, name: project.name, policy: project.settings.approvalPolicy });
    // A folder that is missing now (an unmounted drive) keeps its indexed history until it is back.
    if (!existsSync(project.root)) continue;
    try {
      recorder.reindex(project);
    } catch (error) {
      onError?.(error);
    }
    recoveries.push(recoverAtStart(project, recorder, onError));
  }
  const tick = options.engines?.tick;
  const handlers = createHandlers({
    runtime,
    store,
    recorder,
    now: () => new Date(clock()),
    terminal: defaultTerminalSettings(options.terminal),
    ...(options.onAppSettingsChanged ? { onAppSettingsChanged: options.onAppSettingsChanged } : {}),
    ...(tick?.preview ? { previewTick: tick.preview.bind(tick) } : {}),
    ...(options.folderPicker ? { folderPicker: options.folderPicker } : {}),
  });
  const validateOutput = options.validateOutput ?? true;

  const invoke = async (channel: string, input: unknown): Promise<IpcReply<unknown>> => {
    if (!isChannelName(channel)) return refusal(TRANSPORT_ERRORS.unknownChannel, `There is no channel "${channel}".`);
    const spec = contract[channel];
    const parsed = spec.input.safeParse(input ?? {});
    if (!parsed.success) return refusal(TRANSPORT_ERRORS.invalidInput, `Invalid input for ${channel}: ${describeIssues(parsed.error)}`);
    let result;
    try {
      result = await (handlers[channel] as (args: unknown) => ReturnType<Handlers[ChannelName]>)(parsed.data);
    } catch (error) {
      return refusal(TRANSPORT_ERRORS.internal, `${channel} failed unexpectedly: ${(error as Error)?.message ?? String(error)}`);
    }
    if (!result.ok) return refusal(result.error.code, result.error.message);
    if (!validateOutput) return { ok: true, value: result.value };
    const output = (spec.output as z.ZodType).safeParse(result.value);
    if (!output.success) return refusal(TRANSPORT_ERRORS.outputInvalid, `${channel} produced output that breaks the contract: ${describeIssues(output.error)}`);
    return { ok: true, value: output.data };
  };

  return {
    invoke,
    call: (channel, input) => invoke(channel, input) as Promise<IpcReply<ChannelOutput<typeof channel>>>,
    subscribe: (listener, since) => runtime.subscribe(listener, since),
    runtime,
    store,
    handlers,
    recovered: Promise.all(recoveries).then(() => undefined),
    liveHistory: live,
    close: async () => {
      live.close();
      await runtime.shutdown();
      recorder.detach();
    },
  };
}

/**
 * Rolls back what a crash left in a project (under the project lock, so a transaction queued
 * meanwhile waits for it or recovers it itself); each rolled-back transaction becomes a run and
 * a notice, and an interrupted git commit's outcome is indexed too.
 */
function recoverAtStart(project: ProjectRef, recorder: Recorder, onError: ((error: unknown) => void) | undefined): Promise<void> {
  return recoverPending(project.root).then(
    (report) => {
      if ('busy' in report) return;
      const rolledBack = report.recovered.filter((r) => !r.refused).map((r) => ({ kind: 'transaction' as const, key: r.uuid }));
      if (rolledBack.length > 0) recorder.indexChanged(project, rolledBack);
      if (report.gitCommit) recorder.reindex(project);
      for (const problem of report.problems) onError?.(new Error(problem.message));
    },
    (error: unknown) => onError?.(error),
  );
}

function refusal(code: string, message: string): IpcReply<never> {
  return { ok: false, error: { code, message } };
}

/** "text: Too small…; source: Invalid option…" — the first few issues, with their paths. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(input)'}: ${issue.message}`)
    .join('; ');
}
