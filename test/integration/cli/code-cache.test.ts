// The built CLI's code caches (scripts/build-cli.mjs, src/cli/chunk-loader.ts): the packs and
// programs the entries name have a cache this Node takes, and a cache that is missing, cut short
// or not a cache at all only costs speed: the commands do the same. (A cache made for other
// text is never read: see test/unit/cli/chunk-loader.test.ts.)
import { execa } from 'execa';
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';
import { answer, relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';

const DIST = path.join(REPO_ROOT, 'dist/cli');

/** The files relay.js compiles first: its program chunk and the packs it names. */
function namedByEntry(): string[] {
  const entry = readFileSync(path.join(DIST, 'relay.js'), 'utf8');
  const packs = JSON.parse(/chunkLoader\(__dirname, require, (\[.*?\])\)\.load/.exec(entry)![1]!) as Array<{ file: string }>;
  const program = /\.load\("(relay-program-[A-Z0-9]+\.js)"\)/.exec(entry)![1]!;
  return [program, ...packs.map((pack) => pack.file)];
}

async function run(relayJs: string, args: string[], cwd: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const ran = await execa(process.execPath, [relayJs, ...args], { cwd, reject: false, stdin: 'ignore' });
  return { exitCode: ran.exitCode ?? -1, stdout: ran.stdout, stderr: ran.stderr };
}

describe('the built CLI', () => {
  it('has a code cache for its program and every pack, which this Node accepts', async () => {
    const files = namedByEntry();
    expect(files.length).toBeGreaterThan(3);
    // In a plain node: a cache is checked against the V8 flags of the process that reads it.
    const check = `
      const { readFileSync } = require('node:fs');
      const { Script } = require('node:vm');
      const path = require('node:path');
      for (const name of ${JSON.stringify(files)}) {
        const file = path.join(${JSON.stringify(DIST)}, name);
        const source = readFileSync(file, 'utf8');
        const cache = file.replace(/\\.js$/, '') + '.' + source.slice(2, 18) + '.cache';
        const script = new Script(source, { filename: file, cachedData: readFileSync(cache) });
        console.log(name, script.cachedDataRejected ? 'rejected' : 'accepted');
      }`;
    const ran = await execa(process.execPath, ['-e', check], { reject: false });
    expect(ran.stderr).toBe('');
    expect(ran.stdout.split('\n')).toEqual(files.map((name) => `${name} accepted`));
  });

  it('does the same with its caches missing, cut short or not caches at all', async () => {
    const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'one\n' } });
    const answerFile = path.join(tempDir(), 'answer.md');
    writeFileSync(answerFile, answer({ projectId: 'demo', files: { 'a.txt': 'two\n' }, uuid: '11111111-0000-4000-8000-000000000001', message: 'Two' }));
    const normal = await run(path.join(DIST, 'relay.js'), ['apply', '--yes', '--json', answerFile], root);
    expect(normal.exitCode).toBe(0);
    const log = await run(path.join(DIST, 'relay.js'), ['log', '--json'], root);
    expect(log.exitCode).toBe(0);
    for (const damage of ['missing', 'cut short', 'not a cache'] as const) {
      // A copy of dist/cli beside the original, so that packages still resolve from the repository.
      const copy = path.join(REPO_ROOT, 'dist', `cli-cache-test-${process.pid}-${damage.replace(/ /g, '-')}`);
      cpSync(DIST, copy, { recursive: true });
      try {
        for (const name of readdirSync(copy).filter((file) => file.endsWith('.cache'))) {
          const file = path.join(copy, name);
          if (damage === 'missing') rmSync(file);
          else if (damage === 'cut short') writeFileSync(file, readFileSync(file).subarray(0, 4096));
          else writeFileSync(file, 'not a code cache, just text that happens to be where one should be');
        }
        expect(await run(path.join(copy, 'relay.js'), ['log', '--json'], root), damage).toEqual(log);
        const again = await run(path.join(copy, 'relay.js'), ['apply', '--yes', '--json', answerFile], root);
        expect(again.exitCode, damage).toBe(0);
        expect(JSON.parse(again.stdout), damage).toMatchObject({ status: 'skipped' });
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    }
  });
});
