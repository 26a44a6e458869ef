import { cpSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRelayConfig, writeRelayConfig } from '../../../src/engine/patch/config.js';
import { parseResponse } from '../../../src/engine/patch/parse.js';
import { planOperations } from '../../../src/engine/patch/plan.js';
import { applyPatch } from '../../../src/engine/patch/transaction.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { readTree, tempDir, writeFiles } from '../../helpers/temp.js';

const CORPUS = path.join(REPO_ROOT, 'fixtures/patch-corpus');
const cases = readdirSync(CORPUS).filter((n) => /^\d{3}-/.test(n));

/** A small seeded PRNG (mulberry32) so every run fuzzes the same inputs. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HOSTILE = [
  '```', '````', '~~~', '<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE', '@@ ... @@', '--- a/x', '+++ b/x', '-', '+', '',
  'projectId: corpus', 'uuid: ../../../etc/passwd', '```ts // ../outside.txt', '```ts // /tmp/absolute.txt', '```sh // .git/hooks/pre-commit',
  '```ts // ..\\windows.txt', '```json // rename-file', '{"from": "a", "to": "../b"}', '```md // "a b/c.md" new-unified', '//TODO: delete this file',
  '\u0000', '\uFEFF', '\r', 'x'.repeat(5000), '// ... existing code ...', '```ts // src/link/../../up.ts',
];

function mutate(text: string, random: () => number): string {
  const lines = text.split('\n');
  const pick = (n: number): number => Math.floor(random() * n);
  const rounds = 1 + pick(4);
  for (let r = 0; r < rounds; r += 1) {
    const at = pick(lines.length + 1);
    switch (pick(8)) {
      case 0: lines.splice(at, 1); break;
      case 1: lines.splice(at, 0, lines[pick(lines.length)] ?? ''); break;
      case 2: lines.splice(at, 0, HOSTILE[pick(HOSTILE.length)]!); break;
      case 3: lines.length = Math.max(0, at); break;
      case 4: {
        const line = lines[at] ?? '';
        const i = pick(line.length + 1);
        lines[at] = line.slice(0, i) + String.fromCharCode(32 + pick(95)) + line.slice(i + 1);
        break;
      }
      case 5: lines[at] = (lines[at] ?? '').replace(/\/\/ (\S+)/, '// ../$1'); break;
      case 6: { const j = pick(lines.length); [lines[at], lines[j]] = [lines[j] ?? '', lines[at] ?? '']; break; }
      default: lines[at] = (lines[at] ?? '') + '\r'; break;
    }
  }
  return lines.join('\n');
}

function assertInside(changePath: string): void {
  expect(path.isAbsolute(changePath)).toBe(false);
  expect(changePath.split('/')).not.toContain('..');
  expect(changePath.split('/')[0]).not.toBe('.git');
}

describe('fuzzing the parser and planner with mutated corpus answers', () => {
  it('3,000 mutations: no crash, no hang, every planned path inside the project', () => {
    const random = rng(20261122);
    const trees = new Map<string, string>();
    for (const name of cases) {
      const root = tempDir('relay-fuzz-');
      cpSync(path.join(CORPUS, name, 'before'), root, { recursive: true });
      trees.set(name, root);
    }
    let parsedCount = 0;
    for (let i = 0; i < 3000; i += 1) {
      const name = cases[i % cases.length]!;
      const text = mutate(readFileSync(path.join(CORPUS, name, 'response.md'), 'utf8'), random);
      const parsed = parseResponse(text);
      if (!parsed.ok) {
        expect(parsed.error.message.length).toBeGreaterThan(0);
        continue;
      }
      parsedCount += 1;
      const plan = planOperations(trees.get(name)!, parsed.value.operations);
      if (plan.ok) plan.value.changes.forEach((c) => assertInside(c.path));
      else expect(plan.error.code).toMatch(/^[A-Z_]+$/);
    }
    expect(parsedCount).toBeGreaterThan(500); // the mutations must not all be rejected at parse time
  });

  it('300 mutated answers applied for real never write outside the project', async () => {
    const random = rng(7);
    const sandbox = tempDir('relay-sandbox-');
    const outside = path.join(sandbox, 'outside');
    writeFiles(outside, { 'canary.txt': 'do not touch\n' });
    const before = readTree(sandbox);
    for (let i = 0; i < 300; i += 1) {
      const name = cases[(i * 7) % cases.length]!;
      const root = path.join(sandbox, `p${i}`);
      mkdirSync(root);
      cpSync(path.join(CORPUS, name, 'before'), root, { recursive: true });
      writeRelayConfig(root, defaultRelayConfig('corpus'));
      const text = mutate(readFileSync(path.join(CORPUS, name, 'response.md'), 'utf8'), random);
      const outcome = await applyPatch({ root, text, source: 'paste', decide: async () => ({ approve: true }) });
      expect(['applied', 'rejected', 'skipped']).toContain(outcome.status);
    }
    const after = readTree(sandbox, []);
    for (const [file, content] of before) expect(after.get(file)).toBe(content);
    const stray = [...after.keys()].filter((f) => !/^p\d+\//.test(f) && !before.has(f));
    expect(stray).toEqual([]);
  });
});
