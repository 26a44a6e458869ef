import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import '../zod-mini.js';
import * as z from 'zod/mini';
import { writeFileAtomic } from '../fs/atomic.js';
import { gitInternalRoot } from '../fs/protected.js';
import { toArgv } from './argv.js';
import { fail, ok, type Result } from '../result.js';

import { CONFIG_FILE } from './names.js';

export { CONFIG_FILE, STATE_DIR } from './names.js';

/**
 * A command from the config: a string split like a shell would (no shell is ever run) or an argv
 * array. One that needs a shell (`a && b`, `x | y`) is refused here, when the config is read,
 * rather than failing (or, for a linter, passing unnoticed) at every patch.
 */
const CommandSchema = z._default(
  z.union([z.string(), z.array(z.string()).check(z.minLength(1))], { error: 'must be a command string like "npx tsc --noEmit" or an argv array like ["npx", "tsc"]' }).check(
    z.superRefine((command, context) => {
      if (typeof command === 'string' ? command.trim() === '' : command.length === 0) return; // empty: not configured / already reported
      const argv = toArgv(command);
      if (!argv.ok) context.addIssue({ code: 'custom', message: argv.error.message });
    }),
  ),
  '',
);

// zod's functional API (see ../zod-mini.ts): the config is read by every relay apply.
export const RelayConfigSchema = z.strictObject({
  projectId: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(200)),
  core: z.prefault(
    z.strictObject({
      logLevel: z._default(z.enum(['silent', 'error', 'warn', 'info', 'debug']), 'info'),
      enableNotifications: z._default(z.boolean(), true),
      watchConfig: z._default(z.boolean(), true),
    }),
    {},
  ),
  watcher: z.prefault(
    z.strictObject({
      clipboardPollInterval: z._default(z.number().check(z.int(), z.gte(50), z.lte(60_000)), 500),
      preferredStrategy: z._default(z.enum(['auto', 'replace', 'new-unified', 'multi-search-replace']), 'auto'),
    }),
    {},
  ),
  patch: z.prefault(
    z.strictObject({
      approvalMode: z._default(z.enum(['auto', 'manual']), 'auto'),
      approvalOnErrorCount: z._default(z.number().check(z.int(), z.gte(0)), 0),
      linter: CommandSchema,
      preCommand: CommandSchema,
      postCommand: CommandSchema,
      /** Longest answer line taken, in UTF-8 bytes (longer ones are minified or generated output). */
      maxLineBytes: z._default(z.number().check(z.int(), z.gte(1024), z.lte(16_777_216)), 65_536),
      /** Largest answer taken, in UTF-8 bytes. */
      maxAnswerBytes: z._default(z.number().check(z.int(), z.gte(1024), z.lte(268_435_456)), 2_000_000),
    }),
    {},
  ),
  git: z.prefault(
    z.strictObject({
      autoGitBranch: z._default(z.boolean(), false),
      gitBranchPrefix: z._default(z.string(), 'relay/'),
      gitBranchTemplate: z._default(z.enum(['uuid', 'gitCommitMsg']), 'gitCommitMsg'),
    }),
    {},
  ),
});

export type RelayConfig = z.infer<typeof RelayConfigSchema>;
export type ConfigFailureCode = 'CONFIG_MISSING' | 'CONFIG_INVALID_JSON' | 'CONFIG_INVALID' | 'ROOT_INSIDE_GIT';

/** Renders zod issues as "field.path: problem" lines a person can act on. */
export function describeIssues(error: { readonly issues: readonly z.core.$ZodIssue[] }, file: string): string {
  return error.issues
    .flatMap((issue) => {
      const where = (extra: readonly PropertyKey[] = []): string => ([...issue.path, ...extra].length > 0 ? [...issue.path, ...extra].join('.') : '(top level)');
      // An unknown field is named itself (a typo like "lintr" is the usual cause), one line each.
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => `${file}: ${where([key])}: unknown field`);
      return [`${file}: ${where()}: ${issue.message}`];
    })
    .join('\n');
}

/** Validates a config object, filling defaults for everything but projectId. */
export function parseRelayConfig(data: unknown, file = CONFIG_FILE): Result<RelayConfig, ConfigFailureCode> {
  const parsed = RelayConfigSchema.safeParse(data);
  if (!parsed.success) return fail('CONFIG_INVALID', describeIssues(parsed.error, file));
  return ok(parsed.data);
}

/** Loads `relay.config.json` from the project root. */
export function loadRelayConfig(root: string): Result<RelayConfig, ConfigFailureCode> {
  // A config planted inside .git would make git's own files a project (see gitInternalRoot).
  const gitOwned = gitInternalRoot(root);
  if (gitOwned !== null) return fail('ROOT_INSIDE_GIT', gitOwned);
  const file = path.join(root, CONFIG_FILE);
  if (!existsSync(file)) {
    return fail('CONFIG_MISSING', `No ${CONFIG_FILE} in ${root}. Run \`relay init\` in the project folder first.`);
  }
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return fail('CONFIG_INVALID_JSON', `${CONFIG_FILE} is not valid JSON: ${(error as Error).message}`);
  }
  return parseRelayConfig(data);
}

/** Writes a config file with only the fields that differ from the defaults spelled out. */
export function writeRelayConfig(root: string, config: RelayConfig): void {
  writeFileAtomic(path.join(root, CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
}

/** A config with every default and the given projectId. */
export function defaultRelayConfig(projectId: string): RelayConfig {
  return RelayConfigSchema.parse({ projectId });
}
