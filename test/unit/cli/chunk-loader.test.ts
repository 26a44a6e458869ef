// The built CLIs' chunk loader (src/cli/chunk-loader.ts): chunks load once, require each other,
// and a code cache only ever changes speed: a missing, rejected or stale one is compiled around.
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { cacheFileOf, chunkLoader, CHUNK_START, PACK_START, type PackPlan } from '../../../src/cli/chunk-loader.js';
import { tempDir } from '../../helpers/temp.js';

/** Writes a chunk as the build does: hash, function, body. Returns its file. */
function writeChunk(dir: string, name: string, body: string): string {
  const text = `${CHUNK_START}\n${body}\n})`;
  const file = path.join(dir, name);
  writeFileSync(file, `/*${createHash('sha256').update(text).digest('hex').slice(0, 16)}*/${text}`);
  return file;
}

function writeCache(file: string, source: string, data: Buffer): string {
  const cacheFile = cacheFileOf(file, source) ?? cacheFileOf(file, source, PACK_START)!;
  writeFileSync(cacheFile, data);
  return cacheFile;
}

const SHARED = 'let count = 0; exports.next = () => ++count; exports.url = __relayImportMeta.url; exports.dirname = __relayImportMeta.dirname;';
const USER = 'const shared = require("./chunk-shared.js"); const os = require("node:os"); exports.run = () => [shared.next(), typeof os.tmpdir];';

/** Writes a pack as the build does: hash, then each chunk's function by name. Returns its file. */
function writePack(dir: string, name: string, chunks: Record<string, string>): string {
  const text = `${PACK_START}\n${Object.entries(chunks)
    .map(([chunk, body]) => `${JSON.stringify(chunk)}:\n${CHUNK_START}\n${body}\n}),`)
    .join('\n')}\n})`;
  const file = path.join(dir, name);
  writeFileSync(file, `/*${createHash('sha256').update(text).digest('hex').slice(0, 16)}*/${text}`);
  return file;
}

/** The loader of `dir`, with Node's require as an entry in `dir` would pass it. */
function loaderOf(dir: string, packs: PackPlan[] = []): ReturnType<typeof chunkLoader> {
  return chunkLoader(dir, createRequire(path.join(dir, 'entry.js')), packs);
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
    expect(loader.compiled().map((chunk) => [path.basename(chunk.file), chunk.cache, chunk.chunks])).toEqual([
      ['chunk-user.js', 'none', ['chunk-user.js']],
      ['chunk-shared.js', 'none', ['chunk-shared.js']],
    ]);
    expect(loader.loaded()).toEqual(['chunk-user.js', 'chunk-shared.js']);
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

  it('compiles a pack once, when its first chunk is required; each chunk still runs once, when it is required', () => {
    const { dir } = chunks();
    // The pack holds the user chunk and another; the shared chunk it requires comes from its own file.
    writeChunk(dir, 'chunk-other.js', 'throw new Error("the file, not the pack");');
    const pack = writePack(dir, 'pack-1.js', { 'chunk-user.js': USER.replace('exports.run', 'exports.packed = true; exports.run'), 'chunk-other.js': 'globalThis.__relayPackTest = (globalThis.__relayPackTest ?? 0) + 1; exports.other = 1;' });
    const loader = loaderOf(dir, [{ file: 'pack-1.js', chunks: ['chunk-user.js', 'chunk-other.js'] }]);
    try {
      expect(loader.load('chunk-user.js')).toMatchObject({ packed: true });
      expect((globalThis as { __relayPackTest?: number }).__relayPackTest).toBeUndefined(); // compiled, not run
      expect(loader.load('chunk-other.js')).toEqual({ other: 1 });
      expect(loader.load('chunk-other.js')).toEqual({ other: 1 });
      expect((globalThis as { __relayPackTest?: number }).__relayPackTest).toBe(1);
      expect(loader.compiled().map((compiled) => [path.basename(compiled.file), compiled.chunks])).toEqual([
        ['pack-1.js', ['chunk-user.js', 'chunk-other.js']],
        ['chunk-shared.js', ['chunk-shared.js']],
      ]);
      expect(loader.loaded()).toEqual(['chunk-user.js', 'chunk-shared.js', 'chunk-other.js']);
      expect(loader.compiled()[0]!.cacheFile).toBe(cacheFileOf(pack, readText(pack), PACK_START));
    } finally {
      delete (globalThis as { __relayPackTest?: number }).__relayPackTest;
    }
  });

  it('runs a chunk already loaded from its file once, though a pack compiled later holds it too; a pack uses its cache', () => {
    const { dir } = chunks();
    writeChunk(dir, 'chunk-command.js', 'exports.register = true;');
    const pack = writePack(dir, 'pack-2.js', { 'chunk-user.js': USER, 'chunk-shared.js': 'throw new Error("run twice");' });
    writeCache(pack, readText(pack), new Script(readText(pack), { filename: pack }).createCachedData());
    const loader = loaderOf(dir, [{ file: 'pack-2.js', chunks: ['chunk-user.js', 'chunk-shared.js'], after: 'chunk-command.js' }]);
    expect((loader.load('chunk-shared.js') as { next: () => number }).next()).toBe(1);
    loader.load('chunk-command.js');
    expect((loader.load('chunk-user.js') as { run: () => [number, string] }).run()).toEqual([2, 'function']);
    expect(loader.compiled().map((compiled) => [path.basename(compiled.file), compiled.cache])).toEqual([
      ['chunk-shared.js', 'none'],
      ['chunk-command.js', 'none'],
      ['pack-2.js', 'accepted'],
    ]);
    expect(() => loaderOf(tempDirWith('pack-3.js', 'module.exports = {};'), [{ file: 'pack-3.js', chunks: ['chunk-x.js'] }]).load('chunk-x.js')).toThrow(/is not a pack of this build of the CLI/);
  });

  it('compiles the pack of a command only once its command chunk is loaded', () => {
    const { dir } = chunks();
    writeChunk(dir, 'chunk-command.js', 'exports.register = true;');
    writePack(dir, 'pack-4.js', { 'chunk-user.js': USER.replace('exports.run', 'exports.packed = true; exports.run') });
    // As --help does: the shared chunk is required before the command's file, and does not compile the pack.
    const plans = [{ file: 'pack-4.js', chunks: ['chunk-user.js', 'chunk-shared.js'], after: 'chunk-command.js' }];
    const helpLoader = loaderOf(dir, plans);
    helpLoader.load('chunk-shared.js');
    expect(helpLoader.compiled().map((compiled) => path.basename(compiled.file))).toEqual(['chunk-shared.js']);
    const { dir: other } = chunks();
    writeChunk(other, 'chunk-command.js', 'exports.register = true;');
    writePack(other, 'pack-4.js', { 'chunk-user.js': USER.replace('exports.run', 'exports.packed = true; exports.run') });
    const runLoader = loaderOf(other, plans);
    runLoader.load('chunk-command.js');
    expect(runLoader.load('chunk-user.js')).toMatchObject({ packed: true });
    expect(runLoader.compiled().map((compiled) => path.basename(compiled.file))).toEqual(['chunk-command.js', 'pack-4.js', 'chunk-shared.js']);
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

function tempDirWith(name: string, text: string): string {
  const dir = tempDir('relay-chunks-');
  writeFileSync(path.join(dir, name), text);
  return dir;
}

function readText(file: string): string {
  return readFileSync(file, 'utf8');
}
