import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeGapFill } from '../../../src/engine/handoff/persist.js';
import { CLAUDE_FIRST_TURN, HANDOFF_PREAMBLE } from '../../../src/engine/handoff/dispatch.js';
import { defaultRelayConfig, writeRelayConfig } from '../../../src/engine/patch/config.js';
import { relay, REPO_ROOT } from '../../helpers/cli.js';
import { FAKE_AGENTS, FAKE_SECRETS, gapRecord, recordPatch, writeTick } from '../../helpers/handoff.js';
import { gitRepo, tempDir, writeFiles } from '../../helpers/temp.js';
import { until } from '../../helpers/wait.js';

const HANDOFFS = '.relaycode/handoffs';

interface AgentRun {
  readonly name: string;
  readonly argv: string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly stdin: string;
  readonly stdinEnded: boolean;
}

/** A real project: a git repo with relay.config.json and two real patch transactions. */
async function project(): Promise<string> {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': '.relaycode/\n' });
  writeRelayConfig(root, defaultRelayConfig('demo'));
  await recordPatch(root, { file: 'src/b.ts', body: 'export const b = 1;', message: 'feat: add b', promptSummary: 'Add module b' });
  await recordPatch(root, { file: 'src/c.ts', body: 'export const c = 1;', message: 'feat: add c' });
  return root;
}

/** Environment for relay: the fake agents first on PATH, a record file, and credentials of several tools. */
function agentEnv(extra: Record<string, string> = {}): { env: Record<string, string>; record: string } {
  const record = path.join(tempDir('relay-agent-'), 'runs.jsonl');
  return {
    record,
    env: {
      PATH: `${FAKE_AGENTS}${path.delimiter}${process.env.PATH ?? ''}`,
      FAKE_AGENT_RECORD: record,
      GITHUB_TOKEN: 'ghp_not_for_agents',
      ANTHROPIC_API_KEY: 'anthropic-for-claude',
      OPENAI_API_KEY: 'openai-for-codex',
      ...extra,
    },
  };
}

function agentRuns(record: string): AgentRun[] {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AgentRun);
}

function briefFiles(root: string): string[] {
  const dir = path.join(root, HANDOFFS);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}

function readBrief(root: string, id: string): string {
  return readFileSync(path.join(root, HANDOFFS, `${id}.md`), 'utf8');
}

/** Tick history big enough to pass the hard cap once relay.handoff.json lifts the budgets. */
function bigHistory(root: string): void {
  for (let i = 0; i < 30; i += 1) {
    writeTick(root, `run-${String(i).padStart(4, '0')}`, {
      ended_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
      verdict: 'success',
      code: 'SUCCESS',
      task: { task_id: `T-${i}`, milestone_id: 'M1', task_kind: 'execute', intent: `Intent ${i} `.repeat(100) },
      verification: { runs: Array.from({ length: 40 }, (_, j) => ({ template_id: `check-${j}-${'v'.repeat(40)}`, phase: 'fast', exit_code: 0, timed_out: false })) },
    });
  }
  writeFileSync(path.join(root, 'relay.handoff.json'), JSON.stringify({ budgets: { trail: 50_000, decisions: 50_000 } }));
}

