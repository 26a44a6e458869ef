// Bundles the two CLIs into dist/cli so that `node dist/cli/relay.js` works without tsx, and
// starts fast (issue 13: --version within 1.3x of `node -e 0`, relay log 1.5x, a one-file
// relay apply --yes 2x; `npm run bench -- startup`):
// - pure-JS dependencies are bundled in (no node_modules resolution at start), and every
//   command's engine code sits in chunks loaded only when that command runs;
// - the chunks are CommonJS function bodies that src/cli/chunk-loader.ts compiles with the V8
//   code cache made here, so a command does not parse and compile its JavaScript at each start
//   (commander, zod and yaml alone are some 500 KB): with the ES module loader's file reads,
//   that was most of what relay log cost over `node -e 0` (2.1x → 1.5x with the caches alone).
//   Node 20 caches nothing of the kind for ES modules (module.enableCompileCache is Node 22),
//   and loads them with asynchronous reads, file by file;
// - the chunks a command loads are also written together as a few packs, one script each with
//   its own cache: some thirty small files cost more to read and compile one by one.
// Kept external: native modules (better-sqlite3), electron, and packages that find files of
// their own next to their code at run time (clipboardy's xsel fallback, open's xdg-open).
// Packages only the CLI uses and that are bundled whole (x11) are devDependencies, so the
// packaged app does not carry them twice.
//
// Three passes:
// 1. esbuild bundles the programs (src/cli/relay-program.ts, relais-program.ts) as ES modules
//    with code splitting: shared code and lazily imported commands go to chunks.
// 2. Each chunk becomes CommonJS (esbuild again, source maps chained to src/), wrapped in the
//    function the chunk loader compiles (CHUNK_START) and headed by a hash of its text, which
//    names its code cache.
// 3. The entries (relay.js, relais.js, relay-embedded.js) are small CommonJS bundles: the
//    version fast path and the chunk loader, nothing else (dist/cli/package.json says CommonJS).
//    They name the packs, so they are built last, after the code caches.
// The code caches: every chunk and pack gets one as compiled; then relay --help, relais --help,
// relay init, apply --yes and log run in a scratch project through the same loader, once to
// learn which chunks each command loads (its pack), once more with the packs, each run writing
// the caches of what it compiled, now holding the functions it ran. Without git, or if a command
// fails, the build still succeeds with what it has: a missing, stale or rejected cache (another
// Node) only costs speed (see chunk-loader.ts). Everything is made by the Node running the
// build, so a fresh clone's `npm ci && npm test` (scripts/test.mjs runs `npm run build`) has them.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';

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

const OUT = 'dist/cli';
const CHUNK_LOADER = path.resolve('src/cli/chunk-loader.ts');
// The function every chunk is written in (the loader checks it); `import.meta` becomes its last parameter.
const CHUNK_START = /export const CHUNK_START = '([^']+)';/.exec(await readFile(CHUNK_LOADER, 'utf8'))?.[1];
if (!CHUNK_START) throw new Error(`${CHUNK_LOADER} no longer declares CHUNK_START as expected; update scripts/build-cli.mjs`);
const HASH_PLACEHOLDER = `/*${'0'.repeat(16)}*/`;
// How a pack begins (an object literal of chunk functions by name).
const PACK_START = /export const PACK_START = '([^']+)';/.exec(await readFile(CHUNK_LOADER, 'utf8'))?.[1];
if (!PACK_START) throw new Error(`${CHUNK_LOADER} no longer declares PACK_START as expected; update scripts/build-cli.mjs`);
const buildStarted = Date.now();

// Pass 1: the programs as ES modules, split into chunks. The source maps stay inline so that pass 2 chains them.
const esm = await build({
  entryPoints: { 'relay-program': PROGRAMS[0], 'relais-program': PROGRAMS[1] },
  // Named by content like every chunk: an entry written earlier keeps loading the program it was built with.
  entryNames: '[name]-[hash]',
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  // Shared code and lazily imported commands go to chunks, so a command only loads what it uses.
  splitting: true,
  sourcemap: 'inline',
  metafile: true,
  plugins: [englishOnlyZod, zodNamespaceImports, zodJitless, yamlAsModule, commanderLazyChildProcess],
  logLevel: 'warning',
  write: false,
});

