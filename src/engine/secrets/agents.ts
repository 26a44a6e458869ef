// What each agent CLI is given on top of the tools environment: its own provider's credentials
// (and nobody else's: codex never sees ANTHROPIC_API_KEY, claude never sees OPENAI_API_KEY) and
// the settings it reads. One table for every caller that starts an agent: ask/review backends,
// `relay handoff --to`, the tick's builder and orchestrator, `relais doctor`.
import { buildChildEnv, type ChildEnv, type Env } from './child-env.js';

export type AgentName = 'claude' | 'codex' | 'gemini';

/** One agent's declared environment. */
export interface AgentEnvDeclaration {
  /** Its credentials: passed as they are (the one API key it needs, in the spellings it reads). */
  readonly keys: readonly string[];
  /** Its settings (endpoints, models, config folders); a value that looks like a secret is still dropped. */
  readonly names: readonly string[];
}

export const AGENT_ENV: Readonly<Record<AgentName, AgentEnvDeclaration>> = {
  claude: {
    // An API key, or the OAuth token of `claude setup-token`, or a gateway's bearer token.
    keys: ['ANTHROPIC_API_KEY', 'CLAUDE_CODE_OAUTH_TOKEN', 'ANTHROPIC_AUTH_TOKEN'],
    names: [
      'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'ANTHROPIC_SMALL_FAST_MODEL', 'ANTHROPIC_DEFAULT_OPUS_MODEL', 'ANTHROPIC_DEFAULT_SONNET_MODEL', 'ANTHROPIC_DEFAULT_HAIKU_MODEL',
      'CLAUDE_CONFIG_DIR', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CODE_MAX_OUTPUT_TOKENS', 'CLAUDE_CODE_BUBBLEWRAP',
      // Claude Code refuses bypassPermissions as root unless it is told it runs in a sandbox.
      'IS_SANDBOX',
      'DISABLE_AUTOUPDATER', 'DISABLE_TELEMETRY', 'DISABLE_ERROR_REPORTING', 'MAX_THINKING_TOKENS', 'BASH_DEFAULT_TIMEOUT_MS', 'BASH_MAX_TIMEOUT_MS', 'MCP_TIMEOUT', 'MCP_TOOL_TIMEOUT',
      'EDITOR', 'VISUAL',
    ],
  },
  codex: {
    keys: ['OPENAI_API_KEY', 'CODEX_API_KEY', 'AZURE_OPENAI_API_KEY'],
    names: ['CODEX_HOME', 'OPENAI_BASE_URL', 'OPENAI_ORG_ID', 'OPENAI_ORGANIZATION', 'OPENAI_PROJECT', 'CODEX_SANDBOX_NETWORK_DISABLED', 'RUST_LOG', 'EDITOR', 'VISUAL'],
  },
  gemini: {
    // GOOGLE_APPLICATION_CREDENTIALS names a service-account file: a credential by name, so a key.
    keys: ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS'],
    names: ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_GENAI_USE_VERTEXAI', 'GEMINI_MODEL', 'GEMINI_SANDBOX', 'GEMINI_CLI_HOME', 'EDITOR', 'VISUAL'],
  },
};

/** What a caller adds to an agent's declared environment. */
export interface AgentEnvExtras {
  /** More names to allow (the relay depth guard when it is passed on unchanged). */
  readonly allow?: readonly string[];
  /** More credentials to pass (a handoff profile's passEnv). */
  readonly keys?: readonly string[];
  /** Variables Relay Desk sets for this run (the raised relay depth). */
  readonly set?: Readonly<Record<string, string>>;
  readonly platform?: NodeJS.Platform;
}

/** The whole environment of one agent CLI: tools profile + its declared keys and settings + the caller's extras. */
export function agentChildEnv(agent: AgentName, from: Env, extras: AgentEnvExtras = {}): ChildEnv {
  const declared = AGENT_ENV[agent];
  return buildChildEnv({
    from,
    profile: 'tools',
    allow: [...declared.names, ...(extras.allow ?? [])],
    keys: [...declared.keys, ...(extras.keys ?? [])],
    ...(extras.set ? { set: extras.set } : {}),
    ...(extras.platform ? { platform: extras.platform } : {}),
  });
}
