// "Start in a terminal" for real: the host opens a terminal emulator (a fake
// `x-terminal-emulator` script on PATH that records how it was started and then really runs
// the command it was given), the real `relay handoff --resume … --to codex` runs inside it,
// and the fake codex gets the brief as its first turn. No child process is mocked.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HANDOFF_PREAMBLE } from '../../../src/engine/handoff/dispatch.js';
import { KEEP_OPEN_SCRIPT, currentRelayInvocation, startDispatchInTerminal } from '../../../src/engine/handoff/terminal.js';
import { openStore } from '../../../src/engine/store/index.js';
import { realEngines } from '../../../src/host/engines.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { relay, REPO_ROOT } from '../../helpers/cli.js';
import { FAKE_AGENTS, recordPatch } from '../../helpers/handoff.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';
import { until } from '../../helpers/wait.js';

const FAKE_TERMINAL_DIR = path.join(REPO_ROOT, 'fixtures', 'fake-terminal');

interface Records {
  readonly terminal: string;
  readonly agent: string;
}

function records(): Records {
  const dir = tempDir('relay-terminal-');
  return { terminal: path.join(dir, 'terminal.jsonl'), agent: path.join(dir, 'agent.jsonl') };
}

function lines<T>(file: string): T[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as T)
    : [];
}

