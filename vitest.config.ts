import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The Electron smoke test needs the Electron binary: `npm run test:electron` runs it.
    exclude: ['test/electron/**', '**/node_modules/**'],
    environment: 'node',
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests spawn git and the CLI; two cores do not gain from more workers.
    maxWorkers: 2,
  },
});
