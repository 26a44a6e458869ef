import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../../src/engine/relay/envelope.js';
import { relay, type Backend, type RelayEvent, type RelayOptions } from '../../../src/engine/relay/index.js';
import { agentLog, fakeAgentEnv, FAKE_AGENTS_DIR, lastArg, type AgentLog } from '../../helpers/fake-agents.js';
import { fails, succeeds } from '../../helpers/result.js';
import { gitIn, gitRepo, tempDir } from '../../helpers/temp.js';
import { alive, ended, pidWrittenTo } from '../../helpers/processes.js';

/** Runs relay() against the fake agents with a fully controlled environment. */
function ask(log: AgentLog, options: Partial<RelayOptions> & { extraEnv?: Record<string, string> } = {}) {
  const { extraEnv, ...rest } = options;
  return relay({ prompt: 'What is wrong with this?', repoPath: options.repoPath ?? gitRepo({ 'a.txt': 'one\n' }), env: fakeAgentEnv(log, extraEnv), ...rest });
}

/** The envelope size for a given request with no context or diff, minus the request itself. */
function envelopeOverhead(repoPath: string): number {
  return Buffer.byteLength(buildPrompt({ prompt: 'x', repoPath, contextText: '', diffText: '' })) - 1;
}

describe('relay()', () => {
  describe('validation, in the spec\'s order, before anything is sent', () => {
    it.each([
      ['a blank prompt', { prompt: '   ' }, 'PROMPT_REQUIRED', 'Prompt is required'],
      ['an empty prompt', { prompt: '' }, 'PROMPT_REQUIRED', 'Prompt is required'],
      ['a zero timeout', { timeoutSeconds: 0 }, 'INVALID_TIMEOUT', 'Timeout must be greater than zero'],
      ['a negative timeout', { timeoutSeconds: -5 }, 'INVALID_TIMEOUT', 'Timeout must be greater than zero'],
      ['a NaN timeout', { timeoutSeconds: Number.NaN }, 'INVALID_TIMEOUT', 'Timeout must be greater than zero'],
      ['an unknown backend', { backend: 'copilot' }, 'UNSUPPORTED_BACKEND', 'Unsupported relay backend: copilot. Supported: claude, codex, gemini, ollama'],
      ['an unknown sandbox', { sandbox: 'yolo' }, 'INVALID_SANDBOX', 'Invalid sandbox mode: yolo. Allowed values: danger-full-access, read-only, workspace-write'],
      ['a sandbox the backend cannot honour', { backend: 'ollama', sandbox: 'workspace-write' }, 'INVALID_SANDBOX', 'Invalid sandbox mode: workspace-write. Allowed values: read-only'],
      ['context from both a file and text', { contextFile: '/does/not/exist', contextText: 'also this' }, 'CONTEXT_CONFLICT', 'Use either a context file or context text, not both'],
    ] as const)('refuses %s', async (_name, options, code, message) => {
      const log = agentLog();
      const error = await fails(ask(log, options as Partial<RelayOptions>));
      expect(error.code).toBe(code);
      expect(error.message).toBe(message);
      expect(log.calls()).toEqual([]);
    });

    it('refuses a repository path that is missing or not a folder, naming the absolute path', async () => {
      const log = agentLog();
      const file = path.join(tempDir(), 'file.txt');
      writeFileSync(file, 'x');
      for (const repoPath of [path.join(tempDir(), 'missing'), file]) {
        const error = await fails(ask(log, { repoPath }));
        expect(error.code).toBe('INVALID_REPO');
        expect(error.message).toBe(`Repository path does not exist or is not a directory: ${repoPath}`);
      }
      expect(log.calls()).toEqual([]);
    });

    it('reports the first failing check when several fail', async () => {
      const log = agentLog();
      const missing = path.join(tempDir(), 'missing');
      const everything = { prompt: ' ', timeoutSeconds: 0, repoPath: missing, backend: 'nope', sandbox: 'nope', contextFile: '/x', contextText: 'y' };
      expect((await fails(ask(log, everything))).code).toBe('PROMPT_REQUIRED');
      expect((await fails(ask(log, { ...everything, prompt: 'q' }))).code).toBe('INVALID_TIMEOUT');
      expect((await fails(ask(log, { ...everything, prompt: 'q', timeoutSeconds: 1 }))).code).toBe('INVALID_REPO');
      expect((await fails(ask(log, { ...everything, prompt: 'q', timeoutSeconds: 1, repoPath: tempDir() }))).code).toBe('UNSUPPORTED_BACKEND');
      expect((await fails(ask(log, { ...everything, prompt: 'q', timeoutSeconds: 1, repoPath: tempDir(), backend: 'codex' }))).code).toBe('INVALID_SANDBOX');
      expect((await fails(ask(log, { ...everything, prompt: 'q', timeoutSeconds: 1, repoPath: tempDir(), backend: 'codex', sandbox: 'read-only' }))).code).toBe('CONTEXT_CONFLICT');
      expect(log.calls()).toEqual([]);
    });
  });

  describe('context', () => {
    it('sends a context file\'s trimmed text (relative paths resolve against the repo)', async () => {
      const log = agentLog();
      const repoPath = gitRepo({ 'notes.md': '\n  The cache is shared.  \n\n' });
      await succeeds(ask(log, { repoPath, contextFile: 'notes.md' }));
      expect(lastArg(log.only())).toContain('\n\nAdditional Context:\nThe cache is shared.');
    });

    it('sends context text trimmed', async () => {
      const log = agentLog();
      await succeeds(ask(log, { contextText: '  inline context \n' }));
      expect(lastArg(log.only()).endsWith('Request:\nWhat is wrong with this?\n\nAdditional Context:\ninline context')).toBe(true);
    });

    it('refuses a missing context file and a folder', async () => {
      const log = agentLog();
      const repoPath = gitRepo();
      mkdirSync(path.join(repoPath, 'docs'));
      expect((await fails(ask(log, { repoPath, contextFile: 'nope.md' }))).message).toBe(`Context file does not exist: ${path.join(repoPath, 'nope.md')}`);
      expect((await fails(ask(log, { repoPath, contextFile: 'docs' }))).message).toBe(`Context path is not a file: ${path.join(repoPath, 'docs')}`);
      expect(log.calls()).toEqual([]);
    });
  });

  describe('size limits at the boundary', () => {
    it('accepts a context file of exactly 200000 bytes and refuses 200001', async () => {
      const log = agentLog();
      const repoPath = gitRepo();
      const exact = `${'é'.repeat(50_000)}${'x'.repeat(100_000)}`; // 100000 + 100000 bytes
      writeFileSync(path.join(repoPath, 'ctx.txt'), exact);
      await succeeds(ask(log, { repoPath, contextFile: 'ctx.txt' }));
      expect(log.only().stdin).toContain(exact);
      writeFileSync(path.join(repoPath, 'ctx.txt'), `${exact}y`);
      const error = await fails(ask(log, { repoPath, contextFile: 'ctx.txt' }));
      expect(error.message).toBe('Context file is too large (200001 bytes; max 200000 bytes)');
      expect(log.calls()).toHaveLength(1);
    });

    it('accepts context text of exactly 200000 bytes and refuses 200001', async () => {
      const log = agentLog();
      await succeeds(ask(log, { contextText: '✓'.repeat(66_666) + 'xx' }));
      const error = await fails(ask(log, { contextText: '✓'.repeat(66_667) }));
      expect(error.message).toBe('Context text is too large (200001 bytes; max 200000 bytes)');
      expect(log.calls()).toHaveLength(1);
    });

    it('accepts a diff of exactly 300000 bytes and refuses 300001', async () => {
      const log = agentLog();
      const repoPath = gitRepo({ 'big.txt': '' });
      const diffSize = (length: number): number => {
        writeFileSync(path.join(repoPath, 'big.txt'), 'a'.repeat(length));
        return Buffer.byteLength(gitIn(repoPath, 'diff', 'HEAD', '--').trim());
      };
      const overhead = diffSize(1000) - 1000;
      expect(diffSize(300_000 - overhead)).toBe(300_000);
      const result = await succeeds(ask(log, { repoPath, includeDiff: true }));
      expect(result.diffBytes).toBe(300_000);
      expect(log.only().stdin).toContain('\n\nGit Diff:\ndiff --git a/big.txt b/big.txt');
      expect(diffSize(300_001 - overhead)).toBe(300_001);
      const error = await fails(ask(log, { repoPath, includeDiff: true }));
      expect(error.message).toBe('Git diff is too large (300001 bytes; max 300000 bytes)');
      expect(log.calls()).toHaveLength(1);
    });

    it('accepts a prompt envelope of exactly 500000 bytes (sent on stdin) and refuses 500001', async () => {
      const log = agentLog();
      const repoPath = gitRepo();
      const request = 'q'.repeat(500_000 - envelopeOverhead(repoPath));
      const result = await succeeds(ask(log, { repoPath, prompt: request }));
      expect(result.promptBytes).toBe(500_000);
      const call = log.only();
      expect(lastArg(call)).toBe('-');
      expect(call.stdin).toBe(buildPrompt({ prompt: request, repoPath, contextText: '', diffText: '' }));
      const error = await fails(ask(log, { repoPath, prompt: `${request}q` }));
      expect(error.message).toBe('Relay prompt is too large (500001 bytes; max 500000 bytes)');
      expect(log.calls()).toHaveLength(1);
    });
  });

  describe('the diff', () => {
    it('sends uncommitted changes against HEAD', async () => {
      const log = agentLog();
      const repoPath = gitRepo({ 'a.txt': 'one\n' });
      writeFileSync(path.join(repoPath, 'a.txt'), 'one\ntwo\n');
      await succeeds(ask(log, { repoPath, includeDiff: true }));
      expect(lastArg(log.only())).toContain('\n\nGit Diff:\ndiff --git a/a.txt b/a.txt\nindex');
      expect(lastArg(log.only()).endsWith(' one\n+two')).toBe(true);
    });

    it('falls back to the last commit when the tree is clean', async () => {
      const log = agentLog();
      const repoPath = gitRepo({ 'a.txt': 'one\n' });
      writeFileSync(path.join(repoPath, 'b.txt'), 'new file\n');
      gitIn(repoPath, 'add', '-A');
      gitIn(repoPath, 'commit', '-qm', 'second');
      await succeeds(ask(log, { repoPath, includeDiff: true }));
      expect(lastArg(log.only())).toContain('Git Diff:\ndiff --git a/b.txt b/b.txt\nnew file mode');
    });

    it('is silently left out when git cannot give one (single commit, or not a repository)', async () => {
      const log = agentLog();
      await succeeds(ask(log, { repoPath: gitRepo({ 'a.txt': 'one\n' }), includeDiff: true }));
      await succeeds(ask(log, { repoPath: tempDir(), includeDiff: true }));
      for (const call of log.calls()) expect(lastArg(call)).not.toContain('Git Diff:');
    });
  });

  describe('depth guard', () => {
    it('refuses when PHONE_A_FRIEND_DEPTH is "1"', async () => {
      const log = agentLog();
      const error = await fails(ask(log, { extraEnv: { PHONE_A_FRIEND_DEPTH: '1' } }));
      expect(error.code).toBe('DEPTH_LIMIT');
      expect(error.message).toBe('Relay depth limit reached; refusing nested relay invocation');
      expect(log.calls()).toEqual([]);
    });

    it.each([['0'], ['1abc'], [undefined]])('with %j runs the backend at depth 1', async (raw) => {
      const log = agentLog();
      const env = fakeAgentEnv(log);
      if (raw === undefined) delete env.PHONE_A_FRIEND_DEPTH;
      else env.PHONE_A_FRIEND_DEPTH = raw;
      await succeeds(relay({ prompt: 'q', repoPath: gitRepo(), env }));
      expect(log.only().env.PHONE_A_FRIEND_DEPTH).toBe('1');
    });
  });

  describe('what each backend receives', () => {
    const secrets = {
      OPENAI_API_KEY: 'sk-openai-0123456789',
      GEMINI_API_KEY: 'gem-key-0123456789',
      ANTHROPIC_API_KEY: 'ant-key-0123456789',
      GITHUB_TOKEN: 'ghp_github0123456789',
      AWS_SECRET_ACCESS_KEY: 'aws-secret-0123456789',
      CLAUDECODE: '1',
      SOME_SETTING: 'not on the allow-list',
      LANG: 'C.UTF-8',
    };

    it('codex: exec with -C and -s, the envelope byte for byte as the last argument, cwd = repo, stdin closed, only its key', async () => {
      const log = agentLog();
      const repoPath = gitRepo();
      const result = await succeeds(ask(log, { repoPath, prompt: '  Is the retry loop bounded?\n', model: 'gpt-5-codex', sandbox: 'workspace-write', extraEnv: secrets }));
      const call = log.only();
      expect(call.argv.slice(0, 8)).toEqual(['exec', '-C', repoPath, '-s', 'workspace-write', '--skip-git-repo-check', '--ephemeral', '--json']);
      expect(call.argv.slice(10, 12)).toEqual(['-m', 'gpt-5-codex']);
      expect(lastArg(call)).toBe(
        'You are helping another coding agent by reviewing or advising on work in a local repository.\n' +
          `Repository path: ${repoPath}\n` +
          'Use the repository files for context when needed.\n' +
          'Respond with concise, actionable feedback.\n' +
          '\n' +
          'Request:\n' +
          'Is the retry loop bounded?',
      );
      expect(call.cwd).toBe(repoPath);
      expect(call.stdin).toBe('');
      expect(call.env.OPENAI_API_KEY).toBe(secrets.OPENAI_API_KEY);
      for (const gone of ['GEMINI_API_KEY', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY']) expect(call.env[gone]).toBeUndefined();
      // An allow-list, not a deny-list: locale passes, an unknown variable does not.
      expect(call.env.LANG).toBe('C.UTF-8');
      expect(call.env.SOME_SETTING).toBeUndefined();
      expect(result).toMatchObject({ backend: 'codex', answer: 'codex answer to: Is the retry loop bounded?', sandbox: 'workspace-write', model: 'gpt-5-codex' });
    });

    it('gemini: -o json, the approval mode for the sandbox, -m and -p with the envelope; only its key', async () => {
      const log = agentLog();
      const repoPath = gitRepo();
      const result = await succeeds(ask(log, { repoPath, backend: 'gemini', model: 'gemini-2.5-pro', sandbox: 'danger-full-access', extraEnv: secrets }));
      const call = log.only();
      expect(call.argv).toEqual(['-o', 'json', '--approval-mode', 'yolo', '-m', 'gemini-2.5-pro', '-p', buildPrompt({ prompt: 'What is wrong with this?', repoPath, contextText: '', diffText: '' })]);
      expect(call.cwd).toBe(repoPath);
      expect(call.env.GEMINI_API_KEY).toBe(secrets.GEMINI_API_KEY);
      expect(call.env.OPENAI_API_KEY).toBeUndefined();
      expect(call.env.GITHUB_TOKEN).toBeUndefined();
      expect(result.answer).toBe('gemini answer to: What is wrong with this?');
    });

    it('claude: -p --output-format json with the permission mode and the envelope last; only its key, not CLAUDECODE', async () => {
      const log = agentLog();
      const repoPath = gitRepo();
      const result = await succeeds(ask(log, { repoPath, backend: 'claude', model: 'opus', extraEnv: secrets }));
      const call = log.only();
      expect(call.argv.slice(0, -1)).toEqual(['-p', '--output-format', 'json', '--permission-mode', 'plan', '--no-session-persistence', '--model', 'opus']);
      expect(lastArg(call)).toBe(buildPrompt({ prompt: 'What is wrong with this?', repoPath, contextText: '', diffText: '' }));
      expect(call.env.ANTHROPIC_API_KEY).toBe(secrets.ANTHROPIC_API_KEY);
      expect(call.env.CLAUDECODE).toBeUndefined();
      expect(call.env.OPENAI_API_KEY).toBeUndefined();
      expect(result.answer).toBe('claude answer to: What is wrong with this?');
    });

    it('passes a prompt too big for argv on stdin to gemini and claude too', async () => {
      const log = agentLog();
      const repoPath = gitRepo();
      const request = 'r'.repeat(150_000);
      const envelope = buildPrompt({ prompt: request, repoPath, contextText: '', diffText: '' });
      await succeeds(ask(log, { repoPath, backend: 'gemini', prompt: request }));
      await succeeds(ask(log, { repoPath, backend: 'claude', prompt: request }));
      const [gemini, claude] = log.calls();
      expect(gemini!.stdin).toBe(envelope);
      expect(gemini!.argv.at(-1)).toBe('Answer the request above.');
      expect(claude!.stdin).toBe(envelope);
      expect(claude!.argv).not.toContain(envelope);
    });

    it('reports codex progress as events while it works', async () => {
      const log = agentLog();
      const events: RelayEvent[] = [];
      await succeeds(ask(log, { onEvent: (e) => events.push(e) }));
      expect(events).toEqual([
        { type: 'progress', text: '**Looking at the repository**' },
        { type: 'progress', text: '$ bash -lc ls' },
      ]);
    });
  });

  describe('backend failures', () => {
    it('wraps a codex failure as BACKEND_FAILED that keeps the backend and its code as cause', async () => {
      const log = agentLog();
      const error = await fails(ask(log, { extraEnv: { FAKE_AGENT_MODE: 'error' } }));
      expect(error.code).toBe('BACKEND_FAILED');
      expect(error.cause).toEqual({ backend: 'codex', code: 'EXIT_CODE' });
      expect(error.message).toBe('codex exec exited with code 1: unexpected status 401 Unauthorized: Missing bearer or basic authentication in header');
    });

    it('reports a codex crash and an empty answer', async () => {
      const log = agentLog();
      expect((await fails(ask(log, { extraEnv: { FAKE_AGENT_MODE: 'crash' } }))).message).toBe('codex exec exited with code 101: thread main panicked at codex-rs/exec/src/lib.rs: boom');
      expect((await fails(ask(log, { extraEnv: { FAKE_AGENT_MODE: 'empty' } }))).message).toBe('codex exec completed without producing an answer');
    });

    it('never repeats the caller\'s secrets in a message', async () => {
      const log = agentLog();
      const error = await fails(ask(log, { extraEnv: { FAKE_AGENT_MODE: 'leak', OPENAI_API_KEY: 'sk-very-secret-0123456789' } }));
      expect(error.message).toBe('codex exec exited with code 1: ERROR: key [secret withheld: openai-api-key] was rejected');
    });

    it.each([
      ['auth', 'gemini is not signed in (exit 41): run `gemini` once to sign in, or set GEMINI_API_KEY: Please set an Auth method in your settings.json or specify GEMINI_API_KEY'],
      ['bad-input', 'gemini rejected its input (exit 42): No input provided via stdin. Input can be provided by piping data into gemini or using the --prompt option.'],
      ['turn-limit', 'gemini reached its turn limit (exit 53): Reached max session turns for this session.'],
      ['error', 'gemini exited with code 1: [API Error: got status: 503 Service Unavailable]'],
      ['garbage', 'gemini printed no JSON answer: Loaded cached credentials.\nthis is not json'],
      ['empty', 'gemini completed without producing an answer'],
    ])('reports gemini in mode %s', async (mode, message) => {
      const log = agentLog();
      const error = await fails(ask(log, { backend: 'gemini', extraEnv: { FAKE_AGENT_MODE: mode } }));
      expect(error.cause?.backend).toBe('gemini');
      expect(error.message).toBe(message);
    });

    it.each([
      ['error', 'claude reported an error: Invalid API key · Please run /login'],
      ['api-error', 'claude reported an error: API Error: 529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}} (API status 529)'],
      ['garbage', 'claude exited with code 1 without a JSON result: not json at all'],
      ['empty', 'claude completed without producing an answer'],
    ])('reports claude in mode %s (judged by is_error, whatever the exit code)', async (mode, message) => {
      const log = agentLog();
      const error = await fails(ask(log, { backend: 'claude', extraEnv: { FAKE_AGENT_MODE: mode } }));
      expect(error.cause?.backend).toBe('claude');
      expect(error.message).toBe(message);
    });

    it('explains claude\'s refusal of danger-full-access as root', async () => {
      const log = agentLog();
      const error = await fails(ask(log, { backend: 'claude', sandbox: 'danger-full-access', extraEnv: { FAKE_AGENT_AS_ROOT: '1' } }));
      expect(error.message).toContain('claude refuses danger-full-access (bypassPermissions) when run as root');
    });

    it('says how to install or configure a CLI that is not on PATH, and uses RELAY_<NAME>_BIN when set', async () => {
      const log = agentLog();
      const emptyPath = { PATH: [tempDir(), path.dirname(process.execPath)].join(path.delimiter) };
      const error = await fails(ask(log, { backend: 'gemini', extraEnv: emptyPath }));
      expect(error.cause?.code).toBe('NOT_FOUND');
      expect(error.message).toBe('gemini CLI not found on PATH. Install it (npm install -g @google/gemini-cli) or set RELAY_GEMINI_BIN to its absolute path.');
      const result = await succeeds(ask(log, { backend: 'gemini', extraEnv: { ...emptyPath, RELAY_GEMINI_BIN: path.join(FAKE_AGENTS_DIR, 'gemini') } }));
      expect(result.answer).toContain('gemini answer');
    });

    it('gives up after the timeout and kills the agent', async () => {
      const log = agentLog();
      const pidfile = path.join(tempDir(), 'pid');
      const error = await fails(ask(log, { timeoutSeconds: 0.5, extraEnv: { FAKE_AGENT_MODE: 'hang', FAKE_AGENT_PIDFILE: pidfile } }));
      expect(error.message).toBe('codex timed out after 0.5 seconds');
      expect(error.cause?.code).toBe('TIMEOUT');
      const pid = Number(readFileSync(pidfile, 'utf8'));
      await ended(pid);
    });

    it('lets a backend that throws (a bug) throw, untouched: only expected failures are values', async () => {
      const bug = new TypeError('backend bug');
      const broken: Backend = { name: 'codex', capabilities: { transport: 'cli', sandboxes: ['read-only'], nativeReview: null, streaming: 'none' }, run: () => Promise.reject(bug) };
      await expect(relay({ prompt: 'q', repoPath: tempDir(), env: {}, backends: { broken } , backend: 'broken' })).rejects.toBe(bug);
    });
  });

  describe('cancellation', () => {
    it('kills the agent process when the signal aborts', async () => {
      const log = agentLog();
      const pidfile = path.join(tempDir(), 'pid');
      const controller = new AbortController();
      const running = ask(log, { signal: controller.signal, extraEnv: { FAKE_AGENT_MODE: 'hang', FAKE_AGENT_PIDFILE: pidfile } });
      const pid = await pidWrittenTo(pidfile);
      expect(alive(pid)).toBe(true);
      controller.abort();
      const error = await fails(running);
      expect(error.code).toBe('CANCELLED');
      expect(error.message).toBe('codex was cancelled');
      await ended(pid);
    });

    it('starts nothing when already cancelled', async () => {
      const log = agentLog();
      const controller = new AbortController();
      controller.abort();
      expect((await fails(ask(log, { signal: controller.signal }))).code).toBe('CANCELLED');
      expect(log.calls()).toEqual([]);
    });
  });
});
