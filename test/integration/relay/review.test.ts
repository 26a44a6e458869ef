import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPrompt } from '../../../src/engine/relay/envelope.js';
import { reviewRelay, type Backend, type RelayEvent, type ReviewRelayOptions } from '../../../src/engine/relay/index.js';
import { agentLog, fakeAgentEnv, lastArg, type AgentLog } from '../../helpers/fake-agents.js';
import { fails, succeeds } from '../../helpers/result.js';
import { gitIn, gitRepo, tempDir } from '../../helpers/temp.js';
import { pidWrittenTo } from '../../helpers/processes.js';

/** A repo on main with a feature branch checked out that changed a.txt in one commit. */
function featureRepo(): string {
  const repoPath = gitRepo({ 'a.txt': 'one\n' });
  gitIn(repoPath, 'switch', '-q', '-c', 'feature');
  writeFileSync(path.join(repoPath, 'a.txt'), 'one\ntwo\n');
  gitIn(repoPath, 'commit', '-qam', 'feature work');
  return repoPath;
}

function review(log: AgentLog, options: Partial<ReviewRelayOptions> & { extraEnv?: Record<string, string> } = {}) {
  const { extraEnv, ...rest } = options;
  return reviewRelay({ repoPath: options.repoPath ?? featureRepo(), env: fakeAgentEnv(log, extraEnv), ...rest });
}

const featureDiff = (repoPath: string): string => gitIn(repoPath, 'diff', 'main...HEAD', '--').trim();

