// Attack: the shell Relay Desk runs in holds credentials (a CI runner's job token, a developer's
// GitHub and AWS keys, a database URL, a proxy with a password) and a NODE_OPTIONS that loads
// code. No child may receive any of them: not the agents of ask/review, not `relay handoff --to`,
// not the tick's Claude calls or its verification commands, not the linter or pre/post commands,
// not the terminal or browser Relay Desk opens. Each agent gets its own API key and nobody else's,
// and proxies keep working without their passwords. Every child here is a real program on disk
// that writes down the environment it was given.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDispatchInTerminal, currentRelayInvocation } from '../../src/engine/handoff/terminal.js';
import { defaultRelayConfig, writeRelayConfig } from '../../src/engine/patch/config.js';
import { openInBrowser } from '../../src/engine/proc/index.js';
import { relay as askRelay, reviewRelay, type RelayResult } from '../../src/engine/relay/index.js';
import { relay as relayCli, REPO_ROOT } from '../helpers/cli.js';
import { agentLog, fakeAgentEnv, type AgentLog } from '../helpers/fake-agents.js';
import { FAKE_AGENTS as FAKE_HANDOFF_AGENTS, recordPatch } from '../helpers/handoff.js';
import { answer } from '../helpers/patches.js';
import { succeeds } from '../helpers/result.js';
import { gitIn, gitRepo, tempDir } from '../helpers/temp.js';
import { builderDoes, EDIT_A, makeTask, TickRepo } from '../integration/tick/harness.js';
import { until } from '../helpers/wait.js';

