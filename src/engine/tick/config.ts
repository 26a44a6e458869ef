import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { fail, ok, type Result } from '../result.js';
import { TICK_CONFIG_FILE } from './names.js';

export { TICK_CONFIG_FILE } from './names.js';

/** A root-relative path written in the config: no absolute paths, no `..`. */
const RelativePath = z
  .string()
  .min(1)
  .max(300)
  .refine((p) => !path.isAbsolute(p) && !p.startsWith('~') && !p.split(/[\\/]/).includes('..'), 'must be a path relative to the repository root, without ".."');

const Counter = z.number().int().min(0);
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

const TemplateSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'must be 1-64 letters, digits, "_", "." or "-"'),
    cmd: z.string().min(1).max(120),
    args: z.array(z.string().max(200)).max(40).default([]),
    params: z.record(z.string().regex(/^[A-Za-z0-9_]{1,64}$/), z.object({ kind: z.enum(['string_token', 'path']) }).strict()).optional(),
  })
  .strict()
  .superRefine((template, ctx) => {
    if (/\{\{/.test(template.cmd)) ctx.addIssue({ code: 'custom', path: ['cmd'], message: 'the command itself cannot hold a {{param}}; put parameters in args' });
    for (const arg of template.args) {
      for (const match of arg.matchAll(PLACEHOLDER)) {
        if (!(match[1]! in (template.params ?? {}))) ctx.addIssue({ code: 'custom', path: ['args'], message: `{{${match[1]}}} is not declared in params` });
      }
    }
  });

const DEFAULT_RUNNER_OWNED = [
  'relais/STATE.json',
  'relais/TASK.json',
  'relais/REPORT.json',
  'relais/REPORT.md',
  'relais/BLOCKED.json',
  'relais/FACTS.md',
  'relais/history/**',
  'relais/lock.json',
  'relais/schemas/**',
  'relais/prompts/**',
];

const DEFAULT_TEMPLATES: { id: string; cmd: string; args: string[]; params?: Record<string, { kind: 'string_token' | 'path' }> }[] = [
  { id: 'lint', cmd: 'pnpm', args: ['-w', 'lint'] },
  { id: 'typecheck', cmd: 'pnpm', args: ['-w', 'typecheck'] },
  { id: 'test', cmd: 'pnpm', args: ['-w', 'test'] },
  { id: 'test_filter', cmd: 'pnpm', args: ['-w', 'test', '--filter', '{{pkg}}'], params: { pkg: { kind: 'string_token' } } },
];

export const TickConfigSchema = z
  .object({
    version: z.literal('1.0').default('1.0'),
    product_name: z.string().default('relais'),
    workspace_dir: RelativePath.default('relais'),
    // Not in the spec's file: the goal and the current milestone have to come from the user.
    project: z
      .object({
        goal: z.string().max(4000).default(''),
        milestone_id: z.string().min(1).max(80).default('M1'),
      })
      .strict()
      .prefault({}),
    runner: z
      .object({
        require_git: z.literal(true, 'Relais judges changes from git: require_git must be true').default(true),
        max_tick_seconds: z.number().int().min(1).max(86_400).default(900),
        lockfile: RelativePath.default('relais/lock.json'),
        runner_owned_globs: z.array(z.string().min(1)).default(DEFAULT_RUNNER_OWNED),
        crash_cleanup: z
          .object({
            delete_tmp_glob: z.string().min(1).default('relais/*.tmp'),
            validate_runner_json_files: z.boolean().default(true),
          })
          .strict()
          .prefault({}),
        render_report_md: z
          .object({
            enabled: z.boolean().default(true),
            max_chars: z.number().int().min(500).max(1_000_000).default(6000),
          })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    claude_code_cli: z
      .object({
        command: z.string().min(1).default('claude'),
        output_format: z.literal('json').default('json'),
        no_session_persistence: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    models: z
      .object({
        orchestrator_model: z.string().min(1).default('opus'),
        orchestrator_fallback_model: z.string().default('sonnet'),
        builder_model: z.string().min(1).default('sonnet'),
        builder_fallback_model: z.string().default('haiku'),
      })
      .strict()
      .prefault({}),
    orchestrator: z
      .object({
        max_turns: z.number().int().min(1).max(40).default(1),
        permission_mode: z.string().min(1).default('plan'),
        allowed_tools: z.string().default(''),
        system_prompt_file: RelativePath.default('relais/prompts/orchestrator.system.txt'),
        user_prompt_file: RelativePath.default('relais/prompts/orchestrator.user.txt'),
        task_schema_file: RelativePath.default('relais/schemas/task.schema.json'),
        max_parse_retries_per_tick: z.number().int().min(0).max(1).default(1),
        max_budget_usd: z.number().min(0).default(0.4),
      })
      .strict()
      .prefault({}),
    builder: z
      .object({
        default_mode: z.enum(['claude_code', 'patch']).default('claude_code'),
        allow_patch_mode: z.boolean().default(true),
        claude_code: z
          .object({
            max_turns: z.number().int().min(1).max(200).default(8),
            permission_mode: z.string().min(1).default('bypassPermissions'),
            allowed_tools: z.string().default('Read,Edit,Glob,Grep,Bash'),
            system_prompt_file: RelativePath.default('relais/prompts/builder.system.txt'),
            user_prompt_file: RelativePath.default('relais/prompts/builder.user.txt'),
            builder_result_schema_file: RelativePath.default('relais/schemas/builder_result.schema.json'),
            max_budget_usd: z.number().min(0).default(1.5),
            strict_builder_json: z.boolean().default(false),
          })
          .strict()
          .prefault({}),
        patch: z
          .object({ max_patch_attempts_per_milestone: Counter.default(10) })
          .strict()
          .prefault({}),
      })
      .strict()
      .prefault({}),
    scope: z
      .object({
        default_allowed_globs: z.array(z.string().min(1)).default(['src/**', 'app/**', 'packages/**', 'tests/**', 'README.md']),
        default_forbidden_globs: z.array(z.string().min(1)).default(['.git/**', 'relais/**', '**/.env*', '**/*secret*', '**/*token*', '**/node_modules/**']),
        default_allow_new_files: z.boolean().default(false),
        default_allow_lockfile_changes: z.boolean().default(false),
        lockfiles: z.array(z.string().min(1)).default(['pnpm-lock.yaml', 'package-lock.json', 'yarn.lock', 'bun.lockb']),
      })
      .strict()
      .prefault({}),
    diff_limits: z
      .object({
        default_max_files_touched: z.number().int().min(1).default(12),
        default_max_lines_changed: z.number().int().min(1).default(400),
      })
      .strict()
      .prefault({}),
    verification: z
      .object({
        execution_mode: z.literal('argv_no_shell').default('argv_no_shell'),
        max_param_len: z.number().int().min(1).max(4096).default(128),
        reject_whitespace_in_params: z.boolean().default(true),
        reject_dotdot: z.boolean().default(true),
        reject_metachars_regex: z
          .string()
          .default('[;&|$\\\\><(){}\\[\\]`\\n\\r\\t\\0]')
          .refine((source) => {
            try {
              new RegExp(source);
              return true;
            } catch {
              return false;
            }
          }, 'must be a valid regular expression'),
        timeout_fast_seconds: z.number().int().min(1).default(90),
        timeout_slow_seconds: z.number().int().min(1).default(600),
        templates: z.array(TemplateSchema).max(200).default(DEFAULT_TEMPLATES),
      })
      .strict()
      .prefault({})
      .superRefine((verification, ctx) => {
        const seen = new Set<string>();
        for (const template of verification.templates) {
          if (seen.has(template.id)) ctx.addIssue({ code: 'custom', path: ['templates'], message: `template id "${template.id}" is defined twice` });
          seen.add(template.id);
        }
      }),
    budgets: z
      .object({
        per_milestone: z
          .object({
            max_ticks: Counter.default(200),
            max_orchestrator_calls: Counter.default(260),
            max_builder_calls: Counter.default(200),
            max_verify_runs: Counter.default(600),
            max_estimated_cost_usd: z.number().min(0).default(80),
          })
          .strict()
          .prefault({}),
        warn_at_fraction: z.number().gt(0).max(1).default(0.8),
      })
      .strict()
      .prefault({}),
    history: z
      .object({
        enabled: z.boolean().default(true),
        dir: RelativePath.default('relais/history'),
        max_mb: z.number().positive().default(500),
        include_diff_patch: z.boolean().default(true),
        include_verify_log: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type TickConfig = z.infer<typeof TickConfigSchema>;
export type VerificationTemplate = TickConfig['verification']['templates'][number];

/** The config with every default, as `relais init` writes it. */
export function defaultTickConfig(): TickConfig {
  return TickConfigSchema.parse({});
}

/** Validates a parsed config object and fills in the defaults. */
export function parseTickConfig(data: unknown): Result<TickConfig, 'CONFIG_INVALID'> {
  const parsed = TickConfigSchema.safeParse(data);
  if (parsed.success) return ok(parsed.data);
  const lines = parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(top level)'}: ${issue.message}`);
  return fail('CONFIG_INVALID', `${TICK_CONFIG_FILE} is invalid:\n  ${lines.join('\n  ')}`);
}

export type ConfigLoadCode = 'CONFIG_MISSING' | 'CONFIG_UNREADABLE' | 'CONFIG_INVALID';

/** Reads and validates `relais.config.json` at `root`. */
export function loadTickConfig(root: string): Result<TickConfig, ConfigLoadCode> {
  const file = path.join(root, TICK_CONFIG_FILE);
  if (!existsSync(file)) return fail('CONFIG_MISSING', `There is no ${TICK_CONFIG_FILE} in ${root}. Run \`relais init\` in the repository root first.`);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail('CONFIG_UNREADABLE', `${TICK_CONFIG_FILE} cannot be read as JSON: ${(error as Error).message}`);
  }
  return parseTickConfig(data);
}
