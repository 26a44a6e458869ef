// One handler per contract channel, over one runtime and one store. Handlers receive input
// already validated by the contract's zod schema and return a Result; they never see the
// transport (Electron IPC or WebSocket).
import { TickPreviewSchema, type ChannelArgs, type ChannelName, type ChannelOutput } from '../shared/contract.js';
import { loadRelayConfig } from '../engine/patch/config.js';
import { systemPrompt } from '../engine/patch/prompt.js';
import { fail, ok, type Result } from '../engine/result.js';
import type { Runtime } from '../engine/runtime/index.js';
import type { Store } from '../engine/store/index.js';
import { registerProject, removeProject, toProject, updateProjectSettings } from './projects.js';
import type { Recorder } from './recorder.js';
import { previewHandoff } from './handoff-preview.js';
import { startHandoffInTerminal, type TerminalSettings } from './handoff-terminal.js';
import { getRunDetail } from './run-detail.js';
import { retryAnswer } from './retry.js';
import { checkFolder, type FolderPicker } from './folders.js';
import { withCommitOffer } from './tick-commit.js';
import { readAppSettings, updateAppSettings } from './app-settings.js';
import type { AppSettings } from '../shared/schemas.js';
import type { TickPreview } from '../engine/tick/preview.js';

export type Handler<C extends ChannelName> = (args: ChannelArgs<C>) => Result<ChannelOutput<C>> | Promise<Result<ChannelOutput<C>>>;

/** The handler table: exactly one handler per channel (the type makes a missing one a compile error). */
export type Handlers = { readonly [C in ChannelName]: Handler<C> };

export interface HandlerDeps {
  readonly runtime: Runtime;
  readonly store: Store;
  readonly recorder: Recorder;
  readonly now: () => Date;
  /** How "Start in a terminal" runs the relay CLI, and in which environment. */
  readonly terminal: TerminalSettings;
  /** Told after the app settings changed (the Electron shell applies auto-start, watching, paths). */
  readonly onAppSettingsChanged?: (settings: AppSettings) => void;
  /** The system's folder picker (the desktop app's; absent in a browser). */
  readonly folderPicker?: FolderPicker;
  /** The tick engine's preview (absent: this build has no tick engine). */
  readonly previewTick?: (root: string, now: Date) => Promise<TickPreview>;
}

