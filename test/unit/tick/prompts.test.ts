import { describe, expect, it } from 'vitest';
import { BUILDER_USER, fillTemplate, ORCHESTRATOR_USER, withRetryReason } from '../../../src/engine/tick/prompts.js';
import { summariseRepo } from '../../../src/engine/tick/inputs.js';

describe('prompt templates', () => {
  it('fill every placeholder once, without expanding values', () => {
    expect(fillTemplate('a {{X}} b {{X}} {{Y}}', { X: '{{Y}}', Y: 'y' })).toBe('a {{Y}} b {{Y}} y');
    expect(fillTemplate('{{UNKNOWN}}', {})).toBe('{{UNKNOWN}}');
  });

  it('the orchestrator and builder templates use the documented placeholders', () => {
    const names = (t: string) => [...t.matchAll(/\{\{([A-Z_]+)\}\}/g)].map((m) => m[1]).sort();
    expect(names(ORCHESTRATOR_USER)).toEqual(['BLOCKED_JSON_OR_EMPTY', 'BUDGETS_SUMMARY', 'FACTS_MD', 'LAST_REPORT_MD', 'MILESTONE_ID', 'PROJECT_GOAL', 'REPO_SUMMARY', 'SCOPE_DEFAULTS', 'TASK_SCHEMA', 'VERIFY_TEMPLATE_IDS']);
    expect(names(BUILDER_USER)).toEqual(['ALLOWED_GLOBS', 'ALLOW_LOCKFILE_CHANGES', 'ALLOW_NEW_FILES', 'BUILDER_RESULT_SCHEMA', 'FORBIDDEN_GLOBS', 'MAX_FILES_TOUCHED', 'MAX_LINES_CHANGED', 'TASK_JSON']);
  });

  it('the retry prompt is the first prompt plus the reason', () => {
    const retry = withRetryReason('first', '- not JSON');
    expect(retry.startsWith('first')).toBe(true);
    expect(retry).toContain('- not JSON');
  });

  it('summarises the repository layout briefly', () => {
    const summary = summariseRepo('refs/heads/main', 'abc123 init', ['src/a.ts', 'src/b/c.ts', 'README.md']);
    expect(summary).toBe('branch: main\nlast commit: abc123 init\ntracked files: 3\ntop level: README.md, src/ (2 files)');
  });
});