/** The terminal's (and so relay's and the agent's) environment: fake terminal and fake agents first on PATH. */
function terminalEnv(files: Records, searchPath?: string): Record<string, string> {
  return {
    PATH: searchPath ?? [FAKE_TERMINAL_DIR, FAKE_AGENTS, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
    HOME: process.env.HOME ?? '/tmp',
    FAKE_TERMINAL_RECORD: files.terminal,
    FAKE_AGENT_RECORD: files.agent,
    // Children get an allow-list environment: the fakes' FAKE_* settings pass as the user's declaration.
    RELAY_PASS_ENV: 'FAKE_*',
    OPENAI_API_KEY: 'openai-for-codex',
    GITHUB_TOKEN: 'ghp_not_for_agents',
  };
}

async function setup(env: Record<string, string>): Promise<{ host: Host; root: string; briefId: string; close: () => Promise<void> }> {
  const root = relayProject({ projectId: 'demo', files: { 'a.txt': 'x\n' } });
  await recordPatch(root, { file: 'src/cache.ts', body: 'export const cache = new Map();', message: 'feat: add the cache' });
  const saved = await relay(['handoff', '--save', '--json'], { cwd: root, env: { PATH: process.env.PATH ?? '' } });
  expect(saved.exitCode, saved.stderr).toBe(0);
  const briefId = (JSON.parse(saved.stdout) as { briefId: string }).briefId;
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  const host = createHost({ store, engines: realEngines({ env: {} }), terminal: { env, platform: 'linux' } });
  const registered = await host.call('registerProject', { root });
  if (!registered.ok) throw new Error(registered.error.message);
  return {
    host,
    root,
    briefId,
    close: async () => {
      await host.close();
      store.close();
    },
  };
}

interface TerminalLine {
  readonly event: 'started' | 'ended';
  readonly argv: string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly status: number | null;
  readonly stderr: string;
}

// The fake terminal and the keep-open wrapper need /bin/sh: POSIX hosts only.
describe.skipIf(process.platform === 'win32')('startHandoffInTerminal', () => {
  it('opens the terminal running relay handoff --resume … --to codex in the project; the fake codex gets the brief as its first turn', async () => {
    const files = records();
    const { host, root, briefId, close } = await setup(terminalEnv(files));
    const reply = await host.call('startHandoffInTerminal', { projectId: 'demo', briefId, target: 'codex' });
    expect(reply).toEqual({ ok: true, value: { launched: 'x-terminal-emulator' } });

    const ended = await until('the terminal to finish its command', () => lines<TerminalLine>(files.terminal).find((l) => l.event === 'ended'), { timeoutMs: 60_000, intervalMs: 100 });
    expect(ended.status, ended.stderr).toBe(1); // `read` at the end of the keep-open script met the closed stdin
    const started = lines<TerminalLine>(files.terminal).find((l) => l.event === 'started')!;
    const relayInvocation = currentRelayInvocation();
    expect(started.cwd).toBe(root);
    expect(started.argv).toEqual(['-e', '/bin/sh', '-c', KEEP_OPEN_SCRIPT, 'relay-handoff', relayInvocation.command, ...relayInvocation.args, '-C', root, 'handoff', '--resume', briefId, '--to', 'codex']);
    expect(started.env.ELECTRON_RUN_AS_NODE).toBeUndefined();

    // The CLI dispatched: a new brief resumed from the saved one, and codex seeded with it.
    const briefs = readdirSync(path.join(root, '.relaycode', 'handoffs')).filter((f) => f.endsWith('.md'));
    expect(briefs).toHaveLength(2);
    const [agent] = lines<{ name: string; argv: string[]; cwd: string; env: Record<string, string>; stdinEnded: boolean }>(files.agent);
    expect(agent?.name).toBe('codex');
    expect(agent!.argv.slice(0, 5)).toEqual(['exec', '-C', root, '--sandbox', 'workspace-write']);
    const newBrief = briefs.map((f) => f.replace(/\.md$/, '')).find((id) => id !== briefId)!;
    const markdown = readFileSync(path.join(root, '.relaycode', 'handoffs', `${newBrief}.md`), 'utf8');
    expect(agent!.argv.at(-1)).toBe(`${HANDOFF_PREAMBLE}\n\n${markdown}`);
    expect(markdown).toContain('feat: add the cache');
    expect(markdown).toContain(`**Resumed from:** ${briefId}`);
    expect(agent!.env.OPENAI_API_KEY).toBe('openai-for-codex');
    expect(agent!.env.GITHUB_TOKEN).toBeUndefined();
    await close();
  });

  it('fails with TERMINAL_NOT_FOUND, naming what was tried and the command to run by hand, when no terminal is on PATH', async () => {
    const files = records();
    const { host, root, briefId, close } = await setup(terminalEnv(files, ''));
    const reply = await host.call('startHandoffInTerminal', { projectId: 'demo', briefId, target: 'codex' });
    expect(reply.ok).toBe(false);
    if (reply.ok) return;
    expect(reply.error.code).toBe('TERMINAL_NOT_FOUND');
    for (const name of ['x-terminal-emulator', 'gnome-terminal', 'konsole', 'xfce4-terminal', 'xterm']) expect(reply.error.message).toContain(name);
    expect(reply.error.message).toContain(`-C ${root} handoff --resume ${briefId} --to codex`);
    expect(existsSync(files.terminal)).toBe(false);
    await close();
  });

  it('refuses bad brief ids, unknown briefs and unknown destinations before anything runs', async () => {
    const files = records();
    const { host, root, close } = await setup(terminalEnv(files));
    for (const briefId of ['../../etc/passwd', 'brief-1-x; rm -rf ~', 'brief-1-ABC', '']) {
      const reply = await host.call('startHandoffInTerminal', { projectId: 'demo', briefId, target: 'codex' });
      expect(reply.ok ? null : reply.error.code).toBe('INVALID_INPUT');
    }
    for (const target of ['-e', 'co dex', '$(id)']) {
      const reply = await host.call('startHandoffInTerminal', { projectId: 'demo', briefId: 'brief-1-abc', target });
      expect(reply.ok ? null : reply.error.code).toBe('INVALID_INPUT');
    }
    const unknownBrief = await host.call('startHandoffInTerminal', { projectId: 'demo', briefId: 'brief-1-abc', target: 'codex' });
    expect(unknownBrief.ok ? null : unknownBrief.error.code).toBe('BRIEF_NOT_FOUND');
    const saved = lines<never>(files.terminal);
    expect(saved).toEqual([]);
    // The engine checks on its own too, whoever calls it.
    const direct = await startDispatchInTerminal({ root, briefId: 'brief-1-x/../y', target: 'codex' }, { platform: 'linux', env: terminalEnv(files), relay: currentRelayInvocation() });
    expect(direct.ok ? null : direct.error.code).toBe('BRIEF_ID_INVALID');
    const badTarget = await startDispatchInTerminal({ root, briefId: 'brief-1-abc', target: '--print' }, { platform: 'linux', env: terminalEnv(files), relay: currentRelayInvocation() });
    expect(badTarget.ok ? null : badTarget.error.code).toBe('UNKNOWN_DESTINATION');
    expect(existsSync(files.terminal)).toBe(false);
    await close();
  });

  it('refuses a destination that is neither an adapter nor a profile', async () => {
    const files = records();
    const { host, briefId, close } = await setup(terminalEnv(files));
    const reply = await host.call('startHandoffInTerminal', { projectId: 'demo', briefId, target: 'gemini' });
    expect(reply.ok ? null : reply.error.code).toBe('UNKNOWN_DESTINATION');
    expect(existsSync(files.terminal)).toBe(false);
    await close();
  });
});
