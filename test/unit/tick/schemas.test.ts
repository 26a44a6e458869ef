import { describe, expect, it } from 'vitest';
import { BUILDER_RESULT_SCHEMA, REPORT_SCHEMA, TASK_SCHEMA } from '../../../src/engine/tick/schemas.js';
import type { BuilderResult, Task } from '../../../src/engine/tick/task.js';
import { compileSchema } from '../../../src/engine/tick/validate.js';

function compiled<T>(schema: unknown) {
  const result = compileSchema<T>(schema);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}

const checkTask = compiled<Task>(TASK_SCHEMA);
const checkResult = compiled<BuilderResult>(BUILDER_RESULT_SCHEMA);

const task = {
  task_id: 'T-1',
  milestone_id: 'M1',
  task_kind: 'execute',
  intent: 'x',
  scope: { allowed_globs: ['src/**'], forbidden_globs: [], allow_new_files: false, allow_lockfile_changes: false },
  diff_limits: { max_files_touched: 3, max_lines_changed: 30 },
  verification: { fast: ['lint'], slow: [], params: { lint: { a: 'x', b: 1, c: true, d: null } } },
  builder: { mode: 'claude_code', max_turns: 4, instructions: 'do it' },
};

describe('the shipped JSON Schemas (draft 2020-12, ajv)', () => {
  it('all three compile', () => {
    for (const schema of [TASK_SCHEMA, BUILDER_RESULT_SCHEMA, REPORT_SCHEMA]) expect(compileSchema(schema).ok).toBe(true);
  });

  it('accept a valid TASK and report what is wrong with invalid ones', () => {
    expect(checkTask(task).ok).toBe(true);
    expect(checkTask({ ...task, extra: 1 })).toEqual({ ok: false, errors: ['(root): must NOT have additional properties (extra)'] });
    expect(checkTask({ ...task, scope: { ...task.scope, allowed_globs: [] } })).toEqual({ ok: false, errors: ['/scope/allowed_globs: must NOT have fewer than 1 items'] });
    expect(checkTask({ ...task, builder: { ...task.builder, max_turns: 41 } }).ok).toBe(false);
    expect(checkTask({ ...task, verification: { fast: [], slow: [], params: { x: { y: [1] } } } }).ok).toBe(false);
  });

  it('require `question` for question tasks', () => {
    expect(checkTask({ ...task, task_kind: 'question' }).ok).toBe(false);
    expect(checkTask({ ...task, task_kind: 'question', question: { prompt: 'Which?' } }).ok).toBe(true);
  });

  it('require `patch` in patch mode and keep question tasks on claude_code (the rule sits at the top level)', () => {
    expect(checkTask({ ...task, builder: { ...task.builder, mode: 'patch' } }).ok).toBe(false);
    expect(checkTask({ ...task, builder: { ...task.builder, mode: 'patch', patch: 'diff' } }).ok).toBe(true);
    expect(checkTask({ ...task, task_kind: 'question', question: { prompt: 'q' }, builder: { ...task.builder, mode: 'patch', patch: 'diff' } }).ok).toBe(false);
  });

  it('check builder results', () => {
    expect(checkResult({ summary: 's', files_intended: [], commands_ran: [], notes: [] }).ok).toBe(true);
    expect(checkResult({ summary: '', files_intended: [], commands_ran: [], notes: [] }).ok).toBe(false);
    expect(checkResult({ summary: 's' }).ok).toBe(false);
  });

  it('refuse a schema that is not a schema', () => {
    expect(compileSchema({ type: 'objekt' }).ok).toBe(false);
  });
});
