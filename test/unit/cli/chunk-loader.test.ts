// The built CLIs' chunk loader (src/cli/chunk-loader.ts): chunks load once, require each other,
// and a code cache only ever changes speed: a missing, rejected or stale one is compiled around.
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { cacheFileOf, chunkLoader, CHUNK_START } from '../../../src/cli/chunk-loader.js';
import { tempDir } from '../../helpers/temp.js';

/** Writes a chunk as the build does: hash, function, body. Returns its file. */
function writeChunk(dir: string, name: string, body: string): string {
  const text = `${CHUNK_START}\n${body}\n})`;
  const file = path.join(dir, name);
  writeFileSync(file, `/*${createHash('sha256').update(text).digest('hex').slice(0, 16)}*/${text}`);
  return file;
}

function writeCache(file: string, source: string, data: Buffer): string {
  const cacheFile = cacheFileOf(file, source)!;
  writeFileSync(cacheFile, data);
  return cacheFile;
}

const SHARED = 'let count = 0; exports.next = () => ++count; exports.url = __relayImportMeta.url; exports.dirname = __relayImportMeta.dirname;';
const USER = 'const shared = require("./chunk-shared.js"); const os = require("node:os"); exports.run = () => [shared.next(), typeof os.tmpdir];';

/** The loader of `dir`, with Node's require as an entry in `dir` would pass it. */
function loaderOf(dir: string): ReturnType<typeof chunkLoader> {
  return chunkLoader(dir, createRequire(path.join(dir, 'entry.js')));
}

function chunks(): { dir: string; shared: string; user: string } {
  const dir = tempDir('relay-chunks-');
  return { dir, shared: writeChunk(dir, 'chunk-shared.js', SHARED), user: writeChunk(dir, 'chunk-user.js', USER) };
}

describe('chunkLoader', () => {
  it('loads a chunk once, with its own require for chunks and Node for the rest, and import.meta.url', () => {
    const { dir, shared } = chunks();
    const loader = loaderOf(dir);
    const user = loader.load('chunk-user.js') as { run: () => [number, string] };
    expect(user.run()).toEqual([1, 'function']);
    expect((loader.load('chunk-shared.js') as { next: () => number }).next()).toBe(2);
    expect(loader.load('chunk-shared.js')).toMatchObject({ url: pathToFileURL(shared).href, dirname: dir });
    expect(loader.compiled().map((chunk) => [path.basename(chunk.file), chunk.cache])).toEqual([
      ['chunk-user.js', 'none'],
      ['chunk-shared.js', 'none'],
    ]);
    expect(loaderOf(dir)).toBe(loader);
  });

  it('uses a cache made for the same text, and compiles around a rejected one', () => {
    const { dir, shared, user } = chunks();
    // A cache made after running (as the build makes them) is accepted.
    const script = new Script(readText(user), { filename: user });
    writeCache(user, readText(user), script.createCachedData());
    // Garbage where the cache should be: V8 rejects it; the chunk still runs.
    writeCache(shared, readText(shared), Buffer.from('not a code cache at all, just bytes'));
    const loader = loaderOf(dir);
    expect((loader.load('chunk-user.js') as { run: () => [number, string] }).run()).toEqual([1, 'function']);
    expect(Object.fromEntries(loader.compiled().map((chunk) => [path.basename(chunk.file), chunk.cache]))).toEqual({ 'chunk-user.js': 'accepted', 'chunk-shared.js': 'rejected' });
  });

  it('never reads the cache of other text: the cache is named after the hash of the text', () => {
    const old = chunks();
    const oldCache = writeCache(old.shared, readText(old.shared), new Script(readText(old.shared), { filename: old.shared }).createCachedData());
    // The same chunk name, other text of the same length: the old cache is beside it, but not its name.
    const dir = tempDir('relay-chunks-');
    const changed = writeChunk(dir, 'chunk-shared.js', SHARED.replace('++count', 'count+1'.padEnd('++count'.length)));
    expect(readText(changed).length).toBe(readText(old.shared).length);
    copyFileSync(oldCache, path.join(dir, path.basename(oldCache)));
    expect(cacheFileOf(changed, readText(changed))).not.toBe(path.join(dir, path.basename(oldCache)));
    const loader = loaderOf(dir);
    const loaded = loader.load('chunk-shared.js') as { next: () => number };
    expect([loaded.next(), loaded.next()]).toEqual([1, 1]);
    expect(loader.compiled()[0]!.cache).toBe('none');
  });

  it('refuses a file that is not a chunk, and a chunk that throws can be loaded again', () => {
    const dir = tempDir('relay-chunks-');
    writeFileSync(path.join(dir, 'plain.js'), 'module.exports = 1;');
    expect(() => loaderOf(dir).load('plain.js')).toThrow(/is not a chunk of this build of the CLI/);
    writeChunk(dir, 'chunk-throws.js', 'if (!globalThis.__relayChunkTest) { globalThis.__relayChunkTest = true; throw new Error("first time"); } exports.ok = true;');
    try {
      expect(() => loaderOf(dir).load('chunk-throws.js')).toThrow('first time');
      expect(loaderOf(dir).load('chunk-throws.js')).toEqual({ ok: true });
    } finally {
      delete (globalThis as { __relayChunkTest?: boolean }).__relayChunkTest;
    }
  });
});

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
