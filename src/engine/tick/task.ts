// The shapes of the two JSON documents Claude writes, as TypeScript types. They are checked
// against the JSON Schemas (validate.ts) before the runner reads them as these types.

export type TaskKind = 'execute' | 'verify_only' | 'question';
export type BuilderMode = 'claude_code' | 'patch';
export type ParamValue = string | number | boolean | null;

/** One TASK, proposed by the orchestrator and validated against task.schema.json. */
export interface Task {
  readonly task_id: string;
  readonly milestone_id: string;
  readonly task_kind: TaskKind;
  readonly intent: string;
  readonly question?: { readonly prompt: string; readonly choices?: readonly string[] };
  readonly scope: {
    readonly allowed_globs: readonly string[];
    readonly forbidden_globs: readonly string[];
    readonly allow_new_files: boolean;
    readonly allow_lockfile_changes: boolean;
  };
  readonly diff_limits: { readonly max_files_touched: number; readonly max_lines_changed: number };
  readonly verification: {
    readonly fast: readonly string[];
    readonly slow: readonly string[];
    readonly params?: Readonly<Record<string, Readonly<Record<string, ParamValue>>>>;
  };
  readonly builder: { readonly mode: BuilderMode; readonly max_turns: number; readonly instructions: string; readonly patch?: string };
}

/** The builder's final answer, validated against builder_result.schema.json. */
export interface BuilderResult {
  readonly summary: string;
  readonly files_intended: readonly string[];
  readonly commands_ran: readonly string[];
  readonly notes: readonly string[];
}
