import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../../src/engine/relay/envelope.js';
import { relay, REPO_ROOT } from '../../helpers/cli.js';
import { agentLog, fakeAgentEnv, lastArg } from '../../helpers/fake-agents.js';
import { ollamaLines, startLlmServer } from '../../helpers/llm-server.js';
import { gitIn, gitRepo, tempDir } from '../../helpers/temp.js';
import { ended, pidWrittenTo } from '../../helpers/processes.js';

describe('relay ask (built CLI, fake agents first on PATH)', () => {
  it('prints the answer on stdout and exits 0; the agent ran in the repo with the envelope', async () => {
    const log = agentLog();
    const repo = gitRepo({ 'a.txt': 'one\n' });
    const run = await relay(['ask', 'Why is the build slow?'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(run).toEqual({ exitCode: 0, stdout: 'codex answer to: Why is the build slow?', stderr: '' });
    const call = log.only();
    expect(call.cwd).toBe(repo);
    expect(lastArg(call)).toBe(buildPrompt({ prompt: 'Why is the build slow?', repoPath: repo, contextText: '', diffText: '' }));
    expect(call.env.PHONE_A_FRIEND_DEPTH).toBe('1');
  });

  it('takes --backend, --repo, --model, --sandbox, --context and --include-diff', async () => {
    const log = agentLog();
    const repo = gitRepo({ 'a.txt': 'one\n' });
    writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\n');
    const elsewhere = tempDir();
    const run = await relay(['ask', 'Check this', '--backend', 'gemini', '--repo', repo, '--model', 'gemini-2.5-flash', '--sandbox', 'workspace-write', '--context', 'We target Node 20.', '--include-diff'], { cwd: elsewhere, env: fakeAgentEnv(log) });
    expect(run.exitCode).toBe(0);
    const call = log.only();
    expect(call.cwd).toBe(repo);
    expect(call.argv.slice(0, 6)).toEqual(['-o', 'json', '--approval-mode', 'auto_edit', '-m', 'gemini-2.5-flash']);
    expect(call.argv.at(-1)).toContain('Request:\nCheck this\n\nAdditional Context:\nWe target Node 20.\n\nGit Diff:\ndiff --git a/a.txt b/a.txt');
  });

  it('reads a context file relative to the current folder and the prompt from stdin with "-"', async () => {
    const log = agentLog();
    const repo = gitRepo();
    const here = tempDir();
    writeFileSync(path.join(here, 'ctx.md'), 'context from a file\n');
    const run = await relay(['ask', '-', '--repo', repo, '--context-file', 'ctx.md', '--backend', 'claude'], { cwd: here, env: fakeAgentEnv(log), input: 'question from stdin\n' });
    expect(run.stdout).toBe('claude answer to: question from stdin');
    expect(lastArg(log.only())).toContain('Request:\nquestion from stdin\n\nAdditional Context:\ncontext from a file');
  });

  it('records the answer in a Relay project, so `relay handoff` tells the next session what was said', async () => {
    const log = agentLog();
    const repo = gitRepo({ 'a.txt': 'one\n', '.gitignore': '.relaycode/\n' });
    expect((await relay(['init', '--project-id', 'demo'], { cwd: repo })).exitCode).toBe(0);
    const asked = await relay(['ask', 'Is the cache safe?', '--json'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(asked.exitCode).toBe(0);
    const { recordId } = JSON.parse(asked.stdout) as { recordId: string };
    const record = JSON.parse(readFileSync(path.join(repo, '.relaycode', 'answers', `${recordId}.json`), 'utf8')) as Record<string, unknown>;
    expect(record).toMatchObject({ schemaVersion: 1, id: recordId, kind: 'ask', backend: 'codex', prompt: 'Is the cache safe?', answer: 'codex answer to: Is the cache safe?', ok: true });
    const brief = await relay(['handoff'], { cwd: repo });
    expect(brief.exitCode).toBe(0);
    expect(brief.stdout).toContain('Asked codex: Is the cache safe?');
    expect(brief.stdout).toContain('Answer: codex answer to: Is the cache safe?');
  });

  it('writes nothing into a repository that is not a Relay project', async () => {
    const log = agentLog();
    const repo = gitRepo({ 'a.txt': 'one\n' });
    const asked = await relay(['ask', 'Hi', '--json'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(asked.exitCode).toBe(0);
    expect(JSON.parse(asked.stdout)).not.toHaveProperty('recordId');
    expect(existsSync(path.join(repo, '.relaycode'))).toBe(false);
    expect((await execa('git', ['status', '--porcelain'], { cwd: repo })).stdout).toBe('');
  });

  it('prints one JSON result object with --json', async () => {
    const log = agentLog();
    const repo = gitRepo();
    const run = await relay(['ask', 'Hi', '--json'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, backend: 'codex', answer: 'codex answer to: Hi', repoPath: repo, sandbox: 'read-only', model: null });
  });

  it.each([
    ['an empty prompt', ['ask', ''], 'Prompt is required'],
    ['no prompt at all', ['ask'], 'Prompt is required'],
    ['a zero timeout', ['ask', 'q', '--timeout', '0'], 'Timeout must be greater than zero'],
    ['a negative timeout', ['ask', 'q', '--timeout', '-3'], 'Timeout must be greater than zero'],
    ['an unknown backend', ['ask', 'q', '--backend', 'copilot'], 'Unsupported relay backend: copilot. Supported: claude, codex, gemini, ollama'],
    ['an invalid sandbox', ['ask', 'q', '--sandbox', 'full'], 'Invalid sandbox mode: full. Allowed values: danger-full-access, read-only, workspace-write'],
    ['both kinds of context', ['ask', 'q', '--context', 'a', '--context-file', 'b.md'], 'Use either a context file or context text, not both'],
    ['a missing context file', ['ask', 'q', '--context-file', 'missing.md'], 'Context file does not exist: '],
  ])('exits 2 (a usage error) with the message on stderr for %s, and sends nothing', async (_name, args, message) => {
    const log = agentLog();
    const run = await relay(args, { cwd: gitRepo(), env: fakeAgentEnv(log) });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(log.calls()).toEqual([]);
  });

  it('exits 2 for a repo path that is not there, 1 for oversized context and a nested relay', async () => {
    const log = agentLog();
    const repo = gitRepo();
    const missing = path.join(tempDir(), 'missing');
    const bad = await relay(['ask', 'q', '--repo', missing], { cwd: repo, env: fakeAgentEnv(log) });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain(`Repository path does not exist or is not a directory: ${missing}`);
    writeFileSync(path.join(repo, 'big.txt'), 'x'.repeat(200_001));
    const big = await relay(['ask', 'q', '--context-file', 'big.txt'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(big.exitCode).toBe(1);
    expect(big.stderr).toContain('Context file is too large (200001 bytes; max 200000 bytes)');
    const nested = await relay(['ask', 'q'], { cwd: repo, env: fakeAgentEnv(log, { PHONE_A_FRIEND_DEPTH: '1' }) });
    expect(nested.exitCode).toBe(1);
    expect(nested.stderr).toContain('Relay depth limit reached; refusing nested relay invocation');
    expect(log.calls()).toEqual([]);
  });

  it('exits 1 with the backend\'s failure, and --json reports it as an object too', async () => {
    const log = agentLog();
    const run = await relay(['ask', 'q', '--backend', 'gemini', '--json'], { cwd: gitRepo(), env: fakeAgentEnv(log, { FAKE_AGENT_MODE: 'auth' }) });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('gemini is not signed in (exit 41)');
    expect(JSON.parse(run.stdout)).toEqual({ ok: false, error: { code: 'BACKEND_FAILED', message: expect.stringContaining('gemini is not signed in') } });
  });

  it('exits 2 for a malformed command line', async () => {
    const log = agentLog();
    const repo = gitRepo();
    expect((await relay(['ask', 'q', '--timeout', 'soon'], { cwd: repo, env: fakeAgentEnv(log) })).exitCode).toBe(2);
    expect((await relay(['ask', 'q', '--no-such-flag'], { cwd: repo, env: fakeAgentEnv(log) })).exitCode).toBe(2);
    expect((await relay(['review', 'extra-arg'], { cwd: repo, env: fakeAgentEnv(log) })).exitCode).toBe(2);
    expect(log.calls()).toEqual([]);
  });

  it('strips secrets the backend does not need from what the agent sees', async () => {
    const log = agentLog();
    await relay(['ask', 'q'], { cwd: gitRepo(), env: fakeAgentEnv(log, { GITHUB_TOKEN: 'ghp_0123456789abcdef', OPENAI_API_KEY: 'sk-0123456789abcdef', ANTHROPIC_API_KEY: 'ant-0123456789' }) });
    const { env } = log.only();
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.OPENAI_API_KEY).toBe('sk-0123456789abcdef');
  });

  it('streams an Ollama answer to stdout from OLLAMA_HOST', async () => {
    const server = await startLlmServer();
    server.script({ kind: 'ndjson', lines: ollamaLines(['Streaming ', 'works.']) });
    const run = await relay(['ask', 'q', '--backend', 'ollama', '--model', 'llama3.2'], { cwd: gitRepo(), env: { OLLAMA_HOST: server.url, PHONE_A_FRIEND_DEPTH: '0' } });
    expect(run).toEqual({ exitCode: 0, stdout: 'Streaming works.', stderr: '' });
  });

  it('shows progress on stderr with --verbose only', async () => {
    const log = agentLog();
    const run = await relay(['ask', 'q', '-v'], { cwd: gitRepo(), env: fakeAgentEnv(log) });
    expect(run.stderr).toContain('· $ bash -lc ls');
    expect(run.stdout).toBe('codex answer to: q');
  });

  it('kills the agent and exits 1 when interrupted', async () => {
    const log = agentLog();
    const pidfile = path.join(tempDir(), 'pid');
    const child = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'ask', 'q'], {
      cwd: gitRepo(),
      env: fakeAgentEnv(log, { FAKE_AGENT_MODE: 'hang', FAKE_AGENT_PIDFILE: pidfile }),
      reject: false,
      stdin: 'ignore',
    });
    const agentPid = await pidWrittenTo(pidfile);
    child.kill('SIGINT');
    const run = await child;
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('codex was cancelled');
    await ended(agentPid);
  });

  it('explains backends, limits and exit codes in --help', async () => {
    const run = await relay(['ask', '--help'], { cwd: tempDir() });
    expect(run.exitCode).toBe(0);
    for (const text of ['--backend', '--context-file', '--include-diff', '--sandbox', '--timeout', '--json', 'RELAY_CODEX_BIN', 'OLLAMA_HOST', '200000 bytes', 'Exit codes: 0']) expect(run.stdout).toContain(text);
  });
});

describe('relay review (built CLI)', () => {
  it('runs codex\'s native review against the detected base and prints the answer', async () => {
    const log = agentLog();
    const repo = gitRepo({ 'a.txt': 'one\n' });
    gitIn(repo, 'switch', '-q', '-c', 'topic');
    writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\n');
    gitIn(repo, 'commit', '-qam', 'topic');
    const run = await relay(['review'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(run).toMatchObject({ exitCode: 0, stdout: 'codex answer to: review against main' });
    expect(log.only().argv.slice(0, 4)).toEqual(['exec', 'review', '--base', 'main']);
  });

  it('on master, the only branch, reviews the last commit; with nothing before HEAD it says so, exits 1 and sends nothing', async () => {
    const log = agentLog();
    const repo = gitRepo({ 'a.txt': 'one\n' });
    gitIn(repo, 'branch', '-m', 'main', 'master');
    const nothing = await relay(['review'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(nothing.exitCode).toBe(1);
    expect(nothing.stderr).toContain('Nothing to review');
    expect(log.calls()).toEqual([]);
    writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\n');
    gitIn(repo, 'commit', '-qam', 'second');
    const run = await relay(['review'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(run).toMatchObject({ exitCode: 0, stdout: 'codex answer to: review against HEAD~1' });
    expect(log.only().argv.slice(0, 4)).toEqual(['exec', 'review', '--base', 'HEAD~1']);
  });

  it('says so and exits 1 when HEAD has no changes since the base, on the native path too', async () => {
    const log = agentLog();
    const repo = gitRepo({ 'a.txt': 'one\n' });
    gitIn(repo, 'switch', '-q', '-c', 'topic');
    for (const backend of ['codex', 'gemini']) {
      const run = await relay(['review', '--base', 'main', '--backend', backend, '--json'], { cwd: repo, env: fakeAgentEnv(log) });
      expect(run.exitCode).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({ ok: false, error: { code: 'NOTHING_TO_REVIEW', message: expect.stringContaining('HEAD has no changes since main') } });
    }
    expect(log.calls()).toEqual([]);
  });

  it('sends the diff against --base with --prompt to other backends, and --json tells the mode', async () => {
    const log = agentLog();
    const repo = gitRepo({ 'a.txt': 'one\n' });
    gitIn(repo, 'switch', '-q', '-c', 'topic');
    writeFileSync(path.join(repo, 'a.txt'), 'one\nthree\n');
    gitIn(repo, 'commit', '-qam', 'topic');
    const run = await relay(['review', '--base', 'main', '--backend', 'claude', '--prompt', 'Any risks?', '--json'], { cwd: repo, env: fakeAgentEnv(log) });
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, backend: 'claude', base: 'main', mode: 'diff', answer: 'claude answer to: Any risks?' });
    expect(lastArg(log.only())).toContain('Request:\nAny risks?\n\nGit Diff:\ndiff --git a/a.txt b/a.txt');
  });

  it('exits 2 for a --base that does not exist, on the native codex path as on the diff path, sending nothing', async () => {
    const log = agentLog();
    for (const backend of ['codex', 'gemini']) {
      const run = await relay(['review', '--base', 'ghost', '--backend', backend], { cwd: gitRepo(), env: fakeAgentEnv(log) });
      expect(run.exitCode).toBe(2);
      expect(run.stderr).toContain('The base ghost is not a branch or commit of');
    }
    expect(log.calls()).toEqual([]);
  });
});
