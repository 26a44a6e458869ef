// Bundles the two CLIs into dist/cli so that `node dist/cli/relay.js` works without tsx.
// Dependencies stay external (they are installed in node_modules).
import { build } from 'esbuild';

await build({
  entryPoints: { relay: 'src/cli/relay.ts', relais: 'src/cli/relais.ts' },
  outdir: 'dist/cli',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  // Shared code and lazily imported commands (relay ui) go to chunks, so a command only loads what it uses.
  splitting: true,
  sourcemap: true,
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
console.log('built dist/cli/relay.js and dist/cli/relais.js');