// Pass 2: each chunk as the body of a CommonJS module. Imports become require('./chunk-X.js'),
// answered by the chunk loader; dynamic imports become a require() in a promise (for packages left
// out, Node ≥ 20.19 requires ES module packages too: clipboardy); import.meta is passed in.
const esmText = new Map(esm.outputFiles.map((file) => [path.basename(file.path), file.text]));
const esmChunks = {
  name: 'esm-chunks',
  setup(b) {
    b.onResolve({ filter: /^esm-chunk:/ }, (args) => ({ path: args.path.slice('esm-chunk:'.length), namespace: 'esm-chunk' }));
    b.onLoad({ filter: /.*/, namespace: 'esm-chunk' }, (args) => ({ contents: esmText.get(args.path), loader: 'js' }));
  },
};
const cjs = await build({
  entryPoints: [...esmText.keys()].map((name) => ({ in: `esm-chunk:${name}`, out: name.replace(/\.js$/, '') })),
  outdir: OUT,
  bundle: false,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  supported: { 'dynamic-import': false },
  define: { 'import.meta': '__relayImportMeta' },
  banner: { js: `${HASH_PLACEHOLDER}${CHUNK_START}` },
  footer: { js: '})' },
  sourcemap: true,
  plugins: [esmChunks],
  logLevel: 'warning',
  write: false,
});
if (cjs.warnings.length > 0) throw new Error('build-cli: converting the chunks to CommonJS warned (see above); the chunks may not run as they did as ES modules.');
// The hash of each chunk's text goes where the placeholder was: its code cache is named after it.
const chunks = cjs.outputFiles.map((file) => {
  if (!file.path.endsWith('.js')) return { path: file.path, contents: file.contents };
  const hash = createHash('sha256').update(file.contents).digest('hex').slice(0, 16);
  return { path: file.path, contents: Buffer.from(`/*${hash}*/${file.text.slice(HASH_PLACEHOLDER.length)}`) };
});

const programChunk = Object.fromEntries(
  Object.entries(esm.metafile.outputs)
    .filter(([, output]) => PROGRAMS.includes(output.entryPoint ?? ''))
    .map(([file, output]) => [path.basename(output.entryPoint, '.ts'), path.basename(file)]),
);
const outputs = esm.metafile.outputs;
/** The chunks of the command files (src/cli/commands/), loaded by a program before their command runs. */
const commandChunks = new Set(
  Object.entries(outputs)
    .filter(([, output]) => output.entryPoint?.startsWith('src/cli/commands/'))
    .map(([file]) => path.basename(file)),
);
/** The chunks a chunk imports statically, itself included (all loaded whenever it is). */
function staticClosure(chunk) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imported of outputs[file]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(`${OUT}/${chunk}`);
  return [...seen];
}

// Guard: what an entry loads before its command runs must stay small: the entries themselves
// (checked after pass 3) hold no package, and the static import closures of the programs and of
// the command files none but commander.
// Sizes as written (pass 1's outputs hold their source maps inline).
const writtenBytes = new Map(chunks.map((file) => [path.basename(file.path), file.contents.length]));
function guard(name, files) {
  const packages = new Set();
  let bytes = 0;
  for (const { file, output } of files) {
    bytes += writtenBytes.get(path.basename(file)) ?? output.bytes;
    for (const input of Object.keys(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      if (match && !STARTUP_PACKAGES.has(match[1])) packages.add(match[1]);
    }
  }
  if (packages.size > 0) {
    console.error(`✘ ${name} loads ${[...packages].join(', ')} at start-up; import them inside the command's action (await import(...)) instead.`);
    process.exit(1);
  }
  if (process.argv.includes('--verbose')) console.log(`${name}: ${files.length} file(s), ${Math.round(bytes / 1024)} KB at start-up`);
}
for (const chunk of [...Object.values(programChunk), ...commandChunks]) guard(`${OUT}/${chunk}`, staticClosure(chunk).map((file) => ({ file, output: outputs[file] })));

// A relay started before this build may still load its chunks lazily (they are named by content
// hash): every file is written to a temporary name and renamed into place, and files of earlier
// builds are removed only once they are an hour old. Chunks, packs and code caches go first, the
// entries last, so an entry never names a file that is not there yet.
await mkdir(OUT, { recursive: true });
const written = new Set();
async function writeAtomically(file, contents) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  await rename(temporary, file);
  written.add(path.basename(file));
}
for (const file of chunks) await writeAtomically(file.path, file.contents);
const chunkText = new Map(chunks.filter((file) => file.path.endsWith('.js')).map((file) => [path.basename(file.path), Buffer.from(file.contents).toString('utf8')]));
const chunkMap = new Map(chunks.filter((file) => file.path.endsWith('.js.map')).map((file) => [path.basename(file.path, '.map'), JSON.parse(Buffer.from(file.contents).toString('utf8'))]));

// Code caches, first as compiled (a script's top-level code; inner functions are compiled when
// first called), made in this process: the same Node as the commands that run next.
for (const [name, text] of chunkText) await writeAtomically(cacheFileOf(path.join(OUT, name), text), new Script(text, { filename: path.join(OUT, name) }).createCachedData());

