import path from 'node:path';
import type { AppSettings } from '../shared/schemas.js';
import { resolveAgentPath, type AgentPath } from './agent-paths.js';

const AGENTS = ['claude', 'codex', 'gemini'] as const;
type Agent = (typeof AGENTS)[number];

export interface AgentEnvironment {
  /** The environment agent CLIs run with: PATH widened with the login shell's, and RELAY_*_BIN set. */
  readonly env: Record<string, string>;
  /** Where each agent was found (or what was tried), for the settings view and logs. */
  readonly agents: Readonly<Record<Agent, AgentPath>>;
  /** The Claude CLI's absolute path for ticks, when found. */
  readonly claudeCommand?: string;
}

/**
 * Builds the agents' environment for a desktop-launched app: PATH gets the login shell's
 * entries first, and each found CLI's absolute path is passed as RELAY_<NAME>_BIN so the relay
 * backends and the tick runner do not depend on PATH at all.
 */
export function agentEnvironment(options: { readonly baseEnv: Readonly<Record<string, string | undefined>>; readonly loginPath: string | null; readonly settings: AppSettings; readonly platform?: NodeJS.Platform }): AgentEnvironment {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.baseEnv)) if (value !== undefined) env[key] = value;
  const separator = (options.platform ?? process.platform) === 'win32' ? ';' : ':';
  const paths = [...(options.loginPath ?? '').split(separator), ...(env.PATH ?? '').split(separator)].filter(Boolean);
  env.PATH = [...new Set(paths)].join(separator);
  const configured: Record<string, string> = {};
  for (const agent of AGENTS) if (options.settings.agentPaths[agent]) configured[agent] = options.settings.agentPaths[agent];
  const agents = {} as Record<Agent, AgentPath>;
  for (const agent of AGENTS) {
    agents[agent] = resolveAgentPath(agent, { configured, loginPath: options.loginPath, processPath: options.baseEnv.PATH ?? '', ...(options.platform ? { platform: options.platform } : {}) });
    const found = agents[agent].path;
    if (found) env[`RELAY_${agent.toUpperCase()}_BIN`] = found;
  }
  const claude = agents.claude.path;
  return { env, agents, ...(claude ? { claudeCommand: path.normalize(claude) } : {}) };
}
