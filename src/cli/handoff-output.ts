// How `relay handoff` reports: the JSON objects of --json and the lines people read.
import type { HandoffOutcome, PreparedHandoff } from '../engine/handoff/service.js';
import type { ValidationIssue, ValidationReport } from '../engine/handoff/validate.js';
import { EXIT, printError, printJson } from './io.js';

function issueJson(issue: ValidationIssue): Record<string, unknown> {
  return { code: issue.code, message: issue.message, pattern: issue.pattern ?? null, line: issue.line ?? null, section: issue.section ?? null };
}

/** A validation report as --json prints it. */
export function validationJson(report: ValidationReport | null): Record<string, unknown> | null {
  if (!report) return null;
  return { mode: report.mode, ok: report.ok, tokens: report.tokens, errors: report.errors.map(issueJson), warnings: report.warnings.map(issueJson) };
}

/** Where the brief's working memory came from, as --json prints it. */
export function gapJson(prepared: PreparedHandoff | null): Record<string, unknown> | null {
  if (!prepared) return null;
  const memory = prepared.brief.workingMemory;
  return {
    status: memory.status,
    reason: memory.status === 'missing' ? memory.reason : null,
    source: prepared.gapSource.kind,
    from: prepared.gapSource.kind === 'none' ? null : prepared.gapSource.briefId,
  };
}

/** Prints a validation report's errors and warnings on stderr. */
export function printIssues(report: ValidationReport | null): void {
  if (!report) return;
  for (const e of report.errors) printError(`  ✘ ${e.code}: ${e.message}`);
  for (const w of report.warnings) printError(`  ! ${w.code}: ${w.message}`);
}

/** Where the brief's working memory came from, for people. */
export function describeGap(prepared: PreparedHandoff): string {
  const memory = prepared.brief.workingMemory;
  if (memory.status === 'provided') return `working memory from ${memory.briefId} (captured ${memory.capturedAt})`;
  return `no working memory (${memory.reason}): placeholder rendered`;
}

/** Ends a failed step: human lines or one JSON object, exit 1. */
export function reportFailure(outcome: Extract<HandoffOutcome<unknown>, { ok: false }>, prepared: PreparedHandoff | null, json: boolean): void {
  if (json) {
    printJson({
      status: outcome.error.code === 'BRIEF_REFUSED' ? 'refused' : 'failed',
      briefId: prepared?.brief.briefId ?? null,
      error: { code: outcome.error.code, message: outcome.error.message },
      validation: validationJson(outcome.validation),
      gapFill: gapJson(prepared),
    });
  } else {
    printError(`✘ ${outcome.error.code}: ${outcome.error.message}`);
    printIssues(outcome.validation);
  }
  process.exitCode = EXIT.failed;
}
