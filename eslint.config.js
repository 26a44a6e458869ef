// @ts-check
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

// Each rule set below is one boundary; an area of src/ gets the union of the boundaries that hold
// there (flat config keeps only the last setting of a rule per file, so areas are listed whole).

const electronFree = {
  paths: [
    { name: 'electron', message: 'engine, shared, host and cli run in plain Node: never import electron here.' },
  ],
  patterns: [{ group: ['electron/*'], message: 'engine, shared, host and cli run in plain Node: never import electron here.' }],
};

// Processes start in two places only: git in src/engine/git, everything else in src/engine/proc
// (argv only, process group, timeouts, allow-list environment). scripts/, bench/ and test/ are
// developer tooling and may spawn directly.
const PROCESS_MESSAGE = 'Start processes through src/engine/proc (or git through src/engine/git): argv only, process group, allow-list environment.';
const PROCESS_MODULES = ['execa', 'child_process', 'node:child_process', 'cross-spawn', 'open'];
const processFree = { paths: PROCESS_MODULES.map((name) => ({ name, message: PROCESS_MESSAGE })) };
const processSyntax = [
  'error',
  { selector: `ImportExpression[source.value=/^(${PROCESS_MODULES.join('|')})$/]`, message: PROCESS_MESSAGE },
  { selector: `CallExpression[callee.name='require'][arguments.0.value=/^(${PROCESS_MODULES.join('|')})$/]`, message: PROCESS_MESSAGE },
];

const ipcOnly = {
  paths: [
    { name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: 'Use the typed IPC wrappers (src/main/ipc.ts, src/preload/index.ts); never raw ipcMain/ipcRenderer.' },
  ],
};

// The desktop shell is a plain module given Electron's members (src/main/ports.ts), so Node tests
// can run it; only the composition root imports electron's runtime. Types are fine anywhere in main.
const shellTakesElectron = {
  paths: [{ name: 'electron', allowTypeImports: true, message: 'Only src/main/index.ts imports electron: take what you need through src/main/ports.ts, so tests can pass stand-ins.' }],
};
const ELECTRON_ROOTS = ['src/main/index.ts', 'src/preload/index.ts'];

// The window runs in a sandboxed page (or a browser, under `relay ui`): it talks to the host over
// the contract only. Engine facts it needs (limits, backend names, run ids) come from src/shared.
const RENDERER_MESSAGE = 'The renderer reaches the app through the contract only: no engine, host, cli or main code, no Node modules. Shared facts live in src/shared.';
const rendererBoundary = {
  paths: [
    { name: 'electron', message: RENDERER_MESSAGE },
    ...builtinModules.filter((name) => !name.startsWith('_')).map((name) => ({ name, message: RENDERER_MESSAGE })),
  ],
  patterns: [{ group: ['**/engine/**', '**/host/**', '**/cli/**', '**/main/**', 'node:*'], message: RENDERER_MESSAGE }],
};

// The engine is the bottom layer: the host, the CLIs and the shell call it, never the reverse.
// From src/shared it takes plain data (schemas, events, facts, the contract's data types), never
// the transport: the channel table, replies and their error codes, the `relay ui` wire.
const ENGINE_MESSAGE = 'src/engine is called by host, cli and main, never the reverse; it takes plain data types from src/shared, not the transport (channels, replies, wire).';
const TRANSPORT_NAMES = ['contract', 'Contract', 'ChannelName', 'ChannelInput', 'ChannelArgs', 'ChannelOutput', 'IpcReply', 'IpcError', 'TRANSPORT_ERRORS', 'TransportErrorCode', 'HttpRefusalCode', 'isChannelName'];
const engineBoundary = {
  patterns: [
    { group: ['**/host/**', '**/cli/**', '**/main/**', '**/renderer/**', '**/preload/**'], message: ENGINE_MESSAGE },
    { group: ['**/shared/wire.js', '**/shared/api.js', '**/shared/channels.js', '**/shared/transport-errors.js'], message: ENGINE_MESSAGE },
    { group: ['**/shared/contract.js'], importNames: TRANSPORT_NAMES, message: ENGINE_MESSAGE },
  ],
};

// The store indexes files of truth through engine/records; it never reaches into the engines that
// write them, so an engine's internals can change without the index following along.
const STORE_MESSAGE = 'src/engine/store reads files of truth through src/engine/records, never through the domain engines (patch, tick, relay, handoff).';
const storeBoundary = {
  patterns: [{ group: ['../patch/**', '../tick/**', '../relay/**', '../handoff/**'], message: STORE_MESSAGE }],
};

// The shared layer is the contract between all the others: it imports none of them.
const SHARED_MESSAGE = 'src/shared is imported by every layer and imports none of them.';
const sharedBoundary = {
  patterns: [{ group: ['**/engine/**', '**/host/**', '**/cli/**', '**/main/**', '**/renderer/**', '**/preload/**'], message: SHARED_MESSAGE }],
};

/** no-restricted-imports options merged: flat config keeps only the last setting of a rule per file. */
function restrict(...options) {
  return ['error', { paths: options.flatMap((o) => o.paths ?? []), patterns: options.flatMap((o) => o.patterns ?? []) }];
}
const PROCESS_CHOKEPOINTS = ['src/engine/proc/**', 'src/engine/git/**'];
const ENGINE_TS = ['src/engine/**/*.ts'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'release/**', 'fixtures/**', 'test-artifacts/**', 'scratch/**', 'native/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Raw IPC only where electron is imported at all: the composition root hands ipcMain to the
    // typed binding (src/main/ipc.ts); the preload wraps ipcRenderer.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ELECTRON_ROOTS,
    rules: { 'no-restricted-imports': restrict(ipcOnly, processFree), 'no-restricted-syntax': processSyntax },
  },
  {
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    rules: { 'no-restricted-imports': restrict(rendererBoundary, processFree) },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ELECTRON_ROOTS,
    rules: { 'no-restricted-imports': restrict(shellTakesElectron, processFree) },
  },
  {
    files: ELECTRON_ROOTS,
    rules: { 'no-restricted-imports': restrict(processFree), 'no-restricted-syntax': processSyntax },
  },
  {
    files: ['src/host/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(electronFree, processFree) },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(electronFree, processFree, sharedBoundary) },
  },
  {
    files: ENGINE_TS,
    ignores: PROCESS_CHOKEPOINTS,
    rules: { 'no-restricted-imports': restrict(electronFree, processFree, engineBoundary) },
  },
  {
    files: ['src/engine/store/**/*.ts'],
    rules: { 'no-restricted-imports': restrict(electronFree, processFree, engineBoundary, storeBoundary) },
  },
  {
    files: PROCESS_CHOKEPOINTS.map((dir) => `${dir}/*.ts`),
    rules: { 'no-restricted-imports': restrict(electronFree, engineBoundary), 'no-restricted-syntax': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'fixtures/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
