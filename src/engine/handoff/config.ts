// Optional per-project handoff settings in relay.handoff.json: named destination profiles and
// section budget overrides. Kept out of relay.config.json so the patch engine's strict config
// schema stays as relaycode defines it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeIssues } from '../patch/config.js';
import { fail, ok, type Result } from '../result.js';
import { BACKEND_NAMES } from '../relay/backends/types.js';
import type { SectionBudgets } from './render.js';

export const HANDOFF_CONFIG_FILE = 'relay.handoff.json';

export const ADAPTERS = ['claude', 'codex'] as const;
export type AdapterName = (typeof ADAPTERS)[number];

export const CODEX_SANDBOXES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
export type CodexSandbox = (typeof CODEX_SANDBOXES)[number];

/** Flags a chat-seed Codex session must not get: they belong to orchestrated runs, or `codex exec` rejects them. */
export const CODEX_FORBIDDEN_FLAGS: readonly string[] = ['--output-schema', '-o', '--output-last-message', '--ask-for-approval', '-a', '--full-auto'];

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const budget = z.number().int().min(50).max(50_000);

const ProfileSchema = z
  .strictObject({
    /** Which argv builder to use. */
    adapter: z.enum(ADAPTERS),
    /** The program to run (a name on PATH or an absolute path); the adapter's name by default. */
    command: z.string().trim().min(1).max(1_000).optional(),
    /** Extra arguments, put before the brief (Claude) or after `exec` (Codex). */
    args: z.array(z.string().max(2_000)).max(50).default([]),
    /** Codex only: the --sandbox mode (default workspace-write). */
    sandbox: z.enum(CODEX_SANDBOXES).optional(),
    /** Secret-looking environment variables to pass through anyway (e.g. GH_TOKEN). */
    passEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)).max(50).default([]),
  })
  .superRefine((profile, ctx) => {
    if (profile.adapter !== 'codex' && profile.sandbox !== undefined) ctx.addIssue({ code: 'custom', path: ['sandbox'], message: 'only Codex profiles take a sandbox' });
    if (profile.adapter === 'codex') {
      const bad = profile.args.find((a) => CODEX_FORBIDDEN_FLAGS.includes(a.split('=')[0]!));
      if (bad) ctx.addIssue({ code: 'custom', path: ['args'], message: `${bad.split('=')[0]} is not allowed in a handoff session` });
    }
  });
export type HandoffProfile = z.infer<typeof ProfileSchema>;

/**
 * Names a profile can never take: every built-in agent. relay.handoff.json comes with the
 * repository, so a cloned project's profile called `codex` would otherwise run its own program
 * (and environment) when the user asks for codex.
 */
export const BUILT_IN_AGENT_NAMES: readonly string[] = [...new Set<string>([...ADAPTERS, ...BACKEND_NAMES])];

/** True when a profile name is a built-in agent's, in any case or with trailing dots. */
export function isBuiltInAgentName(name: string): boolean {
  return BUILT_IN_AGENT_NAMES.includes(name.toLowerCase().replace(/[. ]+$/, ''));
}

const HandoffConfigSchema = z.strictObject({
  profiles: z
    .record(z.string().regex(PROFILE_NAME, 'profile names are letters, digits, ".", "_" or "-"'), ProfileSchema)
    .superRefine((profiles, ctx) => {
      for (const name of Object.keys(profiles)) {
        if (!isBuiltInAgentName(name)) continue;
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `"${name}" is the name of a built-in agent (${BUILT_IN_AGENT_NAMES.join(', ')}); a profile may not take it, or a repository's relay.handoff.json could run its own program when you ask for that agent. Rename the profile (e.g. "my-${name.toLowerCase()}").`,
        });
      }
    })
    .default({}),
  budgets: z
    .strictObject({ status: budget, mission: budget, trail: budget, decisions: budget, files: budget, workingMemory: budget })
    .partial()
    .default({}),
});
export type HandoffConfig = z.infer<typeof HandoffConfigSchema>;
export type HandoffConfigFailure = 'HANDOFF_CONFIG_INVALID_JSON' | 'HANDOFF_CONFIG_INVALID';

/** Loads relay.handoff.json; no file means no profiles and the default budgets. */
export function loadHandoffConfig(root: string): Result<HandoffConfig, HandoffConfigFailure> {
  const file = path.join(root, HANDOFF_CONFIG_FILE);
  if (!existsSync(file)) return ok(HandoffConfigSchema.parse({}));
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail('HANDOFF_CONFIG_INVALID_JSON', `${HANDOFF_CONFIG_FILE} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = HandoffConfigSchema.safeParse(data);
  if (!parsed.success) return fail('HANDOFF_CONFIG_INVALID', describeIssues(parsed.error, HANDOFF_CONFIG_FILE));
  return ok(parsed.data);
}

/** The budgets a project overrides (the renderer fills the rest). */
export function budgetOverrides(config: HandoffConfig): Partial<SectionBudgets> {
  return config.budgets;
}

/** Where a brief is sent: a resolved adapter with its program, extra args and environment allowances. */
export interface Destination {
  /** What the user typed after --to. */
  readonly name: string;
  readonly via: 'profile' | 'adapter';
  readonly adapter: AdapterName;
  readonly command: string;
  readonly args: readonly string[];
  readonly sandbox: CodexSandbox;
  readonly passEnv: readonly string[];
}

/**
 * Resolves --to (D-03, layered): a profile of relay.handoff.json first, then an adapter name.
 * The spec's third layer, a channel's repo alias, has no counterpart here: a project is its repo.
 */
export function resolveDestination(value: string, config: HandoffConfig): Result<Destination, 'UNKNOWN_DESTINATION'> {
  // A built-in agent's name always means that agent, never a profile (loadHandoffConfig refuses such profiles too).
  const profile = !isBuiltInAgentName(value) && Object.hasOwn(config.profiles, value) ? config.profiles[value] : undefined;
  if (profile) {
    return ok({ name: value, via: 'profile', adapter: profile.adapter, command: profile.command ?? profile.adapter, args: profile.args, sandbox: profile.sandbox ?? 'workspace-write', passEnv: profile.passEnv });
  }
  if ((ADAPTERS as readonly string[]).includes(value)) {
    return ok({ name: value, via: 'adapter', adapter: value as AdapterName, command: value, args: [], sandbox: 'workspace-write', passEnv: [] });
  }
  const known = [...new Set([...Object.keys(config.profiles).sort(), ...ADAPTERS])];
  return fail('UNKNOWN_DESTINATION', `Unknown destination ${JSON.stringify(value)}: not a profile in ${HANDOFF_CONFIG_FILE} nor an adapter. Use one of: ${known.join(', ')}.`);
}
