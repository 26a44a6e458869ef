// REPORT.md, rendered from REPORT.json alone: no clock, no environment, no key-order dependence,
// so the same report always gives the same bytes.
import { blastLine } from './blast.js';
import { CODE_MEANING, TICK_CODES, type TickCode } from './codes.js';
import type { TickReport } from './report.js';

const VERDICT_TITLE = { success: 'SUCCESS', stop: 'STOP', blocked: 'BLOCKED' } as const;

function bullet(items: readonly string[], none: string): string[] {
  return items.length === 0 ? [`- ${none}`] : items.map((i) => `- ${inline(i)}`);
}

/** Keeps text on one line and stops it from opening Markdown structure. */
function inline(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
}

function money(usd: number): string {
  return `$${usd.toFixed(2)}`;
}

function meaning(code: string): string {
  return (TICK_CODES as readonly string[]).includes(code) ? CODE_MEANING[code as TickCode] : '';
}

/** Renders REPORT.md from REPORT.json, cut to `maxChars` with a closing note when too long. */
export function renderReportMd(report: TickReport, maxChars: number): string {
  const lines: string[] = [];
  lines.push(`# Relais tick ${report.run_id}`, '');
  lines.push(`**${VERDICT_TITLE[report.verdict]}** \`${report.code}\``, '');
  const why = meaning(report.code);
  if (why) lines.push(why, '');
  lines.push(`Blast radius: ${blastLine(report.blast_radius)}`, '');
  lines.push('## Task', '');
  lines.push(`- id: ${inline(report.task.task_id)}`, `- milestone: ${inline(report.task.milestone_id)}`, `- kind: ${report.task.task_kind}`, `- intent: ${inline(report.task.intent)}`, '');
  lines.push('## Scope', '');
  lines.push(`- ok: ${report.scope.ok ? 'yes' : 'no'}`);
  lines.push(...bullet(report.scope.violations, 'no violations'), '');
  lines.push(`Touched (${report.scope.touched_paths.length}):`, '');
  lines.push(...bullet(report.scope.touched_paths, 'nothing'), '');
  lines.push('## Diff', '');
  lines.push(`- files changed: ${report.diff.files_changed}`, `- lines changed: ${report.diff.lines_changed}`, `- patch: ${report.diff.diff_patch_path}`, '');
  lines.push('## Verification', '');
  if (report.verification.runs.length === 0) lines.push('- nothing was run');
  else {
    lines.push('| phase | template | result | ms | command |', '| --- | --- | --- | --- | --- |');
    for (const run of report.verification.runs) {
      const result = run.timed_out ? 'timed out' : run.exit_code === 0 ? 'passed' : `exit ${run.exit_code}`;
      lines.push(`| ${run.phase} | ${inline(run.template_id)} | ${result} | ${run.duration_ms} | \`${inline([run.cmd, ...run.args].join(' '))}\` |`);
    }
  }
  lines.push('', `Log: ${report.verification.verify_log_path}`, '');
  const b = report.budgets;
  lines.push(`## Budgets (milestone ${inline(b.milestone_id)})`, '');
  lines.push(`- ticks: ${b.ticks}`, `- orchestrator calls: ${b.orchestrator_calls}`, `- builder calls: ${b.builder_calls}`, `- verify runs: ${b.verify_runs}`, `- estimated cost: ${money(b.estimated_cost_usd)}`);
  lines.push(...b.warnings.map((w) => `- ⚠ ${inline(w)}`), '');
  lines.push('## Run', '');
  lines.push(`- started: ${report.started_at}`, `- ended: ${report.ended_at} (${report.duration_ms} ms)`, `- base: ${report.base_commit}`, `- head: ${report.head_commit}`, '');
  return capText(lines.join('\n'), maxChars);
}

/** Cuts `text` to at most `maxChars` characters, at a line end, with a note saying so. */
export function capText(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const note = `\n\n… cut at ${maxChars} characters; REPORT.json has everything.\n`;
  let body = text.slice(0, Math.max(0, maxChars - note.length));
  const lastBreak = body.lastIndexOf('\n');
  if (lastBreak > 0) body = body.slice(0, lastBreak);
  return `${body}${note}`.slice(0, maxChars);
}
