// `relay apply` with answers in the assistants' own formats: no control block, a uuid from the
// content (the same answer twice is a duplicate), a commit message from the prose, and refusals
// printed with their reply (`--reply` prints only the reply, `--json` has it as fields).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relay } from '../../helpers/cli.js';
import { gitIn, gitRepo, readTree, tempDir } from '../../helpers/temp.js';

const FILES = { 'src/greet.py': 'def greet(name):\n    return "Hello, " + name\n' };

async function project(): Promise<string> {
  const root = gitRepo(FILES);
  expect((await relay(['init'], { cwd: root })).exitCode).toBe(0);
  return root;
}

function answerFile(text: string): string {
  const file = path.join(tempDir('relay-answer-'), 'answer.md');
  writeFileSync(file, text);
  return file;
}

const GOOD = 'Use an f-string for readability:\n\nsrc/greet.py\n```python\n<<<<<<< SEARCH\n    return "Hello, " + name\n=======\n    return f"Hello, {name}"\n>>>>>>> REPLACE\n```\n';
const STALE = 'src/greet.py\n```python\n<<<<<<< SEARCH\n    return "Hi, " + name\n=======\n    return f"Hi, {name}"\n>>>>>>> REPLACE\n```\n';

describe('relay apply with a native answer', () => {
  it('applies it without a control block, records a message from the prose, and skips the same answer the second time', async () => {
    const root = await project();
    const file = answerFile(GOOD);
    const first = await relay(['apply', file, '--yes', '--json'], { cwd: root });
    expect(JSON.parse(first.stdout)).toMatchObject({ status: 'applied', files: [{ path: 'src/greet.py', change: 'modify', added: 1, removed: 1 }] });
    expect(readTree(root).get('src/greet.py')).toBe('def greet(name):\n    return f"Hello, {name}"\n');
    const log = JSON.parse((await relay(['log', '--json'], { cwd: root })).stdout) as Array<{ gitCommitMsg: string }>;
    expect(log[0]!.gitCommitMsg).toBe('Use an f-string for readability');

    const second = await relay(['apply', file, '--yes', '--json'], { cwd: root });
    expect(second.exitCode).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ status: 'skipped', error: { code: 'ALREADY_APPLIED' } });

    const commit = await relay(['git', 'commit', '--yes'], { cwd: root });
    expect(commit.exitCode).toBe(0);
    expect(gitIn(root, 'log', '-1', '--format=%s').trim()).toBe('Use an f-string for readability');
  });

  it('prints a refusal with the closest lines and the reply; --reply prints only the reply; --json has both as fields', async () => {
    const root = await project();
    const before = readTree(root);
    const file = answerFile(STALE);

    const human = await relay(['apply', file, '--yes'], { cwd: root });
    expect(human.exitCode).toBe(1);
    expect(human.stderr).toContain('✘ Not applied (SEARCH_NOT_FOUND): src/greet.py');
    expect(human.stderr).toMatch(/closest lines in the file \(\d+% alike\)/);
    expect(human.stderr).toContain('Reply for the assistant');

    const reply = await relay(['apply', file, '--reply'], { cwd: root });
    expect(reply.exitCode).toBe(1);
    expect(reply.stdout.startsWith('The SEARCH block for src/greet.py')).toBe(true);
    expect(reply.stdout).toContain('    return "Hello, " + name');
    expect(reply.stdout.trim().endsWith('Please resend that SEARCH/REPLACE block against the current file.')).toBe(true);

    const json = JSON.parse((await relay(['apply', file, '--json'], { cwd: root })).stdout) as { error: Record<string, unknown> };
    expect(json.error).toMatchObject({ code: 'SEARCH_NOT_FOUND', path: 'src/greet.py', block: { format: 'search-replace', path: 'src/greet.py' }, closest: { startLine: 2, lines: ['    return "Hello, " + name'] } });
    expect(json.error.reply).toBe(reply.stdout.replace(/\n$/, ''));
    expect(readTree(root)).toEqual(before);
  });

  it('says so, with exit code 1, when an answer has nothing to apply; --reply stays quiet on stdout when it applies', async () => {
    const root = await project();
    const nothing = await relay(['apply', answerFile('Try:\n\n```bash\npython -m src.greet\n```\n'), '--yes', '--json'], { cwd: root });
    expect(nothing.exitCode).toBe(1);
    expect(JSON.parse(nothing.stdout)).toMatchObject({ status: 'rejected', error: { code: 'NOTHING_TO_APPLY' } });

    const applied = await relay(['apply', answerFile(GOOD), '--yes', '--reply'], { cwd: root });
    expect(applied.exitCode).toBe(0);
    expect(applied.stdout).toBe('');
    expect(applied.stderr).toContain('✔ Applied');
  });

  it('records a V4A move, add and delete like any other transaction, so relay log and relay revert work on it', async () => {
    const root = await project();
    const before = readTree(root);
    const answer = '*** Begin Patch\n*** Update File: src/greet.py\n*** Move to: src/hello.py\n@@\n-    return "Hello, " + name\n+    return "Hello, " + name + "!"\n*** Add File: src/__init__.py\n+from .hello import greet\n*** End Patch\n';
    const applied = await relay(['apply', answerFile(answer), '--yes', '--json'], { cwd: root });
    expect(JSON.parse(applied.stdout)).toMatchObject({ status: 'applied' });
    expect([...readTree(root).keys()].sort()).toEqual(['src/__init__.py', 'src/hello.py']);
    expect(readTree(root).get('src/hello.py')).toBe('def greet(name):\n    return "Hello, " + name + "!"\n');
    const reverted = await relay(['revert', '1', '--yes', '--json'], { cwd: root });
    expect(JSON.parse(reverted.stdout)).toMatchObject({ status: 'applied' });
    expect(readTree(root)).toEqual(before);
  });
});
