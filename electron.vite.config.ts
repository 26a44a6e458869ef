import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

// Main and preload bundle into out/; the renderer builds once and is served both by Electron
// (from out/renderer) and by `relay ui` in a browser.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/main/index.ts') },
        external: ['better-sqlite3'],
        // The engine loads some modules lazily so the CLIs start fast (scripts/build-cli.mjs);
        // in the app's one main bundle those imports are simply ineffective, not a problem.
        onwarn(warning, warn) {
          if (warning.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') warn(warning);
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: { input: { index: resolve(__dirname, 'src/preload/index.ts') }, output: { format: 'cjs' } },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves every bundle unminified; the window's is served to a browser by
      // `relay ui` and parsed at each window open, so it is minified (main/preload need not be).
      minify: true,
      // One chunk, read from disk (Electron) or loopback (`relay ui`): no network to split it for.
      chunkSizeWarningLimit: 1024,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
