// How the built CLIs load their code (dist/cli, made by scripts/build-cli.mjs). Each chunk of the
// build is the body of a CommonJS module written as one function expression; it is compiled
// with vm.Script from its text and the V8 code cache the build made for it (after running
// commands once), so a command does not parse and compile its few hundred KB of JavaScript
// (commander, zod, yaml, the engine) at every start. Node 20 has no compile cache of its own for
// modules (module.enableCompileCache came with Node 22.1).
//
// A pack is one file holding the chunk functions a command loaded when the build ran it (its
// program's, or its own once its command file is loaded), compiled as one script with one cache:
// some thirty small files cost more to read and compile one by one. Packing changes no module: a
// chunk's function runs once, when the chunk is first required, whether it came from a pack or
// from its own file (a chunk no pack holds, on a path the build did not run).
//
// A chunk or pack file starts with `/*<16 hex digits>*/`, a hash of its text; its code cache is
// `<file>.<hash>.cache` beside it. V8 checks a cache against its own version, its flags and the
// length of the source only (a cache made for other text of the same length would run that other
// code), so the hash in the name is what ties a cache to the exact text: a cache made for other
// text is never read. A cache V8 rejects (another Node, other V8 flags, cut short) or a missing
// one only means the code is compiled from its text: slower, never different. V8 does not check a
// cache's contents beyond its header: it is trusted as the code beside it is, both written by the
// build (whole files, renamed into place).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/**
 * How every chunk file begins, after its hash: the function its code runs in. The build writes
 * it (scripts/build-cli.mjs, CHUNK_START); `__relayImportMeta` is what `import.meta` was.
 */
export const CHUNK_START = '(function (exports, require, module, __filename, __dirname, __relayImportMeta) {"use strict";';
/** How every pack file begins, after its hash: an object literal of chunk name → chunk function. */
export const PACK_START = '({';

const HASH = /^\/\*([0-9a-f]{16})\*\//;
/** How one chunk names another (`require("./chunk-X.js")`, written by the build). */
const CHUNK_SPECIFIER = /^\.\/[A-Za-z0-9_-]+\.js$/;

/** What a chunk's code sees as `import.meta`. */
interface ImportMeta {
  readonly url: string;
  readonly filename: string;
  readonly dirname: string;
}

type ChunkFunction = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string, importMeta: ImportMeta) => void;

/** One chunk or pack file compiled in this process, and what became of its code cache. */
export interface CompiledChunk {
  readonly file: string;
  /** Where its code cache is (or would be). */
  readonly cacheFile: string;
  readonly script: Script;
  /** `accepted` when V8 used the cache; `rejected` (another Node, other flags) or `none` when the code was compiled from its text. */
  readonly cache: 'accepted' | 'rejected' | 'none';
  /** The chunks it holds: itself, or a pack's. */
  readonly chunks: readonly string[];
}

/**
 * A pack the build made: its file and chunks, compiled when one of its chunks is first required
 * (after chunk `after` is loaded, when given: a command's pack waits for the command to run, so
 * `relay --help`, which loads every command file, compiles none of them).
 */
export interface PackPlan {
  readonly file: string;
  readonly chunks: readonly string[];
  readonly after?: string;
}

/** The chunks of one dist/cli folder, each loaded once per process (as modules are). */
export interface ChunkLoader {
  /** The exports of chunk `name` (a file name in the folder), loading it first if needed. */
  load(name: string): Record<string, unknown>;
  /** The chunk and pack files compiled so far, in order. */
  compiled(): readonly CompiledChunk[];
  /** The chunks loaded so far (their functions run), in order. */
  loaded(): readonly string[];
}

const loaders = new Map<string, ChunkLoader>();

/** The code cache file of chunk or pack `file` whose text is `source`, or null when it does not start as one (`start`). */
export function cacheFileOf(file: string, source: string, start = CHUNK_START): string | null {
  const hash = HASH.exec(source)?.[1];
  if (hash === undefined || !source.startsWith(start, hash.length + 4)) return null;
  return `${file.replace(/\.js$/, '')}.${hash}.cache`;
}

/**
 * The loader of the chunks in `dir` (one per folder and process). `nodeRequire` is Node's require
 * for a module in `dir` (an entry's own): chunks get built-in modules and the packages left out
 * of the bundles (better-sqlite3, clipboardy…) from it. `packs` are the build's (none: every
 * chunk from its own file).
 */
export function chunkLoader(dir: string, nodeRequire: NodeJS.Require, packs: readonly PackPlan[] = []): ChunkLoader {
  const known = loaders.get(dir);
  if (known) return known;
  const modules = new Map<string, { exports: object }>();
  /** Chunk functions from the packs compiled so far, not run yet. */
  const packed = new Map<string, ChunkFunction>();
  const packsOf = new Map<string, PackPlan[]>();
  for (const pack of packs) for (const chunk of pack.chunks) packsOf.set(chunk, [...(packsOf.get(chunk) ?? []), pack]);
  const packsCompiled = new Set<PackPlan>();
  const compiled: CompiledChunk[] = [];
  const order: string[] = [];
  const chunkRequire = Object.assign((specifier: string): unknown => (CHUNK_SPECIFIER.test(specifier) ? load(specifier.slice(2)) : nodeRequire(specifier)), {
    resolve: nodeRequire.resolve,
    cache: nodeRequire.cache,
    extensions: nodeRequire.extensions,
    main: nodeRequire.main,
  }) as NodeJS.Require;

  /** Reads and compiles a chunk or pack file with its code cache; returns what its script evaluates to. */
  function compile(name: string, start: string, chunks: (value: unknown) => readonly string[]): unknown {
    const file = path.join(dir, name);
    const source = readFileSync(file, 'utf8');
    const cacheFile = cacheFileOf(file, source, start);
    if (cacheFile === null) throw new Error(`${file} is not a ${start === PACK_START ? 'pack' : 'chunk'} of this build of the CLI; run \`npm run build\` again.`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache (not made yet, or removed): compiled from the text.
    }
    const script = new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
    const value: unknown = script.runInThisContext();
    compiled.push({ file, cacheFile, script, cache: cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'accepted', chunks: chunks(value) });
    return value;
  }

  function load(name: string): Record<string, unknown> {
    const loaded = modules.get(name);
    if (loaded) return loaded.exports as Record<string, unknown>;
    const pack = packed.has(name) ? undefined : packsOf.get(name)?.find((plan) => !packsCompiled.has(plan) && (plan.after === undefined || modules.has(plan.after)));
    if (pack !== undefined) {
      packsCompiled.add(pack);
      const functions = compile(pack.file, PACK_START, (value) => Object.keys(value as object)) as Record<string, ChunkFunction>;
      for (const [chunk, run] of Object.entries(functions)) if (!modules.has(chunk) && !packed.has(chunk)) packed.set(chunk, run);
    }
    let run = packed.get(name);
    if (run) packed.delete(name);
    else run = compile(name, CHUNK_START, () => [name]) as ChunkFunction;
    const file = path.join(dir, name);
    const module = { exports: {} };
    modules.set(name, module);
    order.push(name);
    const importMeta = {
      get url() {
        return pathToFileURL(file).href;
      },
      filename: file,
      dirname: dir,
    };
    try {
      run(module.exports, chunkRequire, module, file, dir, importMeta);
    } catch (error) {
      modules.delete(name);
      order.splice(order.indexOf(name), 1);
      throw error;
    }
    return module.exports as Record<string, unknown>;
  }

  const loader: ChunkLoader = { load, compiled: () => compiled, loaded: () => order };
  loaders.set(dir, loader);
  return loader;
}
