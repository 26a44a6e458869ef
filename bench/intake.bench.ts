// Answer intake speed: (1) detecting and parsing a 200 KB answer in each accepted format, the
// work a clipboard watcher does on a copy; (2) intake + parse + plan of thousands of mutated
// answers (the corpora's, with hostile lines, cut-offs, huge lines and answers blown up to the
// size limit): the slowest one must stay well under 200 ms.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { detectAnswerFormats } from '../src/engine/patch/detect.js';
import { DEFAULT_INTAKE_LIMITS, intakeAnswer } from '../src/engine/patch/intake.js';
import { parseAnswer } from '../src/engine/patch/parse.js';
import { planOperations } from '../src/engine/patch/plan.js';
import { routeAnswer, takeForRouting } from '../src/engine/patch/route.js';
import { blowUp, mutate, rng } from '../test/helpers/mutate.js';
import { report } from './util.js';

const FIXTURES = path.join(import.meta.dirname, '../fixtures');
const CORPORA = ['native-corpus', 'native-corpus-extra', 'patch-corpus', 'patch-corpus-extra', 'patch-corpus-extra2', 'patch-corpus-extra3'];

/** About `bytes` of text made of `unit(i)` repeated. */
function repeatTo(bytes: number, unit: (i: number) => string, joiner = '\n'): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i += 1) {
    const part = unit(i);
    parts.push(part);
    size += part.length + joiner.length;
  }
  return parts.join(joiner);
}

const code = (i: number, n = 30): string => Array.from({ length: n }, (_, j) => `  const value${i}_${j} = compute(${i}, ${j}); // line ${j}`).join('\n');

/** A 200 KB answer in each format. */
function answers(): Array<[string, string]> {
  const size = 200_000;
  return [
    ['git diff (many files)', `Here is the change:\n\n\`\`\`diff\n${repeatTo(size, (i) => `diff --git a/src/m${i}.ts b/src/m${i}.ts\nindex 1111111..2222222 100644\n--- a/src/m${i}.ts\n+++ b/src/m${i}.ts\n@@ -10,6 +10,7 @@ export function f${i}() {\n${code(i, 3).replace(/^/gm, ' ')}\n+  extra${i}();\n${code(i + 1, 3).replace(/^/gm, ' ')}`)}\n\`\`\`\n`],
    ['apply_patch envelope', `Done.\n\n*** Begin Patch\n${repeatTo(size, (i) => `*** Update File: src/m${i}.ts\n@@ export function f${i}() {\n${code(i, 3).replace(/^/gm, ' ')}\n-  old${i}();\n+  new${i}();\n*** Add File: src/n${i}.ts\n${code(i, 5).replace(/^/gm, '+')}`)}\n*** End Patch\n`],
    ['SEARCH/REPLACE blocks', repeatTo(size, (i) => `src/m${i}.ts\n\`\`\`ts\n<<<<<<< SEARCH\n${code(i, 4)}\n=======\n${code(i + 1, 4)}\n>>>>>>> REPLACE\n\`\`\``, '\n\n')],
    ['whole files (bold path labels)', repeatTo(size, (i) => `**src/m${i}.ts**\n\n\`\`\`ts\n${code(i, 40)}\n\`\`\``, '\n\n')],
    ["Relay's own format", `${repeatTo(size, (i) => `\`\`\`ts // src/m${i}.ts new-unified\n@@ ... @@\n${code(i, 3).replace(/^/gm, ' ')}\n-  old();\n+  new();\n\`\`\``, '\n\n')}\n\n\`\`\`yaml\nprojectId: bench\nuuid: 5f0c6a8e-0000-4000-8000-000000000001\n\`\`\`\n`],
    ['mixed, mostly prose and snippets', repeatTo(size, (i) => (i % 5 === 0 ? `### src/m${i}.ts\n\n\`\`\`ts\n${code(i, 10)}\n\`\`\`` : `Some explanation of step ${i}, with \`inline code\` and a [link](https://example.com).\n\n\`\`\`bash\nnpm run step-${i}\n\`\`\``), '\n\n')],
    ['not an answer (a log)', repeatTo(size, (i) => `2024-06-01T12:00:${String(i % 60).padStart(2, '0')}Z INFO request ${i} served in ${i % 97} ms path=/api/items/${i}`)],
  ];
}

