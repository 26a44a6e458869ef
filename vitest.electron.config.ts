import { defineConfig } from 'vitest/config';

// Only the Electron smoke test; it needs the Electron binary (see scripts/test-electron.mjs).
export default defineConfig({
  test: {
    include: ['test/electron/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
