// @ts-check
import tseslint from 'typescript-eslint';

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
const processPaths = PROCESS_MODULES.map((name) => ({ name, message: PROCESS_MESSAGE }));
const processFree = { paths: processPaths };
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
/** no-restricted-imports options merged: flat config keeps only the last setting of a rule per file. */
function restrict(...options) {
  return ['error', { paths: options.flatMap((o) => o.paths ?? []), patterns: options.flatMap((o) => o.patterns ?? []) }];
}
const PROCESS_CHOKEPOINTS = ['src/engine/proc/**', 'src/engine/git/**'];

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
    files: ['src/main/**/*.ts'],
    ignores: ELECTRON_ROOTS,
    rules: { 'no-restricted-imports': restrict(shellTakesElectron, processFree), 'no-restricted-syntax': processSyntax },
  },
  {
    files: ELECTRON_ROOTS,
    rules: { 'no-restricted-imports': restrict(processFree), 'no-restricted-syntax': processSyntax },
  },
  {
    files: ['src/engine/**/*.ts', 'src/shared/**/*.ts', 'src/host/**/*.ts', 'src/cli/**/*.ts'],
    ignores: PROCESS_CHOKEPOINTS,
    rules: { 'no-restricted-imports': restrict(electronFree, processFree) },
  },
  {
    files: PROCESS_CHOKEPOINTS.map((dir) => `${dir}/*.ts`),
    rules: { 'no-restricted-imports': restrict(electronFree), 'no-restricted-syntax': 'off' },
  },
  {
    files: ['scripts/**/*.mjs', 'fixtures/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
