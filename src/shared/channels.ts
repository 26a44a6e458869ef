// The contract's channel names as a plain list, without zod: the sandboxed preload and the
// browser transport build one function per name from it and must not load zod at runtime.
// A unit test keeps this list equal to the keys of `contract` in contract.ts.
import type { ChannelName } from './contract.js';

export const CHANNEL_NAMES = [
  'listProjects',
  'registerProject',
  'removeProject',
  'checkFolder',
  'pickFolder',
  'getHostInfo',
  'updateProjectSettings',
  'getSystemPrompt',
  'getAppSettings',
  'updateAppSettings',
  'reindexProject',
  'listRuns',
  'getRun',
  'applyPatch',
  'chooseProject',
  'approve',
  'reject',
  'revert',
  'retryAnswer',
  'previewTick',
  'runTick',
  'commitTick',
  'ask',
  'review',
  'previewHandoff',
  'buildHandoff',
  'startHandoffInTerminal',
  'cancelTask',
  'getRuntimeState',
  'replayEvents',
] as const satisfies readonly ChannelName[];

/** The Electron IPC channel a contract channel travels on. */
export function ipcChannel(name: ChannelName): `relay:${ChannelName}` {
  return `relay:${name}`;
}

/** The Electron IPC channel events are pushed on. */
export const EVENT_CHANNEL = 'relay:event';