// Secrets are assembled at run time so the repository holds no string a scanner would flag.
const join = (...parts: string[]): string => parts.join('');
const rnd = (n: number, alphabet = 'aZ3kQ9mX7pL2vB8n'): string => Array.from({ length: n }, (_, i) => alphabet[(i * 5 + 1) % alphabet.length]).join('');
const JWT = join('ey', 'JhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'ey', 'JzdWIiOiJwcm9qZWN0X3BhdGg6Z3JvdXAvcHJvamVjdCJ9', '.', rnd(43));
const WEBHOOK = join('https://hooks.', 'slack.com/services/T0AAAAAAA/B0BBBBBBB/', rnd(24));

const dir = tempDir('relay-security-env-');
/** Loaded by NODE_OPTIONS: records which process ran it, so a child that inherited NODE_OPTIONS is caught. */
const EVIL = path.join(dir, 'evil.cjs');
const EVIL_LOG = path.join(dir, 'evil-ran.jsonl');
writeFileSync(EVIL, `require('fs').appendFileSync(${JSON.stringify(EVIL_LOG)}, JSON.stringify({ pid: process.pid, script: process.argv[1] || '' }) + '\\n');\n`);

/** Credentials and code in the parent's environment that no child may inherit. */
const PLANTED: Readonly<Record<string, string>> = {
  GITHUB_TOKEN: join('ghp', '_', rnd(36)),
  AWS_ACCESS_KEY_ID: join('AK', 'IA', rnd(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
  AWS_SECRET_ACCESS_KEY: rnd(40, 'aZ3kQ9/+mX7pL2vB8n'),
  DATABASE_URL: 'postgres://u:p@h/db',
  CI_JOB_JWT: JWT,
  CI_JOB_TOKEN: rnd(20),
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: rnd(40),
  ACTIONS_RUNTIME_TOKEN: JWT,
  SENTRY_DSN: join('https://', rnd(32, '0123456789abcdef'), '@o12345.ingest.sentry.io/4500000000000000'),
  // A webhook in innocent-looking names: one outside the allow-list, one inside an allowed family (LC_*).
  BUILD_STATUS_URL: WEBHOOK,
  LC_TEAM_CHAT: WEBHOOK,
  STRIPE_SECRET_KEY: join('sk', '_live_', rnd(24)),
  NPM_TOKEN: join('npm', '_', rnd(36)),
  FOO_API_KEY: 'foo-api-key-not-for-anyone',
  NODE_OPTIONS: `--require ${EVIL}`,
};

/** Each agent's own key: it must reach that agent and no other child. */
const KEYS = { OPENAI_API_KEY: 'openai-key-for-codex-only', ANTHROPIC_API_KEY: 'anthropic-key-for-claude-only', GEMINI_API_KEY: 'gemini-key-for-gemini-only' } as const;
const PROXIES = { HTTPS_PROXY: 'http://proxyuser:proxypass@proxy.invalid:8080', http_proxy: 'http://proxyuser:proxypass@proxy.invalid:3128' } as const;

const HOSTILE_ENV: Readonly<Record<string, string>> = { ...PLANTED, ...KEYS, ...PROXIES };

/** Asserts a child's environment holds none of the planted secrets, only the keys named, and proxies without passwords. */
function expectClean(env: Readonly<Record<string, string | undefined>>, ownKeys: readonly (keyof typeof KEYS)[]): void {
  for (const name of Object.keys(PLANTED)) expect(env[name], `${name} reached the child`).toBeUndefined();
  const whole = JSON.stringify(env);
  for (const [name, value] of Object.entries(PLANTED)) expect(whole.includes(value), `the value of ${name} reached the child`).toBe(false);
  expect(whole).not.toContain('proxypass');
  expect(whole).not.toContain(EVIL);
  for (const name of Object.keys(KEYS) as (keyof typeof KEYS)[]) {
    if (ownKeys.includes(name)) expect(env[name], `${name} is this child's own key`).toBe(KEYS[name]);
    else expect(env[name], `${name} belongs to another agent`).toBeUndefined();
  }
  expect(env.HTTPS_PROXY).toBe('http://proxy.invalid:8080');
  expect(env.http_proxy).toBe('http://proxy.invalid:3128');
  expect(env.PATH).toBeTruthy();
}

/** A program on disk that appends `{ who, env }` to `out` (argv: who, out). */
const DUMP = path.join(dir, 'dump-env.cjs');
writeFileSync(DUMP, "require('fs').appendFileSync(process.argv[3], JSON.stringify({ who: process.argv[2], env: process.env }) + '\\n');\n");

function dumps(file: string): Array<{ who: string; env: Record<string, string> }> {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { who: string; env: Record<string, string> }) : [];
}

/** The scripts of the processes that ran evil.cjs (NODE_OPTIONS) so far. */
function evilRanIn(): string[] {
  return (existsSync(EVIL_LOG) ? readFileSync(EVIL_LOG, 'utf8').split('\n').filter(Boolean) : []).map((l) => path.basename((JSON.parse(l) as { script: string }).script));
}

afterAll(() => {
  // The CLIs the tests start are parents and run evil.cjs themselves; no child may have.
  for (const script of evilRanIn()) expect(script, `NODE_OPTIONS reached ${script}`).toMatch(/^(relay|relais)\.js$/);
});

describe('child environments under a hostile parent environment', () => {
  describe('ask and review backends', () => {
    async function ask(log: AgentLog, backend: 'codex' | 'gemini' | 'claude'): Promise<RelayResult> {
      return succeeds(askRelay({ prompt: 'Is this safe?', repoPath: gitRepo({ 'a.txt': 'one\n' }), backend, env: { ...HOSTILE_ENV, ...fakeAgentEnv(log) } }));
    }

    it.each([
      ['codex', ['OPENAI_API_KEY']],
      ['gemini', ['GEMINI_API_KEY']],
      ['claude', ['ANTHROPIC_API_KEY']],
    ] as const)('ask with %s: only its own key reaches it', async (backend, own) => {
      const log = agentLog();
      await ask(log, backend);
      const call = log.only();
      expect(call.agent).toBe(backend);
      expectClean(call.env, own);
      expect(call.env.PHONE_A_FRIEND_DEPTH).toBe('1');
    });

    it.each([
      ['codex', ['OPENAI_API_KEY']],
      ['gemini', ['GEMINI_API_KEY']],
      ['claude', ['ANTHROPIC_API_KEY']],
    ] as const)('review with %s: only its own key reaches it', async (backend, own) => {
      const log = agentLog();
      const repoPath = gitRepo({ 'a.txt': 'one\n' });
      gitIn(repoPath, 'switch', '-q', '-c', 'feature');
      writeFileSync(path.join(repoPath, 'a.txt'), 'one\ntwo\n');
      gitIn(repoPath, 'commit', '-qam', 'feature work');
      await succeeds(reviewRelay({ repoPath, backend, env: { ...HOSTILE_ENV, ...fakeAgentEnv(log) } }));
      expectClean(log.only().env, own);
    });
  });

  describe('relay handoff --to (dispatch through the CLI)', () => {
    async function project(): Promise<string> {
      const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': '.relaycode/\n' });
      writeRelayConfig(root, defaultRelayConfig('demo'));
      await recordPatch(root, { file: 'src/b.ts', body: 'export const b = 1;', message: 'feat: add b' });
      return root;
    }

    it.each([
      ['codex', ['OPENAI_API_KEY']],
      ['claude', ['ANTHROPIC_API_KEY']],
    ] as const)('--to %s: only its own key reaches the agent', async (target, own) => {
      const root = await project();
      const record = path.join(tempDir('relay-security-agent-'), 'runs.jsonl');
      const run = await relayCli(['handoff', '--to', target, '--json'], {
        cwd: root,
        env: { ...HOSTILE_ENV, PATH: `${FAKE_HANDOFF_AGENTS}${path.delimiter}${process.env.PATH ?? ''}`, FAKE_AGENT_RECORD: record },
      });
      expect(run.exitCode, run.stderr).toBe(0);
      const [agent] = readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { name: string; env: Record<string, string> });
      expect(agent!.name).toBe(target);
      expectClean(agent!.env, own);
      // The plant works: relay itself, started with the hostile environment, loaded evil.cjs.
      expect(evilRanIn()).toContain('relay.js');
    });
  });

  describe('the tick (relais run)', () => {
    it('the orchestrator, the builder (Claude) and a verification command get no planted secret; Claude gets its key', async () => {
      const out = path.join(tempDir('relay-security-tick-'), 'verify-env.jsonl');
      const repo = new TickRepo({
        config: (config) => {
          const verification = config.verification as { templates: unknown[] };
          verification.templates.push({ id: 'dumpenv', cmd: 'node', args: [DUMP, 'verification', out] });
        },
      }).scenario({ orchestrator: [{ result: makeTask({ fast: ['dumpenv'] }) }], builder: [builderDoes(EDIT_A)] });
      const run = await repo.run(HOSTILE_ENV);
      expect(run.result.code, run.stderr).toBe('SUCCESS');
      const calls = repo.calls() as unknown as Array<{ role: string; env: Record<string, string> }>;
      expect(calls.map((c) => c.role).sort()).toEqual(['builder', 'orchestrator']);
      for (const call of calls) expectClean(call.env, ['ANTHROPIC_API_KEY']);
      const [verification] = dumps(out);
      expect(verification!.who).toBe('verification');
      expectClean(verification!.env, []);
    });
  });

  describe('the patch linter and pre/post commands (relay apply)', () => {
    it('none of them gets a planted secret or an agent key', async () => {
      const out = path.join(tempDir('relay-security-patch-'), 'commands-env.jsonl');
      const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': '.relaycode/\n' });
      const base = defaultRelayConfig('demo');
      writeRelayConfig(root, { ...base, patch: { ...base.patch, linter: ['node', DUMP, 'linter', out], preCommand: ['node', DUMP, 'preCommand', out], postCommand: ['node', DUMP, 'postCommand', out] } });
      const answerFile = path.join(tempDir('relay-security-answer-'), 'answer.md');
      writeFileSync(answerFile, answer([{ path: 'docs/new.md', body: '# new' }], { projectId: 'demo' }));
      const run = await relayCli(['apply', answerFile, '--yes', '--json'], { cwd: root, env: HOSTILE_ENV });
      expect(run.exitCode, run.stderr).toBe(0);
      const seen = dumps(out);
      expect(new Set(seen.map((d) => d.who))).toEqual(new Set(['preCommand', 'linter', 'postCommand']));
      for (const dump of seen) expectClean(dump.env, []);
    });
  });

  describe('programs Relay Desk opens', () => {
    it('the terminal of "Start in a terminal" gets only what relay and the dispatched agent need', async () => {
      const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': '.relaycode/\n' });
      writeRelayConfig(root, defaultRelayConfig('demo'));
      await recordPatch(root, { file: 'src/b.ts', body: 'export const b = 1;', message: 'feat: add b' });
      const saved = await relayCli(['handoff', '--save', '--json'], { cwd: root, env: {} });
      const briefId = (JSON.parse(saved.stdout) as { briefId: string }).briefId;
      const records = tempDir('relay-security-terminal-');
      const terminalRecord = path.join(records, 'terminal.jsonl');
      const agentRecord = path.join(records, 'agent.jsonl');
      const env = {
        ...HOSTILE_ENV,
        PATH: [path.join(REPO_ROOT, 'fixtures', 'fake-terminal'), FAKE_HANDOFF_AGENTS, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
        HOME: process.env.HOME ?? '/tmp',
        RELAY_PASS_ENV: 'FAKE_*',
        FAKE_TERMINAL_RECORD: terminalRecord,
        FAKE_AGENT_RECORD: agentRecord,
      };
      const started = await startDispatchInTerminal({ root, briefId, target: 'codex' }, { platform: 'linux', env, relay: currentRelayInvocation() });
      expect(started.ok).toBe(true);
      await until('the terminal to record its end', () => existsSync(terminalRecord) && readFileSync(terminalRecord, 'utf8').includes('"event":"ended"'), { timeoutMs: 30_000 });
      const lines = readFileSync(terminalRecord, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { event: string; env?: Record<string, string>; status?: number });
      const terminal = lines.find((l) => l.event === 'started')!;
      // The terminal runs relay, which needs the dispatched agent's key to pass it on: codex's, nobody else's.
      expectClean(terminal.env!, ['OPENAI_API_KEY']);
      const ended = lines.find((l) => l.event === 'ended') as { stdout?: string; stderr?: string };
      expect(ended.stdout, ended.stderr).toContain('codex finished');
      const [agent] = readFileSync(agentRecord, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { env: Record<string, string> });
      expectClean(agent!.env, ['OPENAI_API_KEY']);
    });

    it('the browser opener of `relay ui` gets the desktop allow-list only', async () => {
      const bin = tempDir('relay-security-browser-');
      const out = path.join(bin, 'opener.jsonl');
      const opener = path.join(bin, 'xdg-open');
      writeFileSync(opener, `#!${process.execPath}\nrequire('fs').appendFileSync(${JSON.stringify(out)}, JSON.stringify({ who: 'xdg-open', url: process.argv[2], env: process.env }) + '\\n');\n`);
      chmodSync(opener, 0o755);
      const opened = await openInBrowser('http://127.0.0.1:1/#t=1', { env: { ...HOSTILE_ENV, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, DISPLAY: ':9' }, platform: 'linux' });
      expect(opened).toEqual({ ok: true, value: undefined });
      await until('the agent to dump its environment', () => dumps(out).length > 0, { timeoutMs: 30_000 });
      const [dump] = dumps(out);
      expectClean(dump!.env, []);
      expect(dump!.env.DISPLAY).toBe(':9');
    });
  });
});

