// The three JSON Schemas (draft 2020-12) of the Relais contract, shipped as data: `relais init`
// writes them to relais/schemas/, the runner validates TASK and builder output against the
// files the config names, and validates its own REPORT.json against REPORT_SCHEMA.
import { TICK_CODES } from './codes.js';

const shortStrings = (maxLength: number, maxItems: number) =>
  ({ type: 'array', items: { type: 'string', minLength: 1, maxLength }, minItems: 0, maxItems }) as const;

export const TASK_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://relais.local/schemas/task.schema.json',
  title: 'Relais Task',
  type: 'object',
  additionalProperties: false,
  required: ['task_id', 'milestone_id', 'task_kind', 'intent', 'scope', 'diff_limits', 'verification', 'builder'],
  properties: {
    task_id: { type: 'string', minLength: 1, maxLength: 80 },
    milestone_id: { type: 'string', minLength: 1, maxLength: 80 },
    task_kind: { type: 'string', enum: ['execute', 'verify_only', 'question'] },
    intent: { type: 'string', minLength: 1, maxLength: 1200 },
    question: {
      type: 'object',
      additionalProperties: false,
      required: ['prompt'],
      properties: {
        prompt: { type: 'string', minLength: 1, maxLength: 2000 },
        choices: shortStrings(200, 12),
      },
    },
    scope: {
      type: 'object',
      additionalProperties: false,
      required: ['allowed_globs', 'forbidden_globs', 'allow_new_files', 'allow_lockfile_changes'],
      properties: {
        allowed_globs: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 200 }, minItems: 1, maxItems: 64 },
        forbidden_globs: shortStrings(200, 64),
        allow_new_files: { type: 'boolean' },
        allow_lockfile_changes: { type: 'boolean' },
      },
    },
    diff_limits: {
      type: 'object',
      additionalProperties: false,
      required: ['max_files_touched', 'max_lines_changed'],
      properties: {
        max_files_touched: { type: 'integer', minimum: 1, maximum: 500 },
        max_lines_changed: { type: 'integer', minimum: 1, maximum: 20000 },
      },
    },
    verification: {
      type: 'object',
      additionalProperties: false,
      required: ['fast', 'slow'],
      properties: {
        fast: shortStrings(64, 16),
        slow: shortStrings(64, 16),
        params: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
          },
        },
      },
    },
    builder: {
      type: 'object',
      additionalProperties: false,
      required: ['mode', 'max_turns', 'instructions'],
      properties: {
        mode: { type: 'string', enum: ['claude_code', 'patch'] },
        max_turns: { type: 'integer', minimum: 1, maximum: 40 },
        instructions: { type: 'string', minLength: 1, maxLength: 4000 },
        patch: { type: 'string', minLength: 1, maxLength: 500000 },
      },
      allOf: [{ if: { properties: { mode: { const: 'patch' } } }, then: { required: ['patch'] } }],
    },
  },
  // The spec nests the "question tasks use claude_code" rule inside `builder`, where task_kind
  // never exists, so it would forbid patch mode for every task. It belongs here, at the top.
  allOf: [
    { if: { properties: { task_kind: { const: 'question' } } }, then: { required: ['question'] } },
    { if: { properties: { task_kind: { const: 'question' } } }, then: { properties: { builder: { properties: { mode: { const: 'claude_code' } } } } } },
  ],
} as const;

export const BUILDER_RESULT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://relais.local/schemas/builder_result.schema.json',
  title: 'Relais Builder Result',
  type: 'object',
  additionalProperties: false,
  required: ['summary', 'files_intended', 'commands_ran', 'notes'],
  properties: {
    summary: { type: 'string', minLength: 1, maxLength: 800 },
    files_intended: shortStrings(300, 200),
    commands_ran: shortStrings(300, 50),
    notes: shortStrings(300, 20),
  },
} as const;

const counter = { type: 'integer', minimum: 0 } as const;

