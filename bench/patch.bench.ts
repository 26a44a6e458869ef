// Patch engine speed: parse + plan (matching every edit in memory) and the full transaction
// (lock, pending record with fsync, atomic writes, committed record) for the corpus and for
// synthetic large inputs.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { defaultRelayConfig, writeRelayConfig } from '../src/engine/patch/config.js';
import { parseResponse } from '../src/engine/patch/parse.js';
import { planOperations } from '../src/engine/patch/plan.js';
import { applyPatch } from '../src/engine/patch/transaction.js';
import { writeFiles } from './fixtures.js';
import { medianMs, report } from './util.js';

const CORPUS = path.join(import.meta.dirname, '../fixtures/patch-corpus');

function parseAndPlan(root: string, text: string): void {
  const parsed = parseResponse(text);
  if (parsed.ok) planOperations(root, parsed.value.operations);
}

/** Median time of a full applyPatch on a fresh copy of `before` (copying is not timed). */
async function medianTransaction(seed: (dir: string) => void, text: string, runs = 9): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs + 1; i += 1) {
    const root = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-'));
    seed(root);
    writeRelayConfig(root, defaultRelayConfig('corpus'));
    const start = performance.now();
    await applyPatch({ root, text, source: 'paste', decide: async () => ({ approve: true }) });
    if (i > 0) times.push(performance.now() - start);
    rmSync(root, { recursive: true, force: true });
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

function control(): string {
  return '```yaml\nprojectId: corpus\nuuid: 5f0c6a8e-0000-4000-8000-000000000001\n```\n';
}

export async function run(): Promise<void> {
  console.log('corpus, each case: parse + plan (in memory) | full transaction (writes, fsync)');
  let worstPlan = 0;
  let worstTx = 0;
  for (const name of readdirSync(CORPUS).filter((n) => /^\d{3}-/.test(n))) {
    const before = path.join(CORPUS, name, 'before');
    const text = readFileSync(path.join(CORPUS, name, 'response.md'), 'utf8');
    const plan = await medianMs(() => parseAndPlan(before, text));
    const tx = await medianTransaction((dir) => cpSync(before, dir, { recursive: true }), text, 5);
    worstPlan = Math.max(worstPlan, plan);
    worstTx = Math.max(worstTx, tx);
    console.log(`  ${name.padEnd(50)} ${plan.toFixed(2).padStart(7)} ms | ${tx.toFixed(2).padStart(7)} ms`);
  }
  report('corpus: slowest case, parse + plan', worstPlan, 20);
  report('corpus: slowest case, full transaction', worstTx, 20);

  // 2,000-line file, one diff with three hunks spread through it.
  const twoK = Array.from({ length: 2000 }, (_, i) => `const value${i} = compute(${i}); // line ${i}`);
  const hunk = (at: number): string => `@@ ... @@\n ${twoK[at - 1]}\n-${twoK[at]}\n+const value${at} = computeFaster(${at});\n ${twoK[at + 1]}`;
  const diffAnswer = `\`\`\`ts // big.ts new-unified\n--- big.ts\n+++ big.ts\n${[300, 1000, 1700].map(hunk).join('\n')}\n\`\`\`\n${control()}`;
  const seedTwoK = (dir: string): void => writeFiles(dir, { 'big.ts': `${twoK.join('\n')}\n` });
  const twoKDir = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-'));
  seedTwoK(twoKDir);
  report('2,000-line file, 3-hunk diff: parse + plan', await medianMs(() => parseAndPlan(twoKDir, diffAnswer)));
  report('2,000-line file, 3-hunk diff: full transaction', await medianTransaction(seedTwoK, diffAnswer));

  // 50 files in one answer (new files and full replacements).
  const fifty = Array.from({ length: 50 }, (_, i) => `\`\`\`ts // src/module${i}.ts\n${Array.from({ length: 40 }, (_, j) => `export const v${j} = ${i * j};`).join('\n')}\n\`\`\``).join('\n\n');
  const fiftyAnswer = `${fifty}\n${control()}`;
  const seedFifty = (dir: string): void => writeFiles(dir, Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`src/module${i}.ts`, 'old\n'])));
  const fiftyDir = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-'));
  seedFifty(fiftyDir);
  report('50-file answer: parse + plan', await medianMs(() => parseAndPlan(fiftyDir, fiftyAnswer)));
  report('50-file answer: full transaction', await medianTransaction(seedFifty, fiftyAnswer));

  // 10,000-line file, 20 SEARCH/REPLACE blocks.
  const tenK = Array.from({ length: 10_000 }, (_, i) => (i % 50 === 0 ? `function section${i}() {` : `  doWork(${i}, "payload ${i % 97}");`));
  const blocks = Array.from({ length: 20 }, (_, k) => {
    const at = 250 + k * 480;
    return `<<<<<<< SEARCH\n${tenK[at]}\n${tenK[at + 1]}\n=======\n${tenK[at]}\n  doBetterWork(${at + 1});\n>>>>>>> REPLACE`;
  }).join('\n\n');
  const srAnswer = `\`\`\`js // huge.js multi-search-replace\n${blocks}\n\`\`\`\n${control()}`;
  const seedTenK = (dir: string): void => writeFiles(dir, { 'huge.js': `${tenK.join('\n')}\n` });
  const tenKDir = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-'));
  seedTenK(tenKDir);
  report('10,000-line file, 20 SEARCH blocks: parse + plan', await medianMs(() => parseAndPlan(tenKDir, srAnswer), 9), 200);
  report('10,000-line file, 20 SEARCH blocks: full transaction', await medianTransaction(seedTenK, srAnswer), 200);
  for (const dir of [twoKDir, fiftyDir, tenKDir]) rmSync(dir, { recursive: true, force: true });
}
