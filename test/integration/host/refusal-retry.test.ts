// A refused answer through the host keeps what leads somewhere: the run detail carries the
// engine's reason with the closest lines, the block and the reply for the assistant, and the
// answer itself; "Retry after I edit the file" applies that kept answer again once the file
// is fixed. Real git repos, the real patch engine, a real SQLite store.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EventEnvelopeSchema } from '../../../src/shared/contract.js';
import { openStore, type Store } from '../../../src/engine/store/index.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { answer, searchReplace } from '../../helpers/patches.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';

let open: Array<{ host: Host; store: Store }> = [];
afterEach(async () => {
  for (const { host, store } of open) {
    await host.close();
    store.close();
  }
  open = [];
});

async function deskWith(projectId: string, files: Record<string, string>) {
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  const host = createHost({ store });
  open.push({ host, store });
  const root = relayProject({ projectId, files, patch: { approvalMode: 'auto' } });
  const registered = await host.call('registerProject', { root });
  if (!registered.ok) throw new Error(registered.error.message);
  const policy = await host.call('updateProjectSettings', { projectId, approvalPolicy: { mode: 'auto' } });
  if (!policy.ok) throw new Error(policy.error.message);
  return { host, root };
}

async function applyAndWait(host: Host, text: string, projectId: string) {
  const ticket = await host.call('applyPatch', { text, source: 'paste', projectId });
  if (!ticket.ok) throw new Error(ticket.error.message);
  const settled = await host.runtime.waitForTask(ticket.value.taskId);
  return { taskId: ticket.value.taskId, settled };
}

async function runOfTask(host: Host, projectId: string, taskId: string) {
  const listed = await host.call('listRuns', { projectId });
  if (!listed.ok) throw new Error(listed.error.message);
  const run = listed.value.runs.find((r) => r.taskId === taskId);
  if (!run) throw new Error(`no run for task ${taskId}`);
  const detail = await host.call('getRun', { runId: run.id });
  if (!detail.ok) throw new Error(detail.error.message);
  return detail.value;
}

const FILE = 'export function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n';

describe('a refused answer leads somewhere', () => {
  it('keeps the answer and the refusal with its closest lines, block and reply; the events carry only contract fields', async () => {
    const { host, root } = await deskWith('refusals', { 'src/cart.js': FILE });
    const text = answer([{ path: 'src/cart.js', body: searchReplace('  for (const item of items) sum += item.cost;', '  for (const item of items) sum += item.cost * item.qty;') }], { projectId: 'refusals', gitCommitMsg: 'Count quantities' });
    const { taskId, settled } = await applyAndWait(host, text, 'refusals');
    expect(settled?.status).toBe('completed');
    const detail = await runOfTask(host, 'refusals', taskId);
    expect(detail.run.code).toBe('SEARCH_NOT_FOUND');
    if (detail.detail?.kind !== 'patch') throw new Error('not a patch detail');
    const error = detail.detail.error!;
    expect(error.code).toBe('SEARCH_NOT_FOUND');
    expect(error.closest?.lines).toContain('  for (const item of items) sum += item.price;');
    expect(error.closest?.startLine).toBe(3);
    expect(error.block).toMatchObject({ path: 'src/cart.js' });
    expect(error.reply).toContain('src/cart.js');
    expect(error.reply).toContain('sum += item.price');
    expect(detail.detail.answer).toBe(text);
    expect(readFileSync(path.join(root, 'src/cart.js'), 'utf8')).toBe(FILE);
    // Every event of the task fits the contract (no engine-only fields leak into them).
    for (const envelope of detail.events) expect(EventEnvelopeSchema.safeParse(envelope).success).toBe(true);
    const replay = await host.call('replayEvents', { since: 0 });
    expect(replay.ok).toBe(true);
  });

  it('retries the kept answer after the file was edited: it applies, as a new run', async () => {
    const { host, root } = await deskWith('retries', { 'src/cart.js': FILE });
    const text = answer([{ path: 'src/cart.js', body: searchReplace('  for (const item of items) sum += item.cost;', '  for (const item of items) sum += item.cost * item.qty;') }], { projectId: 'retries', gitCommitMsg: 'Count quantities' });
    const first = await applyAndWait(host, text, 'retries');
    const refused = await runOfTask(host, 'retries', first.taskId);

    const tooEarly = await host.call('retryAnswer', { runId: refused.run.id });
    if (!tooEarly.ok) throw new Error(tooEarly.error.message);
    const again = await host.runtime.waitForTask(tooEarly.value.taskId);
    expect(again?.status === 'completed' && again.result.kind === 'patch' ? again.result.patch.error?.code : null).toBe('SEARCH_NOT_FOUND');

    // The person renames price to cost, as the assistant assumed; the retry now applies.
    writeFileSync(path.join(root, 'src/cart.js'), FILE.replace('item.price', 'item.cost'));
    const retried = await host.call('retryAnswer', { runId: refused.run.id });
    if (!retried.ok) throw new Error(retried.error.message);
    const settled = await host.runtime.waitForTask(retried.value.taskId);
    expect(settled?.status === 'completed' && settled.result.kind === 'patch' ? settled.result.patch.status : null).toBe('applied');
    expect(readFileSync(path.join(root, 'src/cart.js'), 'utf8')).toContain('sum += item.cost * item.qty;');
  });

  it('refuses to retry a run that kept no answer, with NOTHING_TO_RETRY', async () => {
    const { host } = await deskWith('no-retry', { 'src/a.js': 'a\n' });
    const applied = await applyAndWait(host, answer([{ path: 'src/a.js', body: searchReplace('a', 'b') }], { projectId: 'no-retry' }), 'no-retry');
    const run = await runOfTask(host, 'no-retry', applied.taskId);
    const retry = await host.call('retryAnswer', { runId: run.run.id });
    expect(retry.ok ? null : retry.error.code).toBe('NOTHING_TO_RETRY');
    const missing = await host.call('retryAnswer', { runId: 'no-retry:patch:nope' });
    expect(missing.ok ? null : missing.error.code).toBe('RUN_NOT_FOUND');
  });
});
