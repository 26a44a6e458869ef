// Read-only views of a project's runs for agents (the MCP tools) and, later, the window.
import { describeStats } from '../patch/summary.js';
import { describeBlastRadius, parseTickRun, readTickText, readWorkspaceJson, readWorkspaceText, tickTime, type TickRun } from '../records/index.js';
import type { ProjectHistory } from './history.js';
import { loadTickHistory, sortNewestFirst } from './history.js';
import { clip, utcIso } from './text.js';

/** One run in a list, newest first: a patch transaction, a tick, or a relay/review answer. */
export interface RunListItem {
  readonly kind: 'patch' | 'tick' | 'relay' | 'review';
  readonly id: string;
  readonly at: string;
  readonly title: string;
  readonly outcome: string;
  readonly files: readonly string[];
}

/** The newest `limit` runs of a history, all kinds merged. */
export function recentRuns(history: ProjectHistory, limit: number): RunListItem[] {
  const items: RunListItem[] = [
    ...history.transactions.map((t) => ({
      kind: 'patch' as const,
      id: t.uuid,
      at: utcIso(t.createdAt),
      title: t.gitCommitMsg ?? t.promptSummary ?? '(no message)',
      outcome: [describeStats(t.files), t.revertOf ? `revert of ${t.revertOf}` : '', t.revertedBy ? `reverted by ${t.revertedBy}` : ''].filter(Boolean).join(', '),
      files: t.files.map((f) => f.path),
    })),
    ...history.ticks.map((t) => ({
      kind: 'tick' as const,
      id: t.runId,
      at: utcIso(tickTime(t)),
      title: t.task ? `${t.task.taskId} (${t.task.kind}): ${t.task.intent}` : '(task not recorded)',
      outcome: `${t.verdict} ${t.code}, ${describeBlastRadius(t.blastRadius)}`,
      files: t.touchedPaths,
    })),
    ...history.relayAnswers.map((a) => ({
      kind: a.kind === 'ask' ? ('relay' as const) : ('review' as const),
      id: a.id,
      at: utcIso(a.createdAt),
      title: clip(a.prompt, 200),
      outcome: a.ok ? `answered by ${a.backend}` : `failed (${a.backend})`,
      files: [],
    })),
  ];
  return sortNewestFirst(items, (i) => i.at, (i) => `${i.kind}\0${i.id}`).slice(0, Math.max(0, limit));
}

/** The last tick's report: its parsed summary and its REPORT.md text. */
export interface TickReport {
  readonly run: TickRun;
  /** Project-relative path of the markdown report, when there is one. */
  readonly markdownPath: string | null;
  readonly markdown: string | null;
}

/** Longest report text handed to an agent (Relais caps REPORT.md at 6,000 characters itself). */
const MAX_REPORT_CHARS = 20_000;

/** A report's text, capped for an agent. */
function capped(text: string | null): string | null {
  return text === null ? null : clip(text, MAX_REPORT_CHARS);
}

/** The newest tick report: from the history folder, else the workspace's REPORT.json; null when there is none. */
export function lastTickReport(root: string): TickReport | null {
  const newest = loadTickHistory(root).ticks[0];
  if (newest?.folder) {
    const markdown = capped(readTickText(root, newest.folder.split('/').pop() ?? newest.runId, 'report.md'));
    return { run: newest, markdownPath: markdown === null ? null : `${newest.folder}/report.md`, markdown };
  }
  const current = readWorkspaceJson(root, 'REPORT.json');
  if (!current.value) return null;
  const run = parseTickRun(current.value, null, null);
  if (!run) return null;
  const md = readWorkspaceText(root, 'REPORT.md');
  const markdown = capped(md.text);
  return { run, markdownPath: markdown === null ? null : md.file, markdown };
}
