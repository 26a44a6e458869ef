// Read-only views of a project's runs for agents (the MCP tools) and, later, the window.
import { readTextOrNull } from '../fs/read.js';
import { describeStats } from '../patch/summary.js';
import type { ProjectHistory } from './history.js';
import { loadTicks, sortNewestFirst } from './history.js';
import { clip, utcIso } from './text.js';
import { describeBlastRadius, parseTickRun, tickTime, type TickRun } from './ticks.js';

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

/** A report's text, read through the path chokepoint (a planted link out of the project is not followed). */
function readText(root: string, rel: string): string | null {
  const text = readTextOrNull(root, rel);
  return text === null ? null : clip(text, MAX_REPORT_CHARS);
}

/** The newest tick report: from relais/history/, else relais/REPORT.json; null when there is none. */
export function lastTickReport(root: string): TickReport | null {
  const newest = loadTicks(root).ticks[0];
  if (newest?.folder) {
    const rel = `${newest.folder}/report.md`;
    const markdown = readText(root, rel);
    return { run: newest, markdownPath: markdown === null ? null : rel, markdown };
  }
  const current = readText(root, 'relais/REPORT.json');
  if (current === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(current);
  } catch {
    return null;
  }
  const run = parseTickRun(data, null, null);
  if (!run) return null;
  const markdown = readText(root, 'relais/REPORT.md');
  return { run, markdownPath: markdown === null ? null : 'relais/REPORT.md', markdown };
}
