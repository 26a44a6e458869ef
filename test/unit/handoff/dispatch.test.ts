import { describe, expect, it } from 'vitest';
import { resolveDestination, type HandoffConfig } from '../../../src/engine/handoff/config.js';
import { agentEnv, buildClaudeChatArgv, buildCodexChatArgv, CLAUDE_FIRST_TURN, HANDOFF_PREAMBLE, MAX_ARG_BYTES, planDispatch, runDispatch, type AgentSpawner } from '../../../src/engine/handoff/dispatch.js';

const BRIEF = '# Handoff brief: demo\n\n**Schema version:** 1\n';
const NO_CONFIG: HandoffConfig = { profiles: {}, budgets: {} };

describe('dispatch', () => {
  describe('buildCodexChatArgv()', () => {
    it('uses exec, -C and --sandbox with the brief as the positional first turn, and no orchestration flags', () => {
      const argv = buildCodexChatArgv(BRIEF, { cwd: '/work/p' });
      expect(argv.slice(0, 5)).toEqual(['exec', '-C', '/work/p', '--sandbox', 'workspace-write']);
      expect(argv.at(-1)).toBe(`${HANDOFF_PREAMBLE}\n\n${BRIEF}`);
      for (const flag of ['--output-schema', '-o', '--output-last-message', '--ask-for-approval', '-a', '--full-auto']) expect(argv).not.toContain(flag);
    });

    it('takes a sandbox mode and extra args after exec', () => {
      expect(buildCodexChatArgv(BRIEF, { cwd: '/p', sandbox: 'read-only', extraArgs: ['-m', 'gpt-5'] }).slice(0, 7)).toEqual(['exec', '-C', '/p', '--sandbox', 'read-only', '-m', 'gpt-5']);
    });
  });

  describe('buildClaudeChatArgv()', () => {
    it('appends the brief to the system prompt and sends a first turn', () => {
      expect(buildClaudeChatArgv(BRIEF, { extraArgs: ['--model', 'opus'] })).toEqual(['--model', 'opus', '--append-system-prompt', `${HANDOFF_PREAMBLE}\n\n${BRIEF}`, CLAUDE_FIRST_TURN]);
    });
  });

  describe('agentEnv()', () => {
    const parent = { PATH: '/bin', HOME: '/h', GITHUB_TOKEN: 'g', AWS_SECRET_ACCESS_KEY: 'a', NPM_TOKEN: 'n', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'c', CLAUDE_CODE_OAUTH_TOKEN: 't', MY_PASSWORD: 'p', SSH_AUTH_SOCK: '/s', UNSET: undefined };

    it("passes the allow-list and only the adapter's own credentials (not the SSH agent: RELAY_PASS_ENV=SSH_AUTH_SOCK adds it)", () => {
      expect(agentEnv(parent, 'codex')).toEqual({ PATH: '/bin', HOME: '/h', OPENAI_API_KEY: 'o' });
      expect(agentEnv(parent, 'claude')).toEqual({ PATH: '/bin', HOME: '/h', ANTHROPIC_API_KEY: 'c', CLAUDE_CODE_OAUTH_TOKEN: 't' });
      expect(agentEnv({ ...parent, RELAY_PASS_ENV: 'SSH_AUTH_SOCK' }, 'codex')).toMatchObject({ SSH_AUTH_SOCK: '/s' });
    });

    it('passes the variables a profile names', () => {
      expect(agentEnv(parent, 'codex', ['GITHUB_TOKEN'])).toMatchObject({ GITHUB_TOKEN: 'g' });
    });
  });

  describe('resolveDestination()', () => {
    const config: HandoffConfig = {
      profiles: { opus: { adapter: 'claude', command: '/opt/claude', args: ['--model', 'opus'], passEnv: [] }, claude: { adapter: 'claude', command: 'my-claude', args: [], passEnv: [] } },
      budgets: {},
    };

    it('resolves a profile first, then an adapter name; a built-in name is always the built-in agent', () => {
      expect(resolveDestination('opus', config)).toMatchObject({ ok: true, value: { via: 'profile', adapter: 'claude', command: '/opt/claude', args: ['--model', 'opus'] } });
      // A repository's relay.handoff.json must not swap its own program in for `claude` (issue 12 item 4).
      expect(resolveDestination('claude', config)).toMatchObject({ ok: true, value: { via: 'adapter', command: 'claude' } });
      expect(resolveDestination('codex', config)).toMatchObject({ ok: true, value: { via: 'adapter', adapter: 'codex', command: 'codex', sandbox: 'workspace-write' } });
    });

    it('names the choices for an unknown destination', () => {
      const r = resolveDestination('gemini', config);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('UNKNOWN_DESTINATION');
        expect(r.error.message).toContain('Use one of: claude, opus, codex.');
      }
      expect(resolveDestination('__proto__', NO_CONFIG).ok).toBe(false);
    });
  });

  describe('planDispatch() and runDispatch()', () => {
    const codex = resolveDestination('codex', NO_CONFIG);
    if (!codex.ok) throw new Error('codex must resolve');

    it('closes stdin for Codex and keeps it for interactive Claude', () => {
      const claude = resolveDestination('claude', NO_CONFIG);
      if (!claude.ok) throw new Error('claude must resolve');
      expect(planDispatch(codex.value, BRIEF, { cwd: '/p', env: {} })).toMatchObject({ ok: true, value: { command: 'codex', stdin: 'ignore', cwd: '/p' } });
      expect(planDispatch(claude.value, BRIEF, { cwd: '/p', env: {} })).toMatchObject({ ok: true, value: { command: 'claude', stdin: 'inherit' } });
    });

    it('refuses a brief too large for one argument before starting anything', () => {
      const r = planDispatch(codex.value, 'x'.repeat(MAX_ARG_BYTES + 1), { cwd: '/p', env: {} });
      expect(r).toMatchObject({ ok: false, error: { code: 'DISPATCH_ARG_TOO_LARGE' } });
    });

    it('maps how the agent ended to a result', async () => {
      const plan = planDispatch(codex.value, BRIEF, { cwd: '/p', env: {} });
      if (!plan.ok) throw new Error('plan');
      const spawner = (outcome: Awaited<ReturnType<AgentSpawner['run']>>): AgentSpawner => ({ run: async () => outcome });
      expect(await runDispatch(plan.value, spawner({ status: 'exited', exitCode: 0 }))).toEqual({ ok: true, value: { exitCode: 0 } });
      expect(await runDispatch(plan.value, spawner({ status: 'exited', exitCode: 3 }))).toMatchObject({ ok: false, error: { code: 'AGENT_FAILED' } });
      expect(await runDispatch(plan.value, spawner({ status: 'not-found' }))).toMatchObject({ ok: false, error: { code: 'AGENT_NOT_FOUND' } });
      expect(await runDispatch(plan.value, spawner({ status: 'signalled', signal: 'SIGTERM' }))).toMatchObject({ ok: false, error: { code: 'AGENT_FAILED' } });
    });
  });
});
