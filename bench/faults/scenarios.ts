// The projects the kill checks run in: a git repository set up with `relay init`, the
// commands of each scenario (a formatter that edits files outside the answer, a linter that
// leaves a cache file, a preCommand that generates a file), and the answer to apply.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gitIn, gitRepo, makeTemp, relay } from './util.js';

/** The answer every scenario applies: two edits, a new file in a new folder, a delete. */
export const ANSWER_UUID = '7d1c3f5e-0000-4000-8000-00000000fa17';

let answerPath: string | null = null;

/**
 * The answer saved in a file outside every project (relay apply reads it from there: reading a
 * large answer from a pipe is its own problem, see the README of the harness).
 */
export function answerFile(text: string = answerText()): string {
  if (text === answerText() && answerPath) return answerPath;
  const file = path.join(makeTemp('faults-answer-'), 'answer.md');
  writeFileSync(file, text);
  if (text === answerText()) answerPath = file;
  return file;
}

/** The answer's text. */
export function answerText(): string {
  const block = (file: string, body: string, strategy = ''): string => `\`\`\`text // ${file}${strategy ? ` ${strategy}` : ''}\n${body}\n\`\`\``;
  return [
    'Here is the change.',
    block('src/a.ts', '<<<<<<< SEARCH\nexport const a = 1;\n=======\nexport const a = 2;\n>>>>>>> REPLACE', 'multi-search-replace'),
    block('src/b.ts', 'export const b = 2;\nexport function twice(n: number): number {\n  return n * 2;\n}'),
    block('src/deep/new/c.ts', 'export const c = 3;'),
    block('src/old.ts', '//TODO: delete this file'),
    '```yaml\nprojectId: faults\nuuid: ' + ANSWER_UUID + '\ngitCommitMsg: "feat: fault harness change"\n```',
    '',
  ].join('\n\n');
}

const FILES: Readonly<Record<string, string>> = {
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 1;\r\n',
  'src/old.ts': 'old\n',
  'src/outside.ts': 'export const outside = 1;  \n',
  'src/remove-me.ts': 'the formatter deletes this\n',
  'docs/readme.md': '# doc\n',
  'bin/run.sh': '#!/bin/sh\necho run\n',
};

// Commands sleep between their writes (Atomics.wait) so kills land in the middle of them too.
const SLEEP = 'const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);';

/** A formatter (postCommand): edits a file outside the answer, creates one in a new folder, deletes one, re-formats an answer file. */
const FORMATTER = `const fs = require('fs'); ${SLEEP}
const t = fs.readFileSync('src/outside.ts', 'utf8');
if (!t.includes('// formatted')) fs.writeFileSync('src/outside.ts', t.replace(/ +\\n/g, '\\n') + '// formatted\\n');
sleep(25);
fs.mkdirSync('build/out', { recursive: true });
fs.writeFileSync('build/out/cache.txt', 'formatter cache\\n');
sleep(25);
fs.rmSync('src/remove-me.ts', { force: true });
const a = fs.readFileSync('src/a.ts', 'utf8');
fs.writeFileSync('src/a.ts', a.endsWith('// fmt\\n') ? a : a + '// fmt\\n');
sleep(15);
`;

/** A linter: reads the sources, leaves a cache file, reports no errors. */
const LINTER = `const fs = require('fs'); ${SLEEP}
const n = fs.readdirSync('src').length;
fs.writeFileSync('.lintcache', 'files ' + n + '\\n');
sleep(20);
console.log('Found 0 errors');
`;

/** A preCommand: generates a file. */
const GENERATOR = `const fs = require('fs'); ${SLEEP}
fs.mkdirSync('gen', { recursive: true });
fs.writeFileSync('gen/version.ts', 'export const version = "generated";\\n');
sleep(15);
`;

export type ScenarioName = 'plain' | 'formatter' | 'linter' | 'all-commands';

export const SCENARIOS: readonly ScenarioName[] = ['plain', 'formatter', 'linter', 'all-commands'];

/** Writes the command scripts once (outside every project, so they are not part of any tree). */
export function commandScripts(): { formatter: string; linter: string; generator: string } {
  const dir = makeTemp('faults-commands-');
  const files = { formatter: path.join(dir, 'fmt.cjs'), linter: path.join(dir, 'lint.cjs'), generator: path.join(dir, 'gen.cjs') };
  writeFileSync(files.formatter, FORMATTER);
  writeFileSync(files.linter, LINTER);
  writeFileSync(files.generator, GENERATOR);
  return files;
}

/** A committed project for `scenario`, clean (relay.config.json and .gitignore committed too). */
export async function prepareProject(scenario: ScenarioName, scripts: ReturnType<typeof commandScripts>, root = makeTemp(`faults-${scenario}-`)): Promise<string> {
  gitRepo(root, FILES);
  chmodSync(path.join(root, 'bin/run.sh'), 0o755); // an executable file: its mode must survive every rollback
  const init = await relay(['init', '--project-id', 'faults'], { cwd: root });
  if (init.code !== 0) throw new Error(`relay init failed: ${init.stderr}`);
  const configFile = path.join(root, 'relay.config.json');
  const config = JSON.parse(readFileSync(configFile, 'utf8')) as { patch: Record<string, unknown> };
  const node = process.execPath;
  if (scenario === 'formatter' || scenario === 'all-commands') config.patch.postCommand = [node, scripts.formatter];
  if (scenario === 'linter' || scenario === 'all-commands') config.patch.linter = [node, scripts.linter];
  if (scenario === 'all-commands') config.patch.preCommand = [node, scripts.generator];
  writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'relay init');
  return root;
}