export const REPORT_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://relais.local/schemas/report.schema.json',
  title: 'Relais Report',
  type: 'object',
  additionalProperties: false,
  required: ['run_id', 'started_at', 'ended_at', 'duration_ms', 'base_commit', 'head_commit', 'task', 'verdict', 'code', 'blast_radius', 'scope', 'diff', 'verification', 'budgets'],
  properties: {
    run_id: { type: 'string', minLength: 8, maxLength: 80 },
    started_at: { type: 'string', format: 'date-time' },
    ended_at: { type: 'string', format: 'date-time' },
    duration_ms: counter,
    base_commit: { type: 'string', minLength: 7, maxLength: 64 },
    head_commit: { type: 'string', minLength: 7, maxLength: 64 },
    task: {
      type: 'object',
      additionalProperties: false,
      required: ['task_id', 'milestone_id', 'task_kind', 'intent'],
      properties: {
        task_id: { type: 'string' },
        milestone_id: { type: 'string' },
        task_kind: { type: 'string', enum: ['execute', 'verify_only', 'question'] },
        intent: { type: 'string' },
      },
    },
    verdict: { type: 'string', enum: ['success', 'stop', 'blocked'] },
    code: { type: 'string', enum: [...TICK_CODES] },
    blast_radius: {
      type: 'object',
      additionalProperties: false,
      required: ['files_touched', 'lines_added', 'lines_deleted', 'new_files'],
      properties: { files_touched: counter, lines_added: counter, lines_deleted: counter, new_files: counter },
    },
    scope: {
      type: 'object',
      additionalProperties: false,
      required: ['ok', 'violations', 'touched_paths'],
      properties: {
        ok: { type: 'boolean' },
        violations: shortStrings(200, 200),
        touched_paths: shortStrings(400, 500),
      },
    },
    diff: {
      type: 'object',
      additionalProperties: false,
      required: ['files_changed', 'lines_changed', 'diff_patch_path'],
      properties: {
        files_changed: counter,
        lines_changed: counter,
        diff_patch_path: { type: 'string', minLength: 1, maxLength: 300 },
      },
    },
    verification: {
      type: 'object',
      additionalProperties: false,
      required: ['exec_mode', 'runs', 'verify_log_path'],
      properties: {
        exec_mode: { type: 'string', enum: ['argv_no_shell'] },
        runs: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['template_id', 'phase', 'cmd', 'args', 'exit_code', 'duration_ms', 'timed_out'],
            properties: {
              template_id: { type: 'string', minLength: 1, maxLength: 64 },
              phase: { type: 'string', enum: ['fast', 'slow'] },
              cmd: { type: 'string', minLength: 1, maxLength: 120 },
              args: { type: 'array', items: { type: 'string', maxLength: 200 }, minItems: 0, maxItems: 40 },
              exit_code: { type: 'integer', minimum: -1, maximum: 255 },
              duration_ms: counter,
              timed_out: { type: 'boolean' },
            },
          },
          minItems: 0,
          maxItems: 40,
        },
        verify_log_path: { type: 'string', minLength: 1, maxLength: 300 },
      },
    },
    budgets: {
      type: 'object',
      additionalProperties: false,
      required: ['milestone_id', 'ticks', 'orchestrator_calls', 'builder_calls', 'verify_runs', 'estimated_cost_usd', 'warnings'],
      properties: {
        milestone_id: { type: 'string' },
        ticks: counter,
        orchestrator_calls: counter,
        builder_calls: counter,
        verify_runs: counter,
        estimated_cost_usd: { type: 'number', minimum: 0 },
        warnings: shortStrings(200, 20),
      },
    },
    pointers: {
      type: 'object',
      additionalProperties: false,
      properties: {
        report_md_path: { type: 'string' },
        history_dir: { type: 'string' },
      },
    },
  },
} as const;

/** The schema files `relais init` writes, by file name under relais/schemas/. */
export const SCHEMA_FILES = {
  'task.schema.json': TASK_SCHEMA,
  'builder_result.schema.json': BUILDER_RESULT_SCHEMA,
  'report.schema.json': REPORT_SCHEMA,
} as const;

/** How a shipped schema is written to disk (stable bytes, so a re-init changes nothing). */
export function schemaFileText(schema: unknown): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
