import { describe, expect, it } from 'vitest';
import { defaultTickConfig } from '../../../src/engine/tick/config.js';
import { validateTask } from '../../../src/engine/tick/orchestrate.js';
import { TASK_SCHEMA } from '../../../src/engine/tick/schemas.js';
import { ZERO_COUNTERS } from '../../../src/engine/tick/state.js';
import type { Task } from '../../../src/engine/tick/task.js';
import { newRunId } from '../../../src/engine/tick/tick.js';
import { compileSchema } from '../../../src/engine/tick/validate.js';
import { displayCommand } from '../../../src/engine/tick/verify.js';

const compiled = compileSchema<Task>(TASK_SCHEMA);
if (!compiled.ok) throw new Error(compiled.error.message);
const checkTask = compiled.value;
const config = defaultTickConfig();

const task = {
  task_id: 'T-1',
  milestone_id: 'M1',
  task_kind: 'execute',
  intent: 'x',
  scope: { allowed_globs: ['src/**'], forbidden_globs: ['docs/**'], allow_new_files: false, allow_lockfile_changes: false },
  diff_limits: { max_files_touched: 3, max_lines_changed: 30 },
  verification: { fast: ['lint'], slow: ['test'] },
  builder: { mode: 'claude_code', max_turns: 4, instructions: 'do it' },
};
const validate = (value: unknown, used = ZERO_COUNTERS, cfg = config) => validateTask(typeof value === 'string' ? value : JSON.stringify(value), checkTask, cfg, 'M1', used);

describe('validateTask()', () => {
  it('accepts a valid TASK, also inside one Markdown fence', () => {
    expect(validate(task)).toMatchObject({ ok: true, task: { task_id: 'T-1' } });
    expect(validate('```json\n' + JSON.stringify(task) + '\n```').ok).toBe(true);
  });

  it('names the problem for the retry prompt', () => {
    expect(validate('{"task_id":')).toMatchObject({ ok: false, problems: [expect.stringContaining('not JSON')] });
    expect(validate({ ...task, intent: '' })).toEqual({ ok: false, problems: ['task.schema.json: /intent: must NOT have fewer than 1 characters'] });
    expect(validate({ ...task, milestone_id: 'M2' })).toEqual({ ok: false, problems: ['milestone_id must be "M1" (the current milestone), not "M2"'] });
    expect(validate({ ...task, scope: { ...task.scope, allowed_globs: ['/etc/**'] } })).toEqual({ ok: false, problems: ['glob "/etc/**" is absolute; globs are relative to the repository root'] });
    expect(validate({ ...task, verification: { fast: ['lint'], slow: ['lint'] } })).toEqual({ ok: false, problems: ['verification lists lint more than once; run each template at most once per tick'] });
  });

  it('allows patch mode only when enabled and attempts are left', () => {
    const patchTask = { ...task, builder: { ...task.builder, mode: 'patch', patch: 'diff' } };
    expect(validate(patchTask).ok).toBe(true);
    expect(validate(patchTask, { ...ZERO_COUNTERS, patch_attempts: 10 })).toMatchObject({ ok: false, problems: [expect.stringContaining('no patch attempts are left')] });
    expect(validate(patchTask, ZERO_COUNTERS, { ...config, builder: { ...config.builder, allow_patch_mode: false } })).toMatchObject({ ok: false, problems: [expect.stringContaining('disabled')] });
  });
});

describe('small helpers', () => {
  it('run ids sort by time and are long enough for the report schema', () => {
    const id = newRunId(new Date('2025-01-02T03:04:05.678Z'));
    expect(id).toMatch(/^20250102T030405Z-[0-9a-f]{6}$/);
    expect(newRunId(new Date('2025-01-02T03:04:06.000Z')) > id).toBe(true);
  });

  it('verify.log shows commands quoted for reading only', () => {
    expect(displayCommand('pnpm', ['-w', 'test', '--filter', 'web'])).toBe('pnpm -w test --filter web');
    expect(displayCommand('node', ['-e', "console.log('a b')"])).toBe(`node -e 'console.log('\\''a b'\\'')'`);
  });
});