/** Median and max of `runs` timings of fn (after two warm-up runs). */
function timings(fn: () => unknown, runs: number): { median: number; max: number } {
  fn();
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, max: times[times.length - 1]! };
}

function detectAndParse(): void {
  // What the app does with a copy that passed the marker scan: take it in (intake + the one
  // parse, paths checked against every project) and route it among three registered projects.
  const targets = ['web', 'api', 'tool'].map((projectId) => {
    const root = mkdtempSync(path.join(os.tmpdir(), `relay-bench-intake-${projectId}-`));
    cpSync(path.join(FIXTURES, 'clipboard-non-answers/projects', projectId), root, { recursive: true });
    return { projectId, root };
  });
  for (const [label, text] of answers()) {
    const formats = detectAnswerFormats(text);
    const detect = timings(() => detectAnswerFormats(text), 21);
    const parse = timings(() => {
      if (detectAnswerFormats(text).length > 0) parseAnswer(text);
    }, 21);
    report(`200 KB ${label}: detect [${formats.join(', ') || 'nothing'}]`, detect.median);
    report(`200 KB ${label}: detect + parse, median`, parse.median, 20);
    report(`200 KB ${label}: detect + parse, slowest of 21 (GC pauses included)`, parse.max);
    const routed = timings(() => {
      if (detectAnswerFormats(text).length > 0) routeAnswer(takeForRouting(text, targets), targets);
    }, 11);
    report(`200 KB ${label}: detect + take + route among 3 projects, median`, routed.median);
  }
  for (const target of targets) rmSync(target.root, { recursive: true, force: true });
}

function fuzz(light: number, heavy: number): void {
  const cases: Array<{ root: string; text: string }> = [];
  const roots: string[] = [];
  for (const corpus of CORPORA) {
    const dir = path.join(FIXTURES, corpus);
    for (const name of readdirSync(dir).filter((n) => /^\d{3}-/.test(n))) {
      const root = mkdtempSync(path.join(os.tmpdir(), 'relay-fuzz-bench-'));
      cpSync(path.join(dir, name, 'before'), root, { recursive: true });
      roots.push(root);
      cases.push({ root, text: readFileSync(path.join(dir, name, 'response.md'), 'utf8') });
    }
  }
  const random = rng(20261125);
  const times: number[] = [];
  let refusedAtIntake = 0;
  for (let i = 0; i < light + heavy; i += 1) {
    const c = cases[i % cases.length]!;
    const mutated = mutate(c.text, random);
    const text = i < light ? mutated : blowUp(mutated, random, { maxBytes: DEFAULT_INTAKE_LIMITS.maxBytes, maxLine: 70_000 });
    const start = performance.now();
    const intake = intakeAnswer(text);
    if (intake.ok) {
      const parsed = parseAnswer(intake.value);
      if (parsed.ok) planOperations(c.root, parsed.value.operations);
    } else refusedAtIntake += 1;
    times.push(performance.now() - start);
  }
  for (const root of roots) rmSync(root, { recursive: true, force: true });
  const sorted = [...times].sort((a, b) => a - b);
  const over = times.filter((t) => t > 200).length;
  console.log(`${light + heavy} mutated answers (${heavy} blown up to huge lines or the 2 MB limit; ${refusedAtIntake} refused at intake): intake + parse + plan`);
  report('  median', sorted[Math.floor(sorted.length / 2)]!);
  report('  99th percentile', sorted[Math.floor(sorted.length * 0.99)]!);
  report('  slowest', sorted[sorted.length - 1]!, 200);
  console.log(`  over 200 ms: ${over}`);
}

export async function run(): Promise<void> {
  detectAndParse();
  fuzz(8000, 2000);
}
