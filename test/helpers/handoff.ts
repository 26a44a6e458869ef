import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { writeFiles } from './temp.js';
import type { ProjectHistory, TransactionSummary } from '../../src/engine/handoff/history.js';
import type { TickRun } from '../../src/engine/records/index.js';
import type { SecretRuleId } from '../../src/engine/secrets/index.js';
import type { GapFillRecord } from '../../src/engine/handoff/types.js';
import { applyPatch } from '../../src/engine/patch/transaction.js';
import { REPO_ROOT } from './cli.js';

/** The folder holding the fake `claude` and `codex` CLIs. */
export const FAKE_AGENTS = path.join(REPO_ROOT, 'fixtures', 'fake-handoff-agents');

/** A transaction summary with sensible defaults. */
export function transaction(overrides: Partial<TransactionSummary> & { uuid: string; createdAt: string }): TransactionSummary {
  return {
    source: 'file',
    gitCommitMsg: 'feat: change',
    promptSummary: null,
    reasoning: [],
    files: [{ path: 'src/a.ts', change: 'modify', added: 2, removed: 1 }],
    decision: { by: 'auto', kept: ['src/a.ts'], rolledBack: [] },
    revertOf: null,
    revertedBy: null,
    warnings: [],
    ...overrides,
  };
}

/** A finished tick with sensible defaults. */
export function tick(overrides: Partial<TickRun> & { runId: string; endedAt: string }): TickRun {
  return {
    startedAt: overrides.endedAt,
    task: { taskId: 'T-1', milestoneId: 'M1', kind: 'execute', intent: 'Add the forecast panel' },
    verdict: 'success',
    code: 'SUCCESS',
    blastRadius: { filesTouched: 1, linesAdded: 10, linesDeleted: 2, newFiles: 0 },
    touchedPaths: ['src/panel.ts'],
    violations: [],
    verification: [{ templateId: 'test', phase: 'fast', exitCode: 0, timedOut: false }],
    baseCommit: null,
    headCommit: null,
    folder: null,
    ...overrides,
  };
}

/** A small but complete project history, as the loader would build it. */
export function sampleHistory(overrides: Partial<ProjectHistory> = {}): ProjectHistory {
  return {
    root: '/nowhere/demo',
    projectId: 'demo',
    git: {
      isRepo: true,
      branch: 'main',
      head: 'f'.repeat(40),
      commits: [
        { sha: 'f'.repeat(40), date: '2026-05-10T09:00:00+02:00', subject: 'feat: forecast panel' },
        { sha: 'e'.repeat(40), date: '2026-05-09T10:00:00Z', subject: 'initial' },
      ],
    },
    transactions: [
      transaction({ uuid: '11111111-aaaa', createdAt: '2026-05-10T08:30:00.000Z', gitCommitMsg: 'fix: units', promptSummary: 'Convert to metric', reasoning: ['Kelvin was shown raw.'] }),
      transaction({ uuid: '22222222-bbbb', createdAt: '2026-05-09T11:00:00.000Z', revertedBy: '11111111-aaaa' }),
    ],
    ticks: [tick({ runId: 'run-20260510-0001', endedAt: '2026-05-10T07:00:00.000Z' })],
    currentTask: { taskId: 'T-2', milestoneId: 'M1', kind: 'execute', intent: 'Wire the panel to the API' },
    relayAnswers: [{ id: 'ask-1', kind: 'ask', backend: 'codex', createdAt: '2026-05-10T06:00:00.000Z', prompt: 'Is caching needed?', answer: 'Not yet.', ok: true }],
    tickEvents: [],
    skipped: [],
    ...overrides,
  };
}

/** A gap-fill record as handoff_finalize writes it. */
export function gapRecord(overrides: Partial<GapFillRecord> = {}): GapFillRecord {
  return {
    schemaVersion: 1,
    briefId: 'brief-1778400000000-abc123',
    projectId: 'demo',
    capturedAt: '2026-05-10T10:00:00.000Z',
    source: 'mcp',
    slots: { inFlight: 'Half-way through the cache layer.', nextSteps: '1. Finish cache.ts\n2. Test it', openQuestions: 'TTL of 5 min?', deadEnds: 'An LRU from npm: too heavy.' },
    ...overrides,
  };
}

/** Applies one answer to a real project through the patch engine, approved, so a real `.relaycode/` record exists. */
export async function recordPatch(
  root: string,
  change: { readonly file: string; readonly body: string; readonly message: string; readonly prose?: string; readonly promptSummary?: string; readonly projectId?: string },
): Promise<string> {
  const uuid = randomUUID();
  const yaml = [`projectId: ${change.projectId ?? 'demo'}`, `uuid: ${uuid}`, `gitCommitMsg: ${JSON.stringify(change.message)}`];
  if (change.promptSummary) yaml.push(`promptSummary: ${JSON.stringify(change.promptSummary)}`);
  const text = `${change.prose ?? 'Here is the change.'}\n\n\`\`\`ts // ${change.file}\n${change.body}\n\`\`\`\n\n\`\`\`yaml\n${yaml.join('\n')}\n\`\`\`\n`;
  const outcome = await applyPatch({ root, text, source: 'paste', decide: async () => ({ approve: true }) });
  if (outcome.status !== 'applied') throw new Error(`patch not applied: ${JSON.stringify(outcome)}`);
  return outcome.uuid;
}

/** Writes one tick's history folder the way the tick runner does (report.json + report.md). */
export function writeTick(root: string, runId: string, report: Record<string, unknown>, markdown = `# Tick ${runId}\n`): void {
  writeFiles(root, {
    [`relais/history/${runId}/report.json`]: JSON.stringify({ run_id: runId, ...report }, null, 2),
    [`relais/history/${runId}/report.md`]: markdown,
    [`relais/history/${runId}/meta.json`]: JSON.stringify({ run_id: runId }),
  });
}

/** One fake secret per pattern, built at run time so the repository holds no string a secret scanner would flag. */
export const FAKE_SECRETS = {
  'aws-access-key-id': `AKIA${'IOSFODNN7EXAMPLE'}`,
  'openai-api-key': `sk-${'proj-'}${'Zx9'.repeat(10)}`,
  'secret-assignment': `password = "${'hunter2'.repeat(2)}"`,
  'private-key': `-----BEGIN ${'RSA PRIVATE'} KEY-----\nMIIEow...\n-----END RSA PRIVATE KEY-----`,
} as const satisfies Partial<Record<SecretRuleId, string>>;
