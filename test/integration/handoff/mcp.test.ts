import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultRelayConfig, writeRelayConfig } from '../../../src/engine/patch/config.js';
import { relay, REPO_ROOT } from '../../helpers/cli.js';
import { FAKE_SECRETS, recordPatch, writeTick } from '../../helpers/handoff.js';
import { gitRepo } from '../../helpers/temp.js';

const HANDOFFS = '.relaycode/handoffs';
const SLOTS = { inFlight: 'Half-way through src/cache.ts: get() done, set() not.', nextSteps: 'Write set(), then the TTL test.', openQuestions: 'Is 5 minutes the right TTL?', deadEnds: 'lru-cache: too heavy for the bundle.' };

const open: Client[] = [];
afterEach(async () => {
  for (const client of open.splice(0)) await client.close();
});

/** Starts the built `relay mcp` in `root` and connects the SDK's own client to it over stdio. */
async function connect(root: string): Promise<{ client: Client; transportErrors: Error[]; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO_ROOT, 'dist/cli/relay.js'), 'mcp'],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const transportErrors: Error[] = [];
  // Any line on stdout that is not a protocol message surfaces here as a parse error (the client keeps this handler).
  transport.onerror = (error) => transportErrors.push(error);
  const client = new Client({ name: 'relay-desk-test', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return { client, transportErrors, stderr: () => stderr };
}

function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

async function project(): Promise<{ root: string; uuids: string[] }> {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': '.relaycode/\n' });
  writeRelayConfig(root, defaultRelayConfig('demo'));
  const first = await recordPatch(root, { file: 'src/b.ts', body: 'export const b = 1;', message: 'feat: add b' });
  writeTick(root, 'run-0001', { ended_at: '2000-01-01T00:00:00Z', verdict: 'success', code: 'SUCCESS', task: { task_id: 'T-1', milestone_id: 'M1', task_kind: 'execute', intent: 'Add b' } }, '# Tick run-0001\n\nVerdict: success (SUCCESS)\n');
  const second = await recordPatch(root, { file: 'src/c.ts', body: 'export const c = 1;', message: 'feat: add c' });
  return { root, uuids: [second, first] };
}

describe('relay mcp', () => {
  it('lists its tools, and handoff_finalize writes a gap.json with schemaVersion 1 and the four slots', async () => {
    const { root } = await project();
    const { client, transportErrors } = await connect(root);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(['handoff_finalize', 'last_tick_report', 'read_brief', 'recent_runs']);
    const finalize = tools.find((t) => t.name === 'handoff_finalize')!;
    expect(finalize.inputSchema.required).toEqual(expect.arrayContaining(['schemaVersion', 'inFlight', 'nextSteps', 'openQuestions', 'deadEnds']));
    expect(tools.find((t) => t.name === 'recent_runs')!.annotations?.readOnlyHint).toBe(true);

    const result = await client.callTool({ name: 'handoff_finalize', arguments: { schemaVersion: 1, ...SLOTS, fromProvider: 'claude', sessionId: 'sess-x' } });
    expect(result.isError).toBeFalsy();
    const written = JSON.parse(textOf(result));
    expect(written.briefId).toMatch(/^brief-\d+-[a-z0-9]+$/);
    expect(written.path).toBe(`${HANDOFFS}/${written.briefId}.gap.json`);
    const gap = JSON.parse(readFileSync(path.join(root, written.path), 'utf8'));
    expect(gap).toEqual({ schemaVersion: 1, briefId: written.briefId, projectId: 'demo', capturedAt: written.capturedAt, source: 'mcp', slots: SLOTS, fromProvider: 'claude', sessionId: 'sess-x' });
    expect(transportErrors).toEqual([]);

    // The next `relay handoff` puts the slots into the brief, under the same id.
    const saved = await relay(['handoff', '--save', '--json'], { cwd: root });
    const brief = JSON.parse(saved.stdout);
    expect(brief).toMatchObject({ briefId: written.briefId, gapFill: { status: 'provided', source: 'pending' } });
    const md = readFileSync(path.join(root, HANDOFFS, `${written.briefId}.md`), 'utf8');
    expect(md).toContain(SLOTS.deadEnds);
    expect(md).toContain('**From:** claude');
  });

  it('rejects schemaVersion 2, bad ids and secrets without writing anything, never echoing the secret', async () => {
    const { root } = await project();
    const { client, transportErrors } = await connect(root);
    const v2 = await client.callTool({ name: 'handoff_finalize', arguments: { schemaVersion: 2, ...SLOTS } });
    expect(v2.isError).toBe(true);
    expect(textOf(v2)).toContain('schemaVersion');
    const traversal = await client.callTool({ name: 'handoff_finalize', arguments: { schemaVersion: 1, briefId: '../../escape', ...SLOTS } });
    expect(traversal.isError).toBe(true);
    const missingSlot = await client.callTool({ name: 'handoff_finalize', arguments: { schemaVersion: 1, inFlight: 'x' } });
    expect(missingSlot.isError).toBe(true);
    const secret = await client.callTool({ name: 'handoff_finalize', arguments: { schemaVersion: 1, ...SLOTS, deadEnds: `Used ${FAKE_SECRETS['openai-api-key']}` } });
    expect(secret.isError).toBe(true);
    expect(textOf(secret)).toContain('openai-api-key');
    expect(textOf(secret)).not.toContain(FAKE_SECRETS['openai-api-key']);
    expect(existsSync(path.join(root, HANDOFFS)) ? readdirSync(path.join(root, HANDOFFS)) : []).toEqual([]);
    expect(existsSync(path.join(root, '..', 'escape.gap.json'))).toBe(false);
    expect(transportErrors).toEqual([]);
  });

  it('attaches slots to a saved brief when given its id', async () => {
    const { root } = await project();
    const saved = JSON.parse((await relay(['handoff', '--save', '--json'], { cwd: root })).stdout);
    const { client } = await connect(root);
    const result = await client.callTool({ name: 'handoff_finalize', arguments: { schemaVersion: 1, briefId: saved.briefId, ...SLOTS } });
    expect(JSON.parse(textOf(result))).toMatchObject({ briefId: saved.briefId, next: `relay handoff --resume ${saved.briefId} --to <claude|codex>` });
    const resumed = JSON.parse((await relay(['handoff', '--resume', saved.briefId, '--save', '--json'], { cwd: root })).stdout);
    expect(resumed).toMatchObject({ resumedFrom: saved.briefId, gapFill: { status: 'provided' } });
  });

  it('serves the recent runs newest first, the last tick report and saved briefs', async () => {
    const { root, uuids } = await project();
    const { client, transportErrors, stderr } = await connect(root);
    const runs = JSON.parse(textOf(await client.callTool({ name: 'recent_runs', arguments: { limit: 5 } })));
    expect(runs.projectId).toBe('demo');
    expect(runs.runs.map((r: { id: string }) => r.id)).toEqual([...uuids, 'run-0001']);
    expect(runs.runs[0]).toMatchObject({ kind: 'patch', title: 'feat: add c', files: ['src/c.ts'] });
    expect(runs.runs[2]).toMatchObject({ kind: 'tick', outcome: 'success SUCCESS, blast radius unknown' });
    expect(JSON.parse(textOf(await client.callTool({ name: 'recent_runs', arguments: { limit: 1 } }))).runs).toHaveLength(1);

    const report = JSON.parse(textOf(await client.callTool({ name: 'last_tick_report', arguments: {} })));
    expect(report).toMatchObject({ run: { runId: 'run-0001', verdict: 'success', code: 'SUCCESS' }, markdownPath: 'relais/history/run-0001/report.md' });
    expect(report.markdown).toContain('Verdict: success (SUCCESS)');

    const none = await client.callTool({ name: 'read_brief', arguments: {} });
    expect(none.isError).toBe(true);
    expect(textOf(none)).toContain('BRIEF_NOT_FOUND');
    await relay(['handoff', '--save'], { cwd: root });
    const brief = await client.callTool({ name: 'read_brief', arguments: { briefId: 'latest' } });
    expect(textOf(brief)).toMatch(/^# Handoff brief: demo\n\n\*\*Schema version:\*\* 1/);
    expect(transportErrors).toEqual([]);
    expect(stderr()).toBe('');
  });

  it('withholds secrets found in recorded text from the read-only tools, naming only the pattern', async () => {
    const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n', '.gitignore': '.relaycode/\n' });
    writeRelayConfig(root, defaultRelayConfig('demo'));
    await recordPatch(root, { file: 'src/b.ts', body: 'export const b = 1;', message: `feat: use key ${FAKE_SECRETS['openai-api-key']}` });
    writeTick(root, 'run-0002', { ended_at: '2000-01-01T00:00:00Z', verdict: 'success', code: 'SUCCESS', task: { task_id: 'T-1', milestone_id: 'M1', task_kind: 'execute', intent: 'Add b' } }, `# Tick run-0002\n\n${FAKE_SECRETS['secret-assignment']}\n${FAKE_SECRETS['private-key']}\nafter the key\n`);
    const { client } = await connect(root);
    const runsText = textOf(await client.callTool({ name: 'recent_runs', arguments: {} }));
    const reportText = textOf(await client.callTool({ name: 'last_tick_report', arguments: {} }));
    expect(runsText).not.toContain(FAKE_SECRETS['openai-api-key']);
    expect(JSON.parse(runsText).runs[0].title).toBe('feat: use key [secret withheld: openai-api-key]');
    const { markdown } = JSON.parse(reportText) as { markdown: string };
    expect(markdown).not.toContain('hunter2');
    expect(markdown).not.toContain('MIIEow');
    expect(markdown).toContain('password = "[secret withheld: secret-assignment]"');
    expect(markdown).toContain('[secret withheld: private-key]\nafter the key');
  });
});
