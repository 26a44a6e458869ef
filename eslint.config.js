// @ts-check
import tseslint from 'typescript-eslint';

const electronFree = {
  paths: [
    { name: 'electron', message: 'engine, shared, host and cli run in plain Node: never import electron here.' },
  ],
  patterns: [{ group: ['electron/*'], message: 'engine, shared, host and cli run in plain Node: never import electron here.' }],
};

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
    files: ['src/engine/**/*.ts', 'src/shared/**/*.ts', 'src/host/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', electronFree] },
  },
  {
    // Raw IPC only in the typed wrappers: ipcMain in src/main/ipc.ts, ipcRenderer in the preload.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/main/ipc.ts', 'src/preload/index.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', importNames: ['ipcMain', 'ipcRenderer'], message: 'Use the typed IPC wrappers (src/main/ipc.ts, src/preload/index.ts); never raw ipcMain/ipcRenderer.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/engine/**/*.ts', 'src/shared/**/*.ts', 'src/host/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', electronFree] },
  },
  {
    files: ['scripts/**/*.mjs', 'fixtures/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
