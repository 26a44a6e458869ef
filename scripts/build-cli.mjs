// Bundles the two CLIs into dist/cli so that `node dist/cli/relay.js` works without tsx, and
// starts fast: pure-JS dependencies are bundled in (no node_modules resolution at start), and
// every command's engine code sits in chunks loaded only when that command runs.
// Kept external: native modules (better-sqlite3), electron, and packages that find files of
// their own next to their code at run time (clipboardy's xsel fallback, open's xdg-open).
// Packages only the CLI uses and that are bundled whole (x11) are devDependencies, so the
// packaged app does not carry them twice.
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

const EXTERNAL = ['better-sqlite3', 'electron', 'clipboardy', 'open', 'bufferutil', 'utf-8-validate'];
/** What a command may load before it runs: commander, and the CLI's own small modules. */
const STARTUP_PACKAGES = new Set(['commander']);
/** The program modules (options and help of every command), loaded after the entry looked at its arguments. */
const PROGRAMS = ['src/cli/relay-program.ts', 'src/cli/relais-program.ts'];

// zod's classic API hangs every locale (about half of zod's code) off its namespace object, so
// bundling cannot drop them; only English is ever used, so the locale index exports only it.
const englishOnlyZod = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]/.test(args.importer) ? { path: path.join(path.dirname(args.importer), args.path), namespace: 'zod-locales' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), 'en.js'))};`, resolveDir: path.dirname(args.path) }));
  },
};

// `import { z } from 'zod'` binds one namespace object, so the bundler keeps all of zod; written
// as `import * as z` (the same exports) only the parts used are kept, about half.
const zodNamespaceImports = {
  name: 'zod-namespace-imports',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => ({ contents: (await readFile(args.path, 'utf8')).replace(/^import \{ z \} from 'zod';$/gm, "import * as z from 'zod';"), loader: 'ts' }));
  },
};

// yaml's ES module build (its "browser" entry) is the same code as its CommonJS one, minus
// Node's process warnings, and unlike it can be tree-shaken: only parse and stringify are kept.
const yamlAsModule = {
  name: 'yaml-as-module',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: path.resolve('node_modules/yaml/browser/index.js') }));
  },
};

// zod compiles a parser with `new Function` the first time each object schema parses: a gain
// for servers, a loss for a CLI that parses a few records and exits. Its global config starts
// jitless here (the same as calling z.config({ jitless: true }) before any schema is used).
const zodJitless = {
  name: 'zod-jitless',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const patched = source.replace('(_a.__zod_globalConfig = {})', '(_a.__zod_globalConfig = { jitless: true })');
      if (patched === source) throw new Error(`zod-jitless: ${args.path} no longer starts its global config as expected; update scripts/build-cli.mjs`);
      return { contents: patched, loader: 'js' };
    });
  },
};

// commander loads child_process at start only to run executable subcommands, which the CLIs do
// not have; loading it costs every command a few milliseconds, so it is loaded when first used.
const commanderLazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      if (!source.includes(eager)) throw new Error(`commander-lazy-child-process: ${args.path} no longer loads child_process as expected; update scripts/build-cli.mjs`);
      return { contents: source.replace(eager, "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };"), loader: 'js' };
    });
  },
};

const result = await build({
  // relay-embedded: `runRelayCli(args)`, imported by the packaged app's --relay-cli mode (src/main/relay-cli.ts).
  entryPoints: { relay: 'src/cli/relay.ts', relais: 'src/cli/relais.ts', 'relay-embedded': 'src/cli/relay-embedded.ts' },
  outdir: 'dist/cli',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  // Shared code and lazily imported commands go to chunks, so a command only loads what it uses.
  splitting: true,
  sourcemap: true,
  metafile: true,
  plugins: [englishOnlyZod, zodNamespaceImports, zodJitless, yamlAsModule, commanderLazyChildProcess],
  // Bundled CommonJS packages call require() for Node's built-ins; an ES module has none of its own.
  banner: { js: "#!/usr/bin/env node\nimport { createRequire as __relayCreateRequire } from 'node:module';\nconst require = __relayCreateRequire(import.meta.url);" },
  logLevel: 'warning',
  // Written below, file by file, so that a relay running meanwhile never reads half a file.
  write: false,
});

// A relay started before this build may still load its chunks lazily (they are named by content
// hash): every file is written to a temporary name and renamed into place, and chunks of earlier
// builds are removed only once they are an hour old.
await mkdir('dist/cli', { recursive: true });
const written = new Set();
for (const file of result.outputFiles) {
  const temporary = `${file.path}.${process.pid}.tmp`;
  await writeFile(temporary, file.contents);
  await rename(temporary, file.path);
  written.add(path.basename(file.path));
}
for (const name of await readdir('dist/cli')) {
  const file = path.join('dist/cli', name);
  if (!written.has(name) && Date.now() - (await stat(file)).mtimeMs > 3_600_000) await rm(file, { force: true });
}

// Guard: what an entry loads before its command runs (its static import closure, and the
// program's) must stay small.
const outputs = result.metafile.outputs;
const programChunks = Object.keys(outputs).filter((file) => PROGRAMS.includes(outputs[file].entryPoint ?? '') || Object.keys(outputs[file].inputs).some((input) => PROGRAMS.includes(input)));
for (const entry of ['dist/cli/relay.js', 'dist/cli/relais.js', 'dist/cli/relay-embedded.js', ...programChunks.filter((file) => file.endsWith('.js'))]) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of outputs[file]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entry);
  const packages = new Set();
  let bytes = 0;
  for (const file of seen) {
    bytes += outputs[file].bytes;
    for (const input of Object.keys(outputs[file].inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      if (match && !STARTUP_PACKAGES.has(match[1])) packages.add(match[1]);
    }
  }
  if (packages.size > 0) {
    console.error(`✘ ${entry} loads ${[...packages].join(', ')} at start-up; import them inside the command's action (await import(...)) instead.`);
    process.exit(1);
  }
  if (process.argv.includes('--verbose')) console.log(`${entry}: ${seen.size} file(s), ${Math.round(bytes / 1024)} KB at start-up`);
}
console.log('built dist/cli/relay.js and dist/cli/relais.js');