describe('reviewRelay()', () => {
  describe('native review (codex)', () => {
    it('runs `codex exec review --base <main>` in the repo, with no -C, --sandbox or prompt', async () => {
      const log = agentLog();
      const repoPath = featureRepo();
      const result = await succeeds(review(log, { repoPath }));
      const call = log.only();
      expect(call.argv.slice(0, 6)).toEqual(['exec', 'review', '--base', 'main', '--json', '-o']);
      expect(call.argv).toHaveLength(7);
      expect(call.cwd).toBe(repoPath);
      expect(call.stdin).toBe('');
      expect(call.env.PHONE_A_FRIEND_DEPTH).toBe('1');
      expect(result).toMatchObject({ backend: 'codex', base: 'main', mode: 'native', fallbackReason: null, answer: 'codex answer to: review against main' });
    });

    it('uses the diff path when the request has something the native review cannot take', async () => {
      const log = agentLog();
      const repoPath = featureRepo();
      await succeeds(review(log, { repoPath, prompt: 'Focus on error handling.' }));
      await succeeds(review(log, { repoPath, model: 'gpt-5' }));
      await succeeds(review(log, { repoPath, sandbox: 'workspace-write' }));
      const calls = log.calls();
      expect(calls.map((c) => c.argv.slice(0, 2))).toEqual([['exec', '-C'], ['exec', '-C'], ['exec', '-C']]);
      expect(lastArg(calls[0]!)).toBe(buildPrompt({ prompt: 'Focus on error handling.', repoPath, contextText: '', diffText: featureDiff(repoPath) }));
      expect(calls[1]!.argv).toContain('gpt-5');
      expect(calls[2]!.argv.slice(3, 5)).toEqual(['-s', 'workspace-write']);
    });

    it('falls back to the diff path with a warning when the native review fails', async () => {
      const log = agentLog();
      const repoPath = featureRepo();
      const events: RelayEvent[] = [];
      const result = await succeeds(review(log, { repoPath, extraEnv: { FAKE_AGENT_MODE: 'review-fail' }, onEvent: (e) => events.push(e) }));
      const [native, generic] = log.calls();
      expect(native!.argv.slice(0, 2)).toEqual(['exec', 'review']);
      expect(generic!.argv[0]).toBe('exec');
      expect(lastArg(generic!)).toBe(buildPrompt({ prompt: 'Review the following changes.', repoPath, contextText: '', diffText: featureDiff(repoPath) }));
      expect(result.mode).toBe('diff');
      expect(result.fallbackReason).toContain('401 Unauthorized');
      expect(events.filter((e) => e.type === 'warning')).toEqual([{ type: 'warning', text: expect.stringContaining("codex's own review failed, reviewing the diff instead") }]);
    });

    it('does not fall back when the native review was cancelled', async () => {
      const log = agentLog();
      const pidfile = path.join(tempDir(), 'pid');
      const controller = new AbortController();
      const running = review(log, { signal: controller.signal, extraEnv: { FAKE_AGENT_MODE: 'hang', FAKE_AGENT_PIDFILE: pidfile } });
      await pidWrittenTo(pidfile);
      controller.abort();
      expect((await fails(running)).code).toBe('CANCELLED');
      expect(log.calls()).toHaveLength(1);
    });

    it('lets a native review that throws (a bug) throw, without falling back to a second run', async () => {
      const refusal = new TypeError('bug inside review');
      let runs = 0;
      const backend: Backend = {
        name: 'codex',
        capabilities: { transport: 'cli', sandboxes: ['read-only'], nativeReview: { sandboxes: ['read-only'], model: false, prompt: false }, streaming: 'none' },
        run: async () => {
          runs += 1;
          return { ok: true, value: { text: 'generic' } };
        },
        review: () => Promise.reject(refusal),
      };
      await expect(reviewRelay({ repoPath: featureRepo(), env: {}, backends: { custom: backend }, backend: 'custom' })).rejects.toBe(refusal);
      expect(runs).toBe(0);
    });
  });

  describe('diff path', () => {
    it('sends the default review request with `git diff base...HEAD` to a backend without native review', async () => {
      const log = agentLog();
      const repoPath = featureRepo();
      const result = await succeeds(review(log, { repoPath, backend: 'gemini' }));
      const diff = featureDiff(repoPath);
      expect(diff).toContain('+two');
      expect(log.only().argv.at(-1)).toBe(buildPrompt({ prompt: 'Review the following changes.', repoPath, contextText: '', diffText: diff }));
      expect(result).toMatchObject({ mode: 'diff', base: 'main', diffBytes: Buffer.byteLength(diff) });
    });

    it('detects master when there is no main, and HEAD~1 when there is neither', async () => {
      const log = agentLog();
      const offMaster = featureRepo();
      gitIn(offMaster, 'branch', '-m', 'main', 'master');
      expect((await succeeds(review(log, { repoPath: offMaster, backend: 'gemini' }))).base).toBe('master');
      const onTrunk = gitRepo({ 'a.txt': 'one\n' });
      gitIn(onTrunk, 'branch', '-m', 'main', 'trunk');
      writeFileSync(path.join(onTrunk, 'a.txt'), 'one\nmore\n');
      gitIn(onTrunk, 'commit', '-qam', 'second');
      const result = await succeeds(review(log, { repoPath: onTrunk, backend: 'claude' }));
      expect(result.base).toBe('HEAD~1');
      expect(lastArg(log.calls()[1]!)).toContain('+more');
    });

    it('on master, the only branch, reviews the last commit instead of an empty diff', async () => {
      const log = agentLog();
      const onMaster = gitRepo({ 'a.txt': 'one\n' });
      gitIn(onMaster, 'branch', '-m', 'main', 'master');
      writeFileSync(path.join(onMaster, 'a.txt'), 'one\nlast\n');
      gitIn(onMaster, 'commit', '-qam', 'last');
      const result = await succeeds(review(log, { repoPath: onMaster, backend: 'gemini' }));
      expect(result.base).toBe('HEAD~1');
      expect(lastArg(log.only())).toContain('+last');
    });

    it('refuses a base that does not exist (BASE_NOT_FOUND), and nothing to review (NOTHING_TO_REVIEW), sending nothing', async () => {
      const log = agentLog();
      const error = await fails(review(log, { backend: 'gemini', base: 'no-such-branch' }));
      expect(error.code).toBe('BASE_NOT_FOUND');
      expect(error.message).toMatch(/^The base no-such-branch is not a branch or commit of /);
      const single = gitRepo({ 'a.txt': 'x\n' });
      gitIn(single, 'branch', '-m', 'main', 'trunk');
      const first = await fails(review(log, { repoPath: single, backend: 'gemini' }));
      expect(first.code).toBe('NOTHING_TO_REVIEW');
      const unchanged = await fails(review(log, { repoPath: gitRepo({ 'a.txt': 'one\n' }), backend: 'gemini', base: 'main' }));
      expect(unchanged).toMatchObject({ code: 'NOTHING_TO_REVIEW', message: expect.stringContaining('HEAD has no changes since main') });
      expect(log.calls()).toEqual([]);
    });

    it('refuses a base that looks like an option', async () => {
      const log = agentLog();
      const error = await fails(review(log, { backend: 'gemini', base: '--output=/tmp/pwned' }));
      expect(error.message).toBe('Failed to collect git diff against --output=/tmp/pwned: a base must not start with "-"');
      expect(log.calls()).toEqual([]);
    });

    it('enforces the diff and prompt limits', async () => {
      const log = agentLog();
      const repoPath = featureRepo();
      writeFileSync(path.join(repoPath, 'big.txt'), 'b'.repeat(310_000));
      gitIn(repoPath, 'add', '-A');
      gitIn(repoPath, 'commit', '-qm', 'big');
      expect((await fails(review(log, { repoPath, backend: 'gemini' }))).message).toMatch(/^Git diff is too large \(\d+ bytes; max 300000 bytes\)$/);
      const error = await fails(review(log, { repoPath: featureRepo(), backend: 'gemini', prompt: 'p'.repeat(500_000) }));
      expect(error.message).toMatch(/^Relay prompt is too large \(\d+ bytes; max 500000 bytes\)$/);
      expect(log.calls()).toEqual([]);
    });

    it('wraps a backend failure and re-throws unknown errors raw', async () => {
      const log = agentLog();
      const error = await fails(review(log, { backend: 'gemini', extraEnv: { FAKE_AGENT_MODE: 'auth' } }));
      expect(error.code).toBe('BACKEND_FAILED');
      expect(error.cause).toEqual({ backend: 'gemini', code: 'REPORTED_ERROR' });
      const bug = new RangeError('bug');
      const backend: Backend = { name: 'gemini', capabilities: { transport: 'cli', sandboxes: ['read-only'], nativeReview: null, streaming: 'none' }, run: () => Promise.reject(bug) };
      await expect(reviewRelay({ repoPath: featureRepo(), env: {}, backends: { b: backend }, backend: 'b' })).rejects.toBe(bug);
    });

    it('refuses a branch with no changes against the base instead of sending an empty review', async () => {
      const log = agentLog();
      const repoPath = gitRepo({ 'a.txt': 'one\n' });
      gitIn(repoPath, 'switch', '-q', '-c', 'idle');
      expect((await fails(review(log, { repoPath, backend: 'gemini' }))).code).toBe('NOTHING_TO_REVIEW');
      expect(log.calls()).toEqual([]);
    });
  });

  describe('validation, before anything is sent', () => {
    it.each([
      ['a zero timeout', { timeoutSeconds: 0 }, 'Timeout must be greater than zero'],
      ['an unknown backend', { backend: 'nope' }, 'Unsupported relay backend: nope. Supported: claude, codex, gemini, ollama'],
      ['a sandbox the backend cannot honour', { backend: 'ollama', sandbox: 'danger-full-access' }, 'Invalid sandbox mode: danger-full-access. Allowed values: read-only'],
      ['a nested relay', { extraEnv: { PHONE_A_FRIEND_DEPTH: '1' } }, 'Relay depth limit reached; refusing nested relay invocation'],
    ] as const)('refuses %s', async (_name, options, message) => {
      const log = agentLog();
      expect((await fails(review(log, options as Partial<ReviewRelayOptions>))).message).toBe(message);
      expect(log.calls()).toEqual([]);
    });

    it('refuses a missing repository', async () => {
      const log = agentLog();
      const missing = path.join(tempDir(), 'gone');
      expect((await fails(review(log, { repoPath: missing }))).message).toBe(`Repository path does not exist or is not a directory: ${missing}`);
    });

    it('checks the timeout before the repository', async () => {
      const log = agentLog();
      expect((await fails(review(log, { repoPath: path.join(tempDir(), 'gone'), timeoutSeconds: -1 }))).code).toBe('INVALID_TIMEOUT');
    });
  });
});
