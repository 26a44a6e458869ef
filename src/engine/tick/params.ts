// Verification planning, pure: resolve template ids, check every parameter VALUE against the
// taint rules, expand {{param}} placeholders. A template's own fixed args are never checked:
// they come from the user's config, not from the model.
import type { TickConfig, VerificationTemplate } from './config.js';
import type { ParamValue, Task } from './task.js';

/** The taint rules of the config's verification section. */
export interface ParamRules {
  readonly maxLen: number;
  readonly rejectWhitespace: boolean;
  readonly rejectDotdot: boolean;
  readonly metachars: RegExp;
}

/** One command to run, fully expanded. */
export interface PlannedRun {
  readonly templateId: string;
  readonly phase: 'fast' | 'slow';
  readonly cmd: string;
  readonly args: readonly string[];
  readonly timeoutMs: number;
}

export type VerificationPlan = { readonly ok: true; readonly runs: readonly PlannedRun[] } | { readonly ok: false; readonly taints: readonly string[] };

/** The taint rules from the config. */
export function paramRulesOf(config: TickConfig): ParamRules {
  const v = config.verification;
  return { maxLen: v.max_param_len, rejectWhitespace: v.reject_whitespace_in_params, rejectDotdot: v.reject_dotdot, metachars: new RegExp(v.reject_metachars_regex) };
}

/**
 * Why a parameter value is tainted (every rule it breaks, joined), or null when it is safe.
 * `isInsideRoot` decides for values of kind path whether they resolve inside the repository root.
 */
export function taintOf(value: ParamValue | undefined, kind: 'string_token' | 'path', rules: ParamRules, isInsideRoot: (p: string) => boolean): string | null {
  if (value === undefined) return 'has no value';
  if (value === null) return 'is null';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'is not a finite number';
  const text = String(value);
  if (text.length === 0) return 'is empty';
  const reasons: string[] = [];
  if (text.length > rules.maxLen) reasons.push(`is longer than ${rules.maxLen} characters`);
  if (rules.rejectWhitespace && /\s/.test(text)) reasons.push('contains whitespace');
  if (rules.rejectDotdot && text.includes('..')) reasons.push('contains ".."');
  if (rules.metachars.test(text)) reasons.push('contains a shell metacharacter');
  // Not in the spec's list, but the same spirit: a value starting with "-" would be read as an option.
  if (text.startsWith('-')) reasons.push('starts with "-" (it would be read as an option)');
  if (kind === 'path' && reasons.length === 0 && !isInsideRoot(text)) reasons.push('does not resolve inside the repository root');
  return reasons.length > 0 ? reasons.join(', ') : null;
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** Every id the task lists, with its phase, in running order (fast first). */
function listed(task: Task): { id: string; phase: 'fast' | 'slow' }[] {
  return [...task.verification.fast.map((id) => ({ id, phase: 'fast' as const })), ...task.verification.slow.map((id) => ({ id, phase: 'slow' as const }))];
}

/**
 * Plans the task's verifications. Any unknown template id or tainted value makes the whole
 * plan tainted: nothing may run then.
 */
export function planVerification(
  task: Task,
  templates: readonly VerificationTemplate[],
  rules: ParamRules,
  timeouts: { readonly fastMs: number; readonly slowMs: number },
  isInsideRoot: (p: string) => boolean,
): VerificationPlan {
  const byId = new Map(templates.map((t) => [t.id, t]));
  const taints: string[] = [];
  const runs: PlannedRun[] = [];
  const given = task.verification.params ?? {};
  for (const { id, phase } of listed(task)) {
    const template = byId.get(id);
    if (!template) {
      taints.push(`verification template "${id}" is not defined in relais.config.json`);
      continue;
    }
    const values = given[id] ?? {};
    for (const name of Object.keys(values)) {
      if (!(name in (template.params ?? {}))) taints.push(`param "${name}" is not declared by template "${id}"`);
    }
    const expanded: string[] = [];
    for (const arg of template.args) {
      expanded.push(
        arg.replace(PLACEHOLDER, (_whole, name: string) => {
          const declared = template.params?.[name];
          const value = values[name];
          const taint = declared ? taintOf(value, declared.kind, rules, isInsideRoot) : 'is not declared';
          if (taint) {
            taints.push(`param "${name}" of template "${id}" ${taint}`);
            return '';
          }
          return String(value);
        }),
      );
    }
    runs.push({ templateId: id, phase, cmd: template.cmd, args: expanded, timeoutMs: (phase === 'fast' ? timeouts.fastMs : timeouts.slowMs) });
  }
  return taints.length > 0 ? { ok: false, taints: [...new Set(taints)] } : { ok: true, runs };
}
