// The fuzz's worker process: mutates corpus answers (seeded), runs parse + plan on each against
// its `before` folder, and sends one message per answer. A separate process so that the harness
// can stop an answer that never finishes and report it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseResponse } from '../../src/engine/patch/parse.js';
import { planOperations } from '../../src/engine/patch/plan.js';
import { rng } from './util.js';

/** What the worker posts per answer. */
export interface FuzzMessage {
  readonly index: number;
  readonly ms: number;
  readonly parsed: boolean;
  readonly planned: boolean;
  readonly error: string | null;
  readonly size: number;
}

interface Seed {
  readonly text: string;
  readonly before: string;
}

function seeds(repoRoot: string): Seed[] {
  const out: Seed[] = [];
  for (const corpus of readdirSync(path.join(repoRoot, 'fixtures')).filter((n) => n.startsWith('patch-corpus'))) {
    const dir = path.join(repoRoot, 'fixtures', corpus);
    for (const name of readdirSync(dir).filter((n) => /^\d{3}-/.test(n)).sort()) {
      try {
        out.push({ text: readFileSync(path.join(dir, name, 'response.md'), 'utf8'), before: path.join(dir, name, 'before') });
      } catch {
        // a case without a response.md
      }
    }
  }
  return out;
}

const TOKENS = ['```', '````', '```text // src/x.ts', '```ts // ../escape.ts', '```yaml', '<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE', '@@ -1,3 +1,4 @@', '@@ ... @@', '--- a/src/a.ts', '+++ b/src/a.ts', '//TODO: delete this file', 'projectId: x', 'uuid: 00000000-0000-4000-8000-000000000000', '// .git/config', '\u0000', '\uFFFD', '\uD800', '\u202E', '\r', '\t', '...', '// ... rest unchanged'];

/** One mutated answer. */
function mutate(text: string, random: () => number): string {
  let out = text;
  const pick = (n: number): number => Math.floor(random() * n);
  const rounds = 1 + pick(4);
  for (let r = 0; r < rounds; r += 1) {
    const at = pick(out.length + 1);
    const kind = random();
    if (kind < 0.2) out = out.slice(0, at) + TOKENS[pick(TOKENS.length)]! + out.slice(at);
    else if (kind < 0.35) out = out.slice(0, at) + out.slice(at + 1 + pick(200));
    else if (kind < 0.5) {
      const len = 1 + pick(400);
      out = out.slice(0, at) + out.slice(at, at + len) + out.slice(at);
    } else if (kind < 0.62) {
      const lines = out.split('\n');
      const a = pick(lines.length);
      const b = pick(lines.length);
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      out = lines.join('\n');
    } else if (kind < 0.72) out = out.slice(0, at);
    else if (kind < 0.82) out = out.slice(0, at) + String.fromCharCode(pick(0x10000)) + out.slice(at + 1);
    else if (kind < 0.9) out = out.replace(/(```[a-z]* \/\/ )([^\s`]+)/, (_m, p: string, f: string) => p + ['../' + f, '/' + f, '.git/' + f, f.toUpperCase(), `${f}\u0000`, `${f} `][pick(6)]!);
    else if (kind < 0.997) {
      // Repeat a line many times (long answers).
      const lines = out.split('\n');
      const line = lines[pick(lines.length)] ?? '';
      // Capped at about 8 MB: an answer over the intake limit is refused whole, and a huge line
      // repeated thousands of times would be past the longest string V8 can make.
      const times = Math.min(50 + pick(2000), Math.max(1, Math.floor(8_000_000 / (line.length + 1))));
      lines.splice(pick(lines.length), 0, ...Array<string>(times).fill(line));
      out = lines.join('\n');
    } else {
      // A huge line (minified code, a pasted blob): 100 KB to 1.5 MB.
      out = `${out.slice(0, at)}${'x'.repeat(100_000 + pick(1_400_000))}${out.slice(at)}`;
    }
  }
  return out;
}

const [repoRoot, seedArg, startArg, countArg] = process.argv.slice(2);
const seed = Number(seedArg);
const start = Number(startArg);
const count = Number(countArg);
const all = seeds(repoRoot!);
const random = rng(seed);
// Replaying the generator up to `start` keeps answer i the same whether or not a restart happened.
for (let i = 0; i < start; i += 1) mutate(all[i % all.length]!.text, random);
for (let i = start; i < count; i += 1) {
  const base = all[i % all.length]!;
  const text = mutate(base.text, random);
  const t0 = performance.now();
  let parsed = false;
  let planned = false;
  let error: string | null = null;
  try {
    const result = parseResponse(text);
    parsed = result.ok;
    if (result.ok) planned = planOperations(base.before, result.value.operations).ok;
  } catch (e) {
    error = ((e as Error).stack ?? String(e)).split('\n').slice(0, 3).join(' | ');
  }
  const message: FuzzMessage = { index: i, ms: performance.now() - t0, parsed, planned, error, size: text.length };
  process.send!(message);
}
process.disconnect();
