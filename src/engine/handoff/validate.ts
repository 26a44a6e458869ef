// Brief validation (D-09). STRICT, used before a dispatch: required sections, the hard token cap
// (refused unless forced) and secrets. PERMISSIVE, used when only saving: secrets, plus a
// soft-cap warning. A secret fails both modes and `force` never overrides it. Secrets are found by
// engine/secrets, the one detector.
import { findSecrets, type SecretFindingId } from '../secrets/index.js';
import { estimateTokens } from './token-estimate.js';
import { BRIEF_SECTIONS, HANDOFF_BRIEF_SCHEMA_VERSION, HARD_TOKEN_CAP, SECTION_TITLES, SOFT_TOKEN_CAP } from './types.js';

export type ValidationMode = 'strict' | 'permissive';

export type ValidationCode = 'SECRET_DETECTED' | 'SECTION_MISSING' | 'SCHEMA_VERSION_INVALID' | 'HARD_CAP_EXCEEDED' | 'SOFT_CAP_EXCEEDED';

export interface ValidationIssue {
  readonly code: ValidationCode;
  readonly message: string;
  /** For SECRET_DETECTED: the id of the rule that matched (the matched text is never kept). */
  readonly pattern?: SecretFindingId;
  readonly line?: number;
  readonly section?: string;
}

export interface ValidationReport {
  readonly mode: ValidationMode;
  /** True when nothing blocks the brief in this mode. */
  readonly ok: boolean;
  readonly tokens: number;
  readonly errors: readonly ValidationIssue[];
  readonly warnings: readonly ValidationIssue[];
}

export interface ValidateOptions {
  readonly mode: ValidationMode;
  /** Lets a STRICT brief over the hard cap through (as a warning). Never lets a secret through. */
  readonly force?: boolean;
}

/** The `## ` heading a line belongs to, for telling people where a finding is. */
function sectionAt(lines: readonly string[], lineNumber: number): string {
  for (let i = lineNumber - 1; i >= 0; i -= 1) {
    const m = /^## (.+)$/.exec(lines[i]!);
    if (m) return m[1]!.trim();
  }
  return 'header';
}

/** Checks a rendered brief in the given mode. */
export function validateBrief(markdown: string, options: ValidateOptions): ValidationReport {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const tokens = estimateTokens(markdown);
  const lines = markdown.split('\n');

  const reported = new Set<string>();
  for (const finding of findSecrets(markdown)) {
    // One finding per rule and line: a line with two tokens of one kind is one thing to fix.
    const key = `${finding.ruleId}:${finding.line}`;
    if (reported.has(key)) continue;
    reported.add(key);
    const section = sectionAt(lines, finding.line);
    errors.push({
      code: 'SECRET_DETECTED',
      pattern: finding.ruleId,
      line: finding.line,
      section,
      message: `Line ${finding.line} (section "${section}") matches the secret rule "${finding.ruleId}". Remove the secret from the record it comes from; this check has no override.`,
    });
  }

  if (options.mode === 'strict') {
    const version = /^\*\*Schema version:\*\* (\S+)\s*$/m.exec(markdown)?.[1];
    if (version !== String(HANDOFF_BRIEF_SCHEMA_VERSION)) {
      errors.push({ code: 'SCHEMA_VERSION_INVALID', message: `The brief must carry "**Schema version:** ${HANDOFF_BRIEF_SCHEMA_VERSION}" in its header${version ? ` (found ${version})` : ''}.` });
    }
    const headings = lines.filter((l) => /^## /.test(l)).map((l) => l.slice(3).trim());
    let from = 0;
    for (const id of BRIEF_SECTIONS) {
      const at = headings.indexOf(SECTION_TITLES[id], from);
      if (at === -1) errors.push({ code: 'SECTION_MISSING', section: SECTION_TITLES[id], message: `Required section "## ${SECTION_TITLES[id]}" is missing or out of order.` });
      else from = at + 1;
    }
    if (tokens > HARD_TOKEN_CAP) {
      const issue = { code: 'HARD_CAP_EXCEEDED' as const, message: `The brief is about ${tokens} tokens, over the hard cap of ${HARD_TOKEN_CAP}.` };
      if (options.force) warnings.push({ ...issue, message: `${issue.message} Sent anyway (--force).` });
      else errors.push({ ...issue, message: `${issue.message} Trim the project's handoff budgets, or pass --force to send it anyway.` });
    }
  }

  if (tokens > SOFT_TOKEN_CAP && !(options.mode === 'strict' && tokens > HARD_TOKEN_CAP)) {
    const over = tokens > HARD_TOKEN_CAP ? ` and the hard cap of ${HARD_TOKEN_CAP} (a dispatch would need --force)` : '';
    warnings.push({ code: 'SOFT_CAP_EXCEEDED', message: `The brief is about ${tokens} tokens, over the soft cap of ${SOFT_TOKEN_CAP}${over}.` });
  }

  return { mode: options.mode, ok: errors.length === 0, tokens, errors, warnings };
}
