// The host's public surface: what src/main (Electron) and src/cli (`relay ui`) bind.
export { createHost, describeIssues, type Host, type HostOptions } from './host.js';
export { createHandlers, type Handler, type Handlers } from './handlers.js';
export { bindIpcMain, forwardEvents, type IpcEventLike, type IpcMainLike } from './ipc.js';
export { attachRecorder, type Recorder } from './recorder.js';
export type { FolderPicker } from './folders.js';
