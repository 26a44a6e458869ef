// How the built CLIs load their code (dist/cli, made by scripts/build-cli.mjs). Each chunk of the
// build is the body of a CommonJS module written as one function expression; it is compiled
// with vm.Script from its text and the V8 code cache the build made for it (after running
// commands once), so a command does not parse and compile its few hundred KB of JavaScript
// (commander, zod, yaml, the engine) at every start. Node 20 has no compile cache of its own for
// modules (module.enableCompileCache came with Node 22.1).
//
// A chunk file starts with `/*<16 hex digits>*/`, a hash of its text; its code cache is
// `<chunk>.<hash>.cache` beside it. V8 checks a cache against its own version, its flags and the
// length of the source only, so the hash in the name is what ties a cache to the exact text: a
// cache made for other text is never read. A cache V8 rejects (another Node, other V8 flags) or a
// missing one only means the chunk is compiled from its text: slower, never different.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

/**
 * How every chunk file begins, after its hash: the function its code runs in. The build writes
 * it (scripts/build-cli.mjs, CHUNK_START); `__relayImportMeta` is what `import.meta` was.
 */
export const CHUNK_START = '(function (exports, require, module, __filename, __dirname, __relayImportMeta) {"use strict";';

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

/** One chunk compiled in this process, and what became of its code cache. */
export interface CompiledChunk {
  readonly file: string;
  /** Where its code cache is (or would be). */
  readonly cacheFile: string;
  readonly script: Script;
  /** `accepted` when V8 used the cache; `rejected` (another Node, other flags) or `none` when the chunk was compiled from its text. */
  readonly cache: 'accepted' | 'rejected' | 'none';
}

/** The chunks of one dist/cli folder, each loaded once per process (as modules are). */
export interface ChunkLoader {
  /** The exports of chunk `name` (a file name in the folder), loading it first if needed. */
  load(name: string): Record<string, unknown>;
  /** The chunks compiled so far, in order. */
  compiled(): readonly CompiledChunk[];
}

const loaders = new Map<string, ChunkLoader>();

/** The code cache file of chunk `file` whose text starts with `source`'s header, or null when it is not a chunk. */
export function cacheFileOf(file: string, source: string): string | null {
  const hash = HASH.exec(source)?.[1];
  if (hash === undefined || !source.startsWith(CHUNK_START, hash.length + 4)) return null;
  return `${file.replace(/\.js$/, '')}.${hash}.cache`;
}

/**
 * The loader of the chunks in `dir` (one per folder and process). `nodeRequire` is Node's require
 * for a module in `dir` (an entry's own): chunks get built-in modules and the packages left out
 * of the bundles (better-sqlite3, clipboardy…) from it.
 */
export function chunkLoader(dir: string, nodeRequire: NodeJS.Require): ChunkLoader {
  const known = loaders.get(dir);
  if (known) return known;
  const modules = new Map<string, { exports: object }>();
  const compiled: CompiledChunk[] = [];
  const chunkRequire = Object.assign((specifier: string): unknown => (CHUNK_SPECIFIER.test(specifier) ? load(specifier.slice(2)) : nodeRequire(specifier)), {
    resolve: nodeRequire.resolve,
    cache: nodeRequire.cache,
    extensions: nodeRequire.extensions,
    main: nodeRequire.main,
  }) as NodeJS.Require;

  function load(name: string): Record<string, unknown> {
    const loaded = modules.get(name);
    if (loaded) return loaded.exports as Record<string, unknown>;
    const file = path.join(dir, name);
    const source = readFileSync(file, 'utf8');
    const cacheFile = cacheFileOf(file, source);
    if (cacheFile === null) throw new Error(`${file} is not a chunk of this build of the CLI; run \`npm run build\` again.`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache (not made yet, or removed): compiled from the text.
    }
    const script = new Script(source, { filename: file, ...(cachedData ? { cachedData } : {}) });
    compiled.push({ file, cacheFile, script, cache: cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'accepted' });
    const module = { exports: {} };
    modules.set(name, module);
    try {
      const importMeta = {
        get url() {
          return pathToFileURL(file).href;
        },
        filename: file,
        dirname: dir,
      };
      (script.runInThisContext() as ChunkFunction)(module.exports, chunkRequire, module, file, dir, importMeta);
    } catch (error) {
      modules.delete(name);
      throw error;
    }
    return module.exports as Record<string, unknown>;
  }

  const loader: ChunkLoader = { load, compiled: () => compiled };
  loaders.set(dir, loader);
  return loader;
}
