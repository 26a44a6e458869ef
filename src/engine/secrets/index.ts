// engine/secrets: the one secret detector (rules.ts, detect.ts), secret-looking names (names.ts)
// and the allow-list environment of child processes built from them (child-env.ts, agents.ts).
export { SECRET_RULES, SECRET_RULE_IDS, shannonEntropy, looksLikeValue, type SecretRule, type SecretRuleId } from './rules.js';
export {
  ENV_VALUE_RULE,
  MIN_KNOWN_VALUE_LENGTH,
  containsSecret,
  findSecrets,
  redactSecrets,
  redactSecretsDeep,
  withheldMarker,
  type FindOptions,
  type SecretFinding,
  type SecretFindingId,
} from './detect.js';
export { isSecretName, isSecretVariable, secretValuesOf } from './names.js';
export {
  BASE_NAMES,
  DESKTOP_NAMES,
  NEVER_NAMES,
  PASS_ENV_VARIABLE,
  PROXY_NAMES,
  TOOL_NAMES,
  buildChildEnv,
  parsePassEnv,
  stripUrlCredentials,
  type ChildEnv,
  type ChildEnvRequest,
  type Env,
  type EnvProfile,
} from './child-env.js';
export { AGENT_ENV, agentChildEnv, type AgentEnvDeclaration, type AgentEnvExtras, type AgentName } from './agents.js';
