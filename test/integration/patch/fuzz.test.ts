import { cpSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultRelayConfig, writeRelayConfig } from '../../../src/engine/patch/config.js';
import { DEFAULT_INTAKE_LIMITS, intakeAnswer } from '../../../src/engine/patch/intake.js';
import { parseAnswer, parseResponse } from '../../../src/engine/patch/parse.js';
import { planOperations } from '../../../src/engine/patch/plan.js';
import { applyPatch } from '../../../src/engine/patch/transaction.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { blowUp, mutate, rng } from '../../helpers/mutate.js';
import { readTree, tempDir, writeFiles } from '../../helpers/temp.js';

const CORPUS = path.join(REPO_ROOT, 'fixtures/patch-corpus');
const cases = readdirSync(CORPUS).filter((n) => /^\d{3}-/.test(n));

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

  it('2,000 mutated native answers, some blown up to huge lines or the size limit: intake, parse and plan never throw and refuse with a code', () => {
    const native = ['native-corpus', 'native-corpus-extra'].flatMap((corpus) =>
      readdirSync(path.join(REPO_ROOT, 'fixtures', corpus))
        .filter((n) => /^\d{3}-/.test(n))
        .map((name) => path.join(REPO_ROOT, 'fixtures', corpus, name)),
    );
    const roots = new Map<string, string>();
    for (const dir of native) {
      const root = tempDir('relay-fuzz-');
      cpSync(path.join(dir, 'before'), root, { recursive: true });
      roots.set(dir, root);
    }
    const random = rng(20261125);
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 2000; i += 1) {
      const dir = native[i % native.length]!;
      const mutated = mutate(readFileSync(path.join(dir, 'response.md'), 'utf8'), random);
      const text = i % 10 === 9 ? blowUp(mutated, random, { maxBytes: DEFAULT_INTAKE_LIMITS.maxBytes, maxLine: 70_000 }) : mutated;
      const intake = intakeAnswer(text);
      let code = intake.ok ? 'parsed' : intake.error.code;
      if (intake.ok) {
        const parsed = parseAnswer(intake.value);
        if (!parsed.ok) code = parsed.error.code;
        else {
          const plan = planOperations(roots.get(dir)!, parsed.value.operations);
          if (plan.ok) plan.value.changes.forEach((c) => assertInside(c.path));
          code = plan.ok ? 'planned' : plan.error.code;
        }
      }
      expect(code).toMatch(/^[A-Za-z_]+$/);
      outcomes.set(code, (outcomes.get(code) ?? 0) + 1);
    }
    // The mutations exercise every stage: many answers still plan, others are refused for many reasons.
    expect(outcomes.get('planned') ?? 0).toBeGreaterThan(300);
    expect(outcomes.get('ANSWER_LINE_TOO_LONG') ?? 0).toBeGreaterThan(0);
    expect([...outcomes.keys()].length).toBeGreaterThan(8);
  });

  it('lines made of one character (64 KB of backticks, spaces, "=", "<", "#", …) in every position of an answer are read without failing', () => {
    const root = tempDir('relay-fuzz-');
    writeFiles(root, { 'src/a.ts': Array.from({ length: 500 }, (_, i) => (i % 7 === 0 ? '}' : `  x${i} = ${i};`)).join('\n') + '\n' });
    const wrappers = [
      (l: string) => l,
      (l: string) => `**src/a.ts**\n\n\`\`\`ts\n${l}\n\`\`\``,
      (l: string) => `src/a.ts\n\`\`\`ts\n<<<<<<< SEARCH\n${l}\n=======\nx\n>>>>>>> REPLACE\n\`\`\``,
      (l: string) => `\`\`\`diff\n--- a/src/a.ts\n+++ b/src/a.ts\n@@ ... @@\n ${l}\n-}\n+z\n\`\`\``,
      (l: string) => `*** Begin Patch\n*** Update File: src/a.ts\n@@ ${l}\n }\n-x\n+y\n*** End Patch`,
    ];
    for (const c of ['`', '~', ' ', '=', '<', '>', '-', '+', '*', '#', '/', '.', '@', ':', '"']) {
      for (const wrap of wrappers) {
        const intake = intakeAnswer(wrap(c.repeat(65_000)));
        if (!intake.ok) continue;
        const parsed = parseAnswer(intake.value);
        const result = parsed.ok ? planOperations(root, parsed.value.operations) : parsed;
        if (!result.ok) expect(result.error.code).toMatch(/^[A-Z_]+$/);
      }
    }
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
