import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
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
const CommandSchema = z
  .union([z.string(), z.array(z.string()).min(1)], { error: 'must be a command string like "npx tsc --noEmit" or an argv array like ["npx", "tsc"]' })
  .superRefine((command, context) => {
    if (typeof command === 'string' ? command.trim() === '' : command.length === 0) return; // empty: not configured / already reported
    const argv = toArgv(command);
    if (!argv.ok) context.addIssue({ code: 'custom', message: argv.error.message });
  })
  .default('');

export const RelayConfigSchema = z
  .object({
    projectId: z.string().trim().min(1, 'must not be empty').max(200),
    core: z
      .object({
        logLevel: z.enum(['silent', 'error', 'warn', 'info', 'debug']).default('info'),
        enableNotifications: z.boolean().default(true),
        watchConfig: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    watcher: z
      .object({
        clipboardPollInterval: z.number().int().min(50).max(60_000).default(500),
        preferredStrategy: z.enum(['auto', 'replace', 'new-unified', 'multi-search-replace']).default('auto'),
      })
      .strict()
      .prefault({}),
    patch: z
      .object({
        approvalMode: z.enum(['auto', 'manual']).default('auto'),
        approvalOnErrorCount: z.number().int().min(0).default(0),
        linter: CommandSchema,
        preCommand: CommandSchema,
        postCommand: CommandSchema,
        /** Longest answer line taken, in UTF-8 bytes (longer ones are minified or generated output). */
        maxLineBytes: z.number().int().min(1024).max(16_777_216).default(65_536),
        /** Largest answer taken, in UTF-8 bytes. */
        maxAnswerBytes: z.number().int().min(1024).max(268_435_456).default(2_000_000),
      })
      .strict()
      .prefault({}),
    git: z
      .object({
        autoGitBranch: z.boolean().default(false),
        gitBranchPrefix: z.string().default('relay/'),
        gitBranchTemplate: z.enum(['uuid', 'gitCommitMsg']).default('gitCommitMsg'),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type RelayConfig = z.infer<typeof RelayConfigSchema>;
export type ConfigFailureCode = 'CONFIG_MISSING' | 'CONFIG_INVALID_JSON' | 'CONFIG_INVALID' | 'ROOT_INSIDE_GIT';

/** Renders zod issues as "field.path: problem" lines a person can act on. */
export function describeIssues(error: z.ZodError, file: string): string {
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