/** Builds the handler table. */
export function createHandlers(deps: HandlerDeps): Handlers {
  const { runtime, store } = deps;
  const project = (projectId: string) => {
    const record = store.projects.get(projectId);
    return record ? ok(record) : fail('UNKNOWN_PROJECT', `No project "${projectId}" is registered.`);
  };
  return {
    listProjects: () => ok(store.projects.list().map(toProject)),
    registerProject: (args) => registerProject(deps, args),
    removeProject: (args) => removeProject(deps, args.projectId),
    checkFolder: (args) => ok(checkFolder(store, args.path)),
    pickFolder: async () => {
      if (!deps.folderPicker) return fail('FOLDER_PICKER_UNAVAILABLE', 'This window has no folder picker (it runs in a browser): type the folder’s path instead.');
      return ok({ path: await deps.folderPicker.pick({ title: 'Add a project folder to Relay Desk' }) });
    },
    getHostInfo: () => ok({ folderPicker: deps.folderPicker !== undefined }),
    updateProjectSettings: (args) => updateProjectSettings(deps, args),
    getSystemPrompt: (args) => {
      const found = project(args.projectId);
      if (!found.ok) return found;
      const config = loadRelayConfig(found.value.root);
      return ok({ projectId: found.value.projectId, prompt: systemPrompt(config.ok ? config.value.projectId : found.value.projectId) });
    },
    getAppSettings: () => ok(readAppSettings(store)),
    updateAppSettings: (args) => {
      const settings = updateAppSettings(store, args);
      deps.onAppSettingsChanged?.(settings);
      return ok(settings);
    },
    reindexProject: (args) => {
      const found = project(args.projectId);
      return found.ok ? ok(deps.recorder.reindex(found.value)) : found;
    },
    // A read: the recorder keeps the rows current (project watchers), so listing never writes.
    listRuns: (args) => {
      const listed = store.runs.list({
        limit: args.limit,
        ...(args.projectId !== undefined ? { projectId: args.projectId } : {}),
        ...(args.kind !== undefined ? { kind: args.kind } : {}),
        ...(args.status !== undefined ? { status: args.status } : {}),
        ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
      });
      return 'error' in listed ? fail('CURSOR_INVALID', 'The cursor is not one this history gave out; list again from the first page.') : ok(listed);
    },
    getRun: async (args) => {
      const read = getRunDetail(store, args.runId);
      return read.ok ? ok(await withCommitOffer(read.value, store.projects.get(read.value.run.projectId)?.root ?? null)) : read;
    },
    applyPatch: (args) => {
      if (args.projectId !== undefined) return runtime.send({ type: 'ApplyPatch', text: args.text, source: args.source, projectId: args.projectId });
      // The clipboard reaches only the projects whose watching is on; a paste in the window, any.
      const among = args.source === 'clipboard' ? store.projects.list().filter((p) => p.settings.watching).map((p) => p.projectId) : undefined;
      return runtime.send({ type: 'ApplyPatch', text: args.text, source: args.source, ...(among ? { among } : {}) });
    },
    chooseProject: (args) => runtime.send({ type: 'ChooseProject', choiceId: args.choiceId, projectId: args.projectId }),
    retryAnswer: (args) => retryAnswer(deps, args.runId),
    approve: (args) => runtime.send({ type: 'Approve', approvalId: args.approvalId, ...(args.keep !== undefined ? { keep: args.keep } : {}) }),
    reject: (args) => runtime.send({ type: 'Reject', approvalId: args.approvalId, ...(args.reason !== undefined ? { reason: args.reason } : {}) }),
    revert: (args) => runtime.send({ type: 'Revert', projectId: args.projectId, transaction: args.transaction }),
    previewTick: async (args) => {
      const found = project(args.projectId);
      if (!found.ok) return found;
      if (!deps.previewTick) return fail('ENGINE_UNAVAILABLE', 'The tick engine is not part of this build.');
      // The engine's readonly value, copied into the contract's shape (and checked on the way).
      return ok(TickPreviewSchema.parse(await deps.previewTick(found.value.root, deps.now())));
    },
    runTick: (args) => runtime.send({ type: 'RunTick', projectId: args.projectId }),
    commitTick: (args) => runtime.send({ type: 'CommitTick', projectId: args.projectId, runId: args.runId, message: args.message }),
    ask: (args) => {
      const request = {
        prompt: args.prompt,
        includeDiff: args.includeDiff,
        ...(args.backend !== undefined ? { backend: args.backend } : {}),
        ...(args.context !== undefined ? { context: args.context } : {}),
      };
      return runtime.send({ type: 'Ask', projectId: args.projectId, request });
    },
    review: (args) => {
      const request = {
        ...(args.backend !== undefined ? { backend: args.backend } : {}),
        ...(args.base !== undefined ? { base: args.base } : {}),
        ...(args.prompt !== undefined ? { prompt: args.prompt } : {}),
      };
      return runtime.send({ type: 'Review', projectId: args.projectId, request });
    },
    previewHandoff: (args) => previewHandoff(deps, args),
    buildHandoff: (args) => runtime.send({ type: 'BuildHandoff', projectId: args.projectId, request: args.target !== undefined ? { target: args.target } : {} }),
    startHandoffInTerminal: (args) => startHandoffInTerminal(deps, args),
    cancelTask: (args) => runtime.send({ type: 'CancelTask', taskId: args.taskId }),
    getRuntimeState: () => ok(runtime.state()),
    replayEvents: (args) => ok(runtime.replay(args.since)),
  };
}