describe('relay handoff', () => {
  describe('--to (dispatch)', () => {
    it('claude: writes the brief with the schema header and starts claude with it appended to the system prompt', async () => {
      const root = await project();
      const { env, record } = agentEnv();
      const run = await relay(['handoff', '--to', 'claude', '--from', 'codex'], { cwd: root, env });
      expect(run.stderr).toBe('');
      expect(run.exitCode).toBe(0);
      const [md] = briefFiles(root).filter((f) => f.endsWith('.md'));
      expect(md).toMatch(/^brief-\d+-[a-z0-9]+\.md$/);
      const brief = readBrief(root, md!.replace(/\.md$/, ''));
      expect(brief).toContain('\n**Schema version:** 1\n');
      expect(brief).toContain('**From:** codex → **To:** claude');
      expect(brief).toContain('feat: add b');
      expect(run.stdout).toContain(`saved as ${HANDOFFS}/${md}`);
      const runs = agentRuns(record);
      expect(runs).toHaveLength(1);
      expect(runs[0]!.name).toBe('claude');
      expect(runs[0]!.argv).toEqual(['--append-system-prompt', `${HANDOFF_PREAMBLE}\n\n${brief}`, CLAUDE_FIRST_TURN]);
      expect(runs[0]!.cwd).toBe(root);
      expect(runs[0]!.env.ANTHROPIC_API_KEY).toBe('anthropic-for-claude');
      expect(runs[0]!.env.GITHUB_TOKEN).toBeUndefined();
      expect(runs[0]!.env.OPENAI_API_KEY).toBeUndefined();
    });

    it('codex: exec with --sandbox and the brief as first turn, no orchestration flags, stdin closed', async () => {
      const root = await project();
      const { env, record } = agentEnv();
      const run = await relay(['handoff', '--to', 'codex', '--json'], { cwd: root, env, input: 'typed ahead by the user\n' });
      expect(run.exitCode).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ status: 'dispatched', destination: { name: 'codex', adapter: 'codex', command: 'codex' }, exitCode: 0, error: null, validation: { mode: 'strict', ok: true } });
      const brief = readBrief(root, result.briefId);
      const [agent] = agentRuns(record);
      expect(agent!.name).toBe('codex');
      expect(agent!.argv).toEqual(['exec', '-C', root, '--sandbox', 'workspace-write', `${HANDOFF_PREAMBLE}\n\n${brief}`]);
      for (const flag of ['--output-schema', '-o', '--ask-for-approval']) expect(agent!.argv).not.toContain(flag);
      expect(agent!.stdin).toBe('');
      expect(agent!.stdinEnded).toBe(true);
      expect(agent!.env.OPENAI_API_KEY).toBe('openai-for-codex');
      expect(agent!.env.ANTHROPIC_API_KEY).toBeUndefined();
      expect(agent!.env.GITHUB_TOKEN).toBeUndefined();
    });

    it('uses a profile of relay.handoff.json: its command and extra args', async () => {
      const root = await project();
      writeFileSync(path.join(root, 'relay.handoff.json'), JSON.stringify({ profiles: { opus: { adapter: 'claude', command: path.join(FAKE_AGENTS, 'claude'), args: ['--model', 'opus'], passEnv: ['GITHUB_TOKEN'] } } }));
      const { env, record } = agentEnv({ PATH: process.env.PATH ?? '' });
      const run = await relay(['handoff', '--to', 'opus'], { cwd: root, env });
      expect(run.exitCode).toBe(0);
      const [agent] = agentRuns(record);
      expect(agent!.argv.slice(0, 3)).toEqual(['--model', 'opus', '--append-system-prompt']);
      expect(agent!.env.GITHUB_TOKEN).toBe('ghp_not_for_agents');
    });

    it('reports a missing agent or a failing one with exit 1, keeping the saved brief', async () => {
      const root = await project();
      writeFileSync(path.join(root, 'relay.handoff.json'), JSON.stringify({ profiles: { ghost: { adapter: 'codex', command: path.join(root, 'no-such-codex') } } }));
      const missing = await relay(['handoff', '--to', 'ghost'], { cwd: root, env: agentEnv().env });
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr).toContain('AGENT_NOT_FOUND');
      expect(briefFiles(root).filter((f) => f.endsWith('.md'))).toHaveLength(1);
      const failing = await relay(['handoff', '--to', 'codex', '--json'], { cwd: root, env: agentEnv({ FAKE_AGENT_EXIT: '3' }).env });
      expect(failing.exitCode).toBe(1);
      expect(JSON.parse(failing.stdout)).toMatchObject({ status: 'failed', error: { code: 'AGENT_FAILED' } });
    });

    it('exits 2 for an unknown destination or a bad --wait-gap, before anything is written', async () => {
      const root = await project();
      const unknown = await relay(['handoff', '--to', 'gemini'], { cwd: root, env: agentEnv().env });
      expect(unknown.exitCode).toBe(2);
      expect(unknown.stderr).toContain('UNKNOWN_DESTINATION');
      expect((await relay(['handoff', '--save', '--wait-gap', 'soon'], { cwd: root })).exitCode).toBe(2);
      expect(briefFiles(root)).toEqual([]);
    });
  });

  describe('validation', () => {
    it('over 8K tokens: --to is refused without --force and nothing starts; --force sends it; --save warns and writes', async () => {
      const root = await project();
      bigHistory(root);
      const { env, record } = agentEnv();
      const refused = await relay(['handoff', '--to', 'claude'], { cwd: root, env });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain('HARD_CAP_EXCEEDED');
      expect(refused.stderr).toContain('--force');
      expect(briefFiles(root)).toEqual([]);
      expect(agentRuns(record)).toEqual([]);

      const forced = await relay(['handoff', '--to', 'claude', '--force', '--json'], { cwd: root, env });
      expect(forced.exitCode).toBe(0);
      const sent = JSON.parse(forced.stdout);
      expect(sent.tokens).toBeGreaterThan(8_000);
      expect(sent.validation.warnings.map((w: { code: string }) => w.code)).toEqual(['HARD_CAP_EXCEEDED']);
      expect(agentRuns(record)).toHaveLength(1);

      const saved = await relay(['handoff', '--save'], { cwd: root });
      expect(saved.exitCode).toBe(0);
      expect(saved.stderr).toContain('SOFT_CAP_EXCEEDED');
      expect(briefFiles(root).filter((f) => f.endsWith('.md'))).toHaveLength(2);
    });

    it('secrets: refused in both modes, even forced, naming the pattern and never printing it; nothing written or started', async () => {
      const root = await project();
      await recordPatch(root, { file: 'src/s.ts', body: 'export const s = 1;', message: 'chore: creds', prose: `Tested with ${FAKE_SECRETS['aws-access-key-id']} and ${FAKE_SECRETS['openai-api-key']} locally.` });
      const { env, record } = agentEnv();
      for (const args of [['--save'], ['--to', 'codex', '--force'], [], ['--save', '--json']]) {
        const run = await relay(['handoff', ...args], { cwd: root, env });
        expect(run.exitCode, args.join(' ')).toBe(1);
        const output = run.stdout + run.stderr;
        expect(output).toContain('SECRET_DETECTED');
        expect(output).toContain('aws-access-key-id');
        expect(output).toContain('openai-api-key');
        expect(output).not.toContain(FAKE_SECRETS['aws-access-key-id']);
        expect(output).not.toContain(FAKE_SECRETS['openai-api-key']);
        expect(output).not.toContain('# Handoff brief');
      }
      expect(briefFiles(root)).toEqual([]);
      expect(agentRuns(record)).toEqual([]);
    });
  });

  describe('--save and --resume', () => {
    it('--save writes the brief and its gap.json without dispatching', async () => {
      const root = await project();
      const { env, record } = agentEnv();
      const run = await relay(['handoff', '--save', '--json'], { cwd: root, env });
      expect(run.exitCode).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result).toMatchObject({ status: 'saved', destination: null, gapFill: { status: 'missing', reason: 'not-provided' } });
      expect(briefFiles(root)).toEqual([`${result.briefId}.gap.json`, `${result.briefId}.md`]);
      expect(readBrief(root, result.briefId)).toContain('[gap-fill not provided]');
      expect(JSON.parse(readFileSync(path.join(root, HANDOFFS, `${result.briefId}.gap.json`), 'utf8'))).toMatchObject({ schemaVersion: 1, briefId: result.briefId, projectId: 'demo', source: 'brief', slots: null });
      expect(agentRuns(record)).toEqual([]);
    });

    it("--resume <id> reads only the saved gap.json, rebuilds the skeleton from today's records and dispatches; latest picks the newest", async () => {
      const root = await project();
      const pendingId = 'brief-1778400000000-pend01';
      writeGapFill(root, gapRecord({ briefId: pendingId, capturedAt: new Date().toISOString(), fromProvider: 'claude' }));
      const saved = JSON.parse((await relay(['handoff', '--save', '--json'], { cwd: root })).stdout);
      expect(saved).toMatchObject({ briefId: pendingId, gapFill: { status: 'provided', source: 'pending' } });
      const gapFile = path.join(root, HANDOFFS, `${pendingId}.gap.json`);
      const gapBytes = readFileSync(gapFile);

      // Work goes on, and the saved snapshot is damaged: neither may leak into the resumed brief.
      await recordPatch(root, { file: 'src/e.ts', body: 'export const e = 1;', message: 'feat: add e after the save' });
      writeFileSync(path.join(root, HANDOFFS, `${pendingId}.md`), 'GARBAGE-SNAPSHOT\n');

      const { env, record } = agentEnv();
      const resumed = await relay(['handoff', '--resume', pendingId, '--to', 'claude', '--json'], { cwd: root, env });
      expect(resumed.exitCode).toBe(0);
      const r = JSON.parse(resumed.stdout);
      expect(r).toMatchObject({ status: 'dispatched', resumedFrom: pendingId, gapFill: { status: 'provided', source: 'resume', from: pendingId } });
      expect(r.briefId).not.toBe(pendingId);
      const brief = readBrief(root, r.briefId);
      expect(brief).toContain(`**Resumed from:** ${pendingId}`);
      expect(brief).toContain('feat: add e after the save');
      expect(brief).toContain('Half-way through the cache layer.');
      expect(brief).not.toContain('GARBAGE-SNAPSHOT');
      expect(readFileSync(gapFile)).toEqual(gapBytes);
      expect(JSON.parse(readFileSync(path.join(root, HANDOFFS, `${r.briefId}.gap.json`), 'utf8'))).toMatchObject({ briefId: r.briefId, source: 'brief', inheritedFrom: pendingId, slots: { inFlight: 'Half-way through the cache layer.' } });
      expect(agentRuns(record).map((a) => a.argv[1])).toEqual([`${HANDOFF_PREAMBLE}\n\n${brief}`]);

      const latest = JSON.parse((await relay(['handoff', '--resume', 'latest', '--save', '--json'], { cwd: root })).stdout);
      expect(latest).toMatchObject({ status: 'saved', resumedFrom: r.briefId, gapFill: { status: 'provided' } });
    });

    it('--resume keeps working memory saved a week ago (resume after a week)', async () => {
      const root = await project();
      const weekOld = 'brief-1777795200000-week01';
      writeGapFill(root, gapRecord({ briefId: weekOld, capturedAt: new Date(Date.now() - 7 * 24 * 3600_000).toISOString() }));
      const run = JSON.parse((await relay(['handoff', '--resume', weekOld, '--save', '--json'], { cwd: root })).stdout);
      expect(run).toMatchObject({ status: 'saved', resumedFrom: weekOld, gapFill: { status: 'provided' } });
    });

    it('refuses path traversal in --resume before anything is written', async () => {
      const root = await project();
      for (const id of ['../../etc/passwd', 'brief-1-a/../../../x', '/tmp/brief-1-a']) {
        const run = await relay(['handoff', '--resume', id, '--save'], { cwd: root });
        expect(run.exitCode, id).toBe(2);
        expect(run.stderr).toContain('BRIEF_ID_INVALID');
      }
      expect(existsSync(path.join(root, HANDOFFS))).toBe(false);
      const missing = await relay(['handoff', '--resume', 'brief-1-a', '--save'], { cwd: root });
      expect(missing.exitCode).toBe(1);
      expect(missing.stderr).toContain('BRIEF_NOT_FOUND');
    });
  });

  describe('gap-fill', () => {
    it('--wait-gap without any handoff_finalize renders the placeholder after the timeout', async () => {
      const root = await project();
      const run = await relay(['handoff', '--save', '--wait-gap', '1', '--json'], { cwd: root });
      const result = JSON.parse(run.stdout);
      expect(result.gapFill).toMatchObject({ status: 'missing', reason: 'not-provided' });
      expect(readBrief(root, result.briefId)).toContain('## Working memory\n\n[gap-fill not provided]\n\n_Note:');
    });

    it('--wait-gap picks up a gap.json that arrives while it waits and uses its brief id', async () => {
      const root = await project();
      // Without --json relay says when it starts waiting, and what arrived: the test acts on the first.
      const child = execa(process.execPath, [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'handoff', '--save', '--wait-gap', '20'], { cwd: root, reject: false, stdin: 'ignore' });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
      await until('relay to start waiting for the gap-fill', () => stderr.includes('waiting up to 20 s'), { detail: () => stderr });
      const arriving = 'brief-1778400000000-late01';
      writeGapFill(root, gapRecord({ briefId: arriving, capturedAt: new Date().toISOString() }));
      const done = await child;
      expect(done.exitCode).toBe(0);
      expect(stderr).toContain(`gap-fill ${arriving} arrived`);
      expect(readBrief(root, arriving)).toContain('### Dead ends\nAn LRU from npm: too heavy.');
    });

    it('ignores a stale gap.json (over an hour old) and one with schemaVersion 2', async () => {
      const root = await project();
      writeGapFill(root, gapRecord({ briefId: 'brief-1778400000000-stale1', capturedAt: new Date(Date.now() - 2 * 3600_000).toISOString() }));
      const stale = JSON.parse((await relay(['handoff', '--save', '--json'], { cwd: root })).stdout);
      expect(stale.briefId).not.toBe('brief-1778400000000-stale1');
      expect(stale.gapFill).toMatchObject({ status: 'missing', reason: 'stale' });
      expect(readBrief(root, stale.briefId)).toContain('more than an hour before this brief');

      const other = await project();
      writeFiles(other, { [`${HANDOFFS}/brief-1778400000000-ver2.gap.json`]: JSON.stringify({ ...gapRecord({ briefId: 'brief-1778400000000-ver2', capturedAt: new Date().toISOString() }), schemaVersion: 2 }) });
      const v2 = JSON.parse((await relay(['handoff', '--save', '--json'], { cwd: other })).stdout);
      expect(v2.briefId).not.toBe('brief-1778400000000-ver2');
      expect(v2.gapFill).toMatchObject({ status: 'missing' });
      expect(readBrief(other, v2.briefId)).toContain('[gap-fill not provided]');
    });
  });

  describe('preview', () => {
    it('prints the brief and writes nothing', async () => {
      const root = await project();
      const run = await relay(['handoff', '--no-git-log'], { cwd: root });
      expect(run.exitCode).toBe(0);
      expect(run.stdout).toMatch(/^# Handoff brief: demo\n\n\*\*Schema version:\*\* 1\n/);
      expect(run.stdout).toContain('(git log was not read for this brief)');
      expect(run.stderr).toContain('nothing written');
      expect(briefFiles(root)).toEqual([]);
    });
  });
});