// Packs: a program's pack holds the chunks it imports statically (all loaded as it starts), a
// command file's its own; a command's, those that running it in a scratch project loaded once
// its command file and that file's imports were (the pack is compiled when the command runs).
// Then the commands run again with the packs, so that every cache holds the functions they ran.
/** The packs (see PackPlan in src/cli/chunk-loader.ts). */
const packs = [];
async function writePack(members, after) {
  const lines = [PACK_START];
  const sections = [];
  for (const name of members) {
    const text = chunkText.get(name);
    // The chunk's function as its file has it, without its hash and source map comment.
    const body = text.slice(HASH_PLACEHOLDER.length).replace(/\n\/\/# sourceMappingURL=\S+\n?$/, '');
    lines.push(`${JSON.stringify(name)}:`);
    sections.push({ offset: { line: lines.length, column: 0 }, map: chunkMap.get(name) });
    lines.push(`${body},`);
  }
  lines.push('})');
  const text = lines.join('\n');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const file = path.join(OUT, `pack-${hash}.js`);
  const packed = `/*${hash}*/${text}\n//# sourceMappingURL=${path.basename(file)}.map\n`;
  await writeAtomically(file, packed);
  await writeAtomically(`${file}.map`, JSON.stringify({ version: 3, file: path.basename(file), sections }));
  await writeAtomically(cacheFileOf(file, packed, PACK_START), new Script(packed, { filename: file }).createCachedData());
  packs.push({ file: path.basename(file), chunks: members, ...(after ? { after } : {}) });
}
const programClosure = new Set(Object.values(programChunk).flatMap((chunk) => staticClosure(chunk).map((file) => path.basename(file))));
for (const chunk of Object.values(programChunk)) await writePack(staticClosure(chunk).map((file) => path.basename(file)));
// A command file's pack: it and its static imports, but for the program's (loaded first).
for (const chunk of commandChunks) await writePack(staticClosure(chunk).map((file) => path.basename(file)).filter((name) => !programClosure.has(name)));
await trainCodeCaches();

// Pass 3: the entries, CommonJS: the version fast path and the chunk loader, which loads the
// program (`import('./relay-program.js')` in the source) only when a command runs.
const programsThroughLoader = {
  name: 'programs-through-chunk-loader',
  setup(b) {
    b.onResolve({ filter: /^\.\/(relay|relais)-program\.js$/ }, (args) => ({ path: path.basename(args.path, '.js'), namespace: 'program-chunk' }));
    b.onLoad({ filter: /.*/, namespace: 'program-chunk' }, (args) => ({
      contents: `import { chunkLoader } from ${JSON.stringify(CHUNK_LOADER)};\nexport const { main } = chunkLoader(__dirname, require, ${JSON.stringify(packs)}).load(${JSON.stringify(programChunk[args.path])});\n`,
      resolveDir: path.dirname(CHUNK_LOADER),
      loader: 'js',
    }));
  },
};
const entries = await build({
  // relay-embedded: `runRelayCli(args)`, imported by the packaged app's --relay-cli mode (src/main/relay-cli.ts).
  entryPoints: { relay: 'src/cli/relay.ts', relais: 'src/cli/relais.ts', 'relay-embedded': 'src/cli/relay-embedded.ts' },
  outdir: OUT,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: EXTERNAL,
  sourcemap: true,
  metafile: true,
  plugins: [programsThroughLoader],
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
  write: false,
});
for (const [file, output] of Object.entries(entries.metafile.outputs)) if (file.endsWith('.js')) guard(file, [{ file, output }]);

await writeAtomically(path.join(OUT, 'package.json'), `${JSON.stringify({ '//': 'Written by scripts/build-cli.mjs: the CLI bundles are CommonJS.', type: 'commonjs' }, null, 2)}\n`);
for (const file of entries.outputFiles) await writeAtomically(file.path, file.contents);

for (const name of await readdir(OUT)) {
  const file = path.join(OUT, name);
  if (!written.has(name) && Date.now() - (await stat(file)).mtimeMs > 3_600_000) await rm(file, { force: true });
}
console.log('built dist/cli/relay.js and dist/cli/relais.js');

/** The cache file of a chunk or pack (named by the hash its text starts with), as src/cli/chunk-loader.ts names it. */
function cacheFileOf(file, source, start = CHUNK_START) {
  const hash = /^\/\*([0-9a-f]{16})\*\//.exec(source)?.[1];
  if (!hash || !source.startsWith(start, HASH_PLACEHOLDER.length)) throw new Error(`build-cli: ${file} does not start with its hash`);
  return `${file.replace(/\.js$/, '')}.${hash}.cache`;
}

/**
 * Runs relay's common commands in a scratch project, twice: first to learn which chunks each
 * loads (its pack), then with the packs, each run writing at exit the caches of what it compiled.
 * Says why when it cannot, and carries on: the build is complete without them, only slower.
 */
async function trainCodeCaches() {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'relay-code-cache-'));
  try {
    // The loader as the entries have it, and a few lines that run a program's main, then write
    // the caches and the chunks it loaded.
    const harness = path.join(scratch, 'harness.cjs');
    await build({
      stdin: {
        contents: `import { readFileSync, writeFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chunkLoader } from ${JSON.stringify(CHUNK_LOADER)};
const [dir, packsFile, loadedFile, program, ...args] = process.argv.slice(2);
const loader = chunkLoader(dir, createRequire(path.join(dir, 'relay.js')), JSON.parse(readFileSync(packsFile, 'utf8')));
process.on('exit', () => {
  for (const chunk of loader.compiled()) {
    const temporary = chunk.cacheFile + '.' + process.pid + '.tmp';
    writeFileSync(temporary, chunk.script.createCachedData());
    renameSync(temporary, chunk.cacheFile);
  }
  writeFileSync(loadedFile, JSON.stringify(loader.loaded()));
});
void loader.load(program).main(args);
`,
        resolveDir: path.dirname(CHUNK_LOADER),
        loader: 'js',
      },
      outfile: harness,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'warning',
    });
    const project = path.join(scratch, 'project');
    await mkdir(project);
    await writeFile(path.join(project, 'notes.txt'), 'one\ntwo\n');
    await writeFile(path.join(scratch, 'answer.md'), ['Here is the change.', '```text // notes.txt', 'one', 'three', '```', '```yaml', 'projectId: cache', 'uuid: 00000000-0000-4000-8000-000000000001', 'gitCommitMsg: "notes: three"', '```', ''].join('\n'));
    const git = spawnSync('git', ['init', '-q'], { cwd: project, stdio: 'ignore' });
    if (git.status !== 0) console.warn('! build-cli: git is not available, so the code caches are made without running relay init, apply and log (they start slower).');
    /** [program, its arguments, whether the chunks its command loaded make a pack]. */
    const steps = [
      ['relay-program', ['--help'], false],
      ['relais-program', ['--help'], false],
      ...(git.status === 0
        ? [
            ['relay-program', ['-C', project, 'init', '--project-id', 'cache'], true],
            ['relay-program', ['-C', project, 'apply', '--yes', path.join(scratch, 'answer.md')], true],
            ['relay-program', ['-C', project, 'log'], true],
          ]
        : []),
    ];
    const packsFile = path.join(scratch, 'packs.json');
    const loadedFile = path.join(scratch, 'loaded.json');
    const run = async (program, args) => {
      await writeFile(packsFile, JSON.stringify(packs));
      await rm(loadedFile, { force: true });
      const ran = spawnSync(process.execPath, [harness, path.resolve(OUT), packsFile, loadedFile, programChunk[program], ...args], { cwd: scratch, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', timeout: 60_000 });
      if (ran.status === 0) return JSON.parse(await readFile(loadedFile, 'utf8'));
      console.warn(`! build-cli: \`${program.replace('-program', '')} ${args.join(' ')}\` failed while making the code caches (exit ${ran.status ?? ran.signal}); the build is fine, it starts slower.\n${ran.stderr}`);
      return null;
    };
    // A command's pack: what it loaded after its command file, but for the static imports of the
    // programs and of every command file (loaded one by one: --help loads every command file,
    // and must compile no pack).
    const before = new Set([...Object.values(programChunk), ...commandChunks].flatMap((chunk) => staticClosure(chunk).map((file) => path.basename(file))));
    const commandPacks = new Map();
    for (const [program, args, pack] of steps) {
      const loaded = await run(program, args);
      const command = loaded?.find((chunk) => commandChunks.has(chunk));
      if (!pack || command === undefined) continue;
      const members = commandPacks.get(command) ?? new Set();
      for (const chunk of loaded.slice(loaded.indexOf(command) + 1)) if (!before.has(chunk)) members.add(chunk);
      commandPacks.set(command, members);
    }
    for (const [command, members] of commandPacks) await writePack([...members], command);
    // The init, apply and log above changed the scratch project: it starts again from the same state.
    if (git.status === 0) {
      await rm(project, { recursive: true, force: true });
      await mkdir(project);
      await writeFile(path.join(project, 'notes.txt'), 'one\ntwo\n');
      spawnSync('git', ['init', '-q'], { cwd: project, stdio: 'ignore' });
    }
    for (const [program, args] of steps) await run(program, args);
    // The caches the runs wrote belong to this build.
    for (const name of await readdir(OUT)) if (name.endsWith('.cache') && (await stat(path.join(OUT, name))).mtimeMs >= buildStarted) written.add(name);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
