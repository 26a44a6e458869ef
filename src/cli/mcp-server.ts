// `relay mcp`: the handoff tools served to an agent over MCP on stdio. One write tool,
// handoff_finalize (the departing agent's four working-memory slots), and read-only views of the
// project's runs. Nothing but the protocol may reach stdout.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { loadProjectHistory, projectIdOf } from '../engine/handoff/history.js';
import { generateBriefId, resolveBriefRef, writeGapFill } from '../engine/handoff/persist.js';
import { briefExists, readBriefMarkdown } from '../engine/records/index.js';
import { lastTickReport, recentRuns } from '../engine/handoff/runs.js';
import { findSecrets, redactSecrets, redactSecretsDeep } from '../engine/secrets/index.js';
import { BRIEF_ID_PATTERN, GAP_SLOT_MAX_CHARS, GAP_SLOT_NAMES, HANDOFF_BRIEF_SCHEMA_VERSION, type GapFillRecord } from '../engine/handoff/types.js';

export interface McpServerOptions {
  readonly clock?: () => Date;
}

function text(value: string, isError = false): CallToolResult {
  return isError ? { content: [{ type: 'text', text: value }], isError: true } : { content: [{ type: 'text', text: value }] };
}

function jsonText(value: unknown): CallToolResult {
  return text(JSON.stringify(value, null, 2));
}

const slot = (what: string) => z.string().max(GAP_SLOT_MAX_CHARS).describe(what);

/** The input of handoff_finalize; `schemaVersion` must be 1 (any other version is rejected, not coerced). */
export const HANDOFF_FINALIZE_INPUT = {
  schemaVersion: z.literal(HANDOFF_BRIEF_SCHEMA_VERSION).describe('Always 1.'),
  briefId: z.string().regex(BRIEF_ID_PATTERN).optional().describe('A saved brief to attach these slots to; omit to start a new handoff.'),
  inFlight: slot('What you were in the middle of when you stopped: the change half made, the file and function, the state it is in.'),
  nextSteps: slot('The next concrete steps you would have taken, in order.'),
  openQuestions: slot('Questions and doubts you had not resolved yet.'),
  deadEnds: slot('What you tried that did not work, and why, so nobody tries it again.'),
  fromProvider: z.string().max(100).optional().describe('The tool or provider you run in, e.g. "claude" or "codex".'),
  sessionId: z.string().max(200).optional().describe('Your session id, when you know it.'),
};

/** Builds the server and its tools for one project (not connected yet). */
export async function buildMcpServer(root: string, options: McpServerOptions = {}): Promise<McpServer> {
  const { McpServer: Server } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const clock = options.clock ?? (() => new Date());
  const server = new Server({ name: 'relay-desk', version: '0.1.0' });

  server.registerTool(
    'handoff_finalize',
    {
      title: 'Record working memory for a handoff',
      description:
        'Call this before your session ends (context nearly full, credits running out, or when the user asks for a handoff). ' +
        'Write down the four things only you know; Relay Desk rebuilds everything else from the project records. ' +
        'The next `relay handoff` in this project puts them in the brief for the next session. Keep each slot short and concrete. Never include secrets.',
      inputSchema: HANDOFF_FINALIZE_INPUT,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => {
      const findings = findSecrets(GAP_SLOT_NAMES.map((name) => args[name]).join('\n'));
      if (findings.length > 0) {
        const names = [...new Set(findings.map((f) => f.ruleId))].join(', ');
        return text(`Not recorded: the slots contain secret-looking text (rule: ${names}). Remove it and call handoff_finalize again.`, true);
      }
      const now = clock();
      const briefId = args.briefId ?? generateBriefId(now);
      const record: GapFillRecord = {
        schemaVersion: HANDOFF_BRIEF_SCHEMA_VERSION,
        briefId,
        projectId: projectIdOf(root),
        capturedAt: now.toISOString(),
        source: 'mcp',
        slots: { inFlight: args.inFlight, nextSteps: args.nextSteps, openQuestions: args.openQuestions, deadEnds: args.deadEnds },
        ...(args.fromProvider ? { fromProvider: args.fromProvider } : {}),
        ...(args.sessionId ? { sessionId: args.sessionId } : {}),
      };
      const written = writeGapFill(root, record);
      if (!written.ok) return text(`${written.error.code}: ${written.error.message}`, true);
      const next = briefExists(root, briefId)
        ? `relay handoff --resume ${briefId} --to <claude|codex>`
        : 'relay handoff --to <claude|codex> (within the hour), or relay handoff --save';
      return jsonText({ briefId, path: written.value.path, capturedAt: record.capturedAt, next });
    },
  );

  server.registerTool(
    'recent_runs',
    {
      title: 'Recent runs of this project',
      description: 'Patch transactions and ticks recorded in this project, newest first: id, time, title, outcome and files.',
      inputSchema: { limit: z.number().int().min(1).max(50).default(10).describe('How many runs (1-50, default 10).') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const limit = args.limit ?? 10;
      const history = await loadProjectHistory(root, { limit });
      // Titles, answers and reasons are recorded text: a secret in them is withheld, never sent on.
      return jsonText(redactSecretsDeep({ projectId: history.projectId, runs: recentRuns(history, limit), skipped: history.skipped }));
    },
  );

  server.registerTool(
    'last_tick_report',
    {
      title: 'Last tick report',
      description: "The newest Relais tick's report: verdict, code, blast radius, verification and its REPORT.md.",
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async () => {
      const report = lastTickReport(root);
      if (!report) return text('No tick report in this project yet (relais/history/ and relais/REPORT.json are empty).');
      const { folder: _folder, ...run } = report.run;
      return jsonText(redactSecretsDeep({ run, markdownPath: report.markdownPath, markdown: report.markdown }));
    },
  );

  server.registerTool(
    'read_brief',
    {
      title: 'Read a saved handoff brief',
      description: 'The markdown of a saved handoff brief of this project ("latest" by default).',
      inputSchema: { briefId: z.union([z.literal('latest'), z.string().regex(BRIEF_ID_PATTERN)]).default('latest') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (args) => {
      const ref = resolveBriefRef(root, args.briefId ?? 'latest', { markdownOnly: true });
      if (!ref.ok) return text(`${ref.error.code}: ${ref.error.message}`, true);
      const markdown = readBriefMarkdown(root, ref.value);
      // Saved briefs were checked for secrets when written, but the file is on disk and may have been edited since.
      return markdown.ok ? text(redactSecrets(markdown.value)) : text(`${markdown.error.code}: ${markdown.error.message}`, true);
    },
  );

  return server;
}

/** Serves the tools on stdin/stdout until the client closes stdin. */
export async function startMcpServer(root: string): Promise<void> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const server = await buildMcpServer(root);
  const transport = new StdioServerTransport();
  process.stdin.once('end', () => void server.close());
  await server.connect(transport);
}
