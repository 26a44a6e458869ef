// The one table of secret rules (after gitleaks' rule set: one rule per kind of credential, each
// with a stable id, tested against real-looking samples and near misses in
// test/unit/secrets/rules.test.ts). Order matters: when two rules match overlapping text, the
// earlier, more specific rule names the finding (a GitHub token assigned to GITHUB_TOKEN is a
// `github-pat`, not a `secret-assignment`).
//
// Every pattern is global and uses the `d` flag so the `secret` span can be located: a rule whose
// regex has named groups starting with `secret` withholds only that part (the value of
// `password=...`, the password of a URL), otherwise the whole match (a token, a PEM block).

/** The id of every rule; shown in `[secret withheld: <id>]` and in brief validation findings. */
export const SECRET_RULE_IDS = [
  'private-key',
  'github-pat',
  'github-oauth',
  'github-app-token',
  'github-refresh-token',
  'github-fine-grained-pat',
  'gitlab-token',
  'slack-webhook-url',
  'slack-token',
  'anthropic-api-key',
  'openai-api-key',
  'stripe-secret-key',
  'google-api-key',
  'aws-access-key-id',
  'aws-secret-access-key',
  'npm-token',
  'huggingface-token',
  'jwt',
  'sentry-dsn',
  'connection-string-key',
  'credentials-in-url',
  'ci-token',
  'secret-assignment',
  'high-entropy-assignment',
] as const;

export type SecretRuleId = (typeof SECRET_RULE_IDS)[number];

/** One kind of secret. */
export interface SecretRule {
  readonly id: SecretRuleId;
  /** What the rule finds, for people. */
  readonly description: string;
  /** Lower-case strings of which one must occur in the text before the regex runs (a cheap pre-filter). */
  readonly keywords: readonly string[];
  /** Global regex with the `d` flag; groups named `secret…` mark the span withheld (else the whole match). */
  readonly pattern: RegExp;
  /** Turns down a match that is not a secret (a placeholder, a type name, too little entropy). */
  readonly accept?: (secret: string, match: RegExpExecArray) => boolean;
}

/** Bits of entropy per character (Shannon), the measure gitleaks uses for generic rules. */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Values that point at where a secret lives instead of holding it: `${X}`, `$X`, `<X>`, `{{X}}`,
 * `%X%`, `process.env.X`, masks (`***`, `xxxx`), redaction markers, and type names from code.
 */
const PLACEHOLDER = /^(?:\$|<|\{\{|%|\*{3}|x{4,}$|\.{3}|…|\[secret\b|process\.env\b|os\.environ|env\.|getenv|ENV\[|secrets\.)/i;
const TYPE_WORDS = new Set(['string', 'number', 'boolean', 'bool', 'str', 'int', 'bytes', 'any', 'unknown', 'undefined', 'null', 'none', 'nil', 'true', 'false', 'required', 'optional', 'redacted', 'hidden', 'empty', 'object', 'secretstr']);
/** `a.b.c` (a property read in code), not a value. */
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
/** A file path (`/etc/key.pem`, `~/.aws/credentials`, `C:\keys\a.pfx`): where a secret is, not the secret. */
const FILE_PATH = /^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\)/;

/** True when an assigned value is a real-looking value rather than a reference, a mask or code. */
export function looksLikeValue(value: string): boolean {
  const v = value.trim();
  if (v === '' || PLACEHOLDER.test(v)) return false;
  if (TYPE_WORDS.has(v.toLowerCase())) return false;
  if (DOTTED_IDENTIFIER.test(v) || FILE_PATH.test(v)) return false;
  if (/^(.)\1+$/.test(v)) return false;
  return true;
}

/** The secret of an assignment rule: quoted (`"..."`, spaces allowed) or bare (up to a delimiter). */
const ASSIGNED_VALUE = String.raw`(?:(?<q>["'\x60])(?<secretQuoted>[^"'\x60\r\n]{4,300})\k<q>|(?<secretBare>[^\s"'\x60,;(){}\[\]<>]{6,300})(?=$|[\s"'\x60,;)}\]>]))`;
/** `=`, `:`, `:=`, `=>` between a name (optionally quoted, as in JSON) and its value, on one line. */
const ASSIGN = String.raw`["']?[ \t]*(?::=|=>|=|:)[ \t]*`;
/** A name starts where no other name character precedes it. */
const NAME_START = String.raw`(?<![A-Za-z0-9_.-])`;

/** Names of assignments that hold secrets: the name ends in one of these words. */
const STRONG_NAME_WORDS = [
  'password',
  'passwd',
  'passphrase',
  'pwd',
  'secret',
  'secret[_.-]?key',
  'client[_.-]?secret',
  'token',
  'access[_.-]?token',
  'auth[_.-]?token',
  'refresh[_.-]?token',
  'api[_.-]?key',
  'apikey',
  'access[_.-]?key',
  'secret[_.-]?access[_.-]?key',
  'private[_.-]?key',
  'auth[_.-]?key',
  'credentials?',
  'connection[_.-]?string',
].join('|');

/** Names of assignments that hold secrets when the value is random enough. */
const WEAK_NAME_WORDS = ['key', 'keys', 'auth', 'pass', 'pat', 'salt', 'seed', 'signature', 'cookie', 'session', 'session[_.-]?id', 'sid', 'hmac', 'sas', 'otp', 'jwt'].join('|');

/** Name prefixes that say the value is public or a one-time form token, not a credential. */
const PUBLIC_NAME = /(?:^|[_.-])(?:public|publishable|pub|csrf|xsrf|primary|foreign|sort|partition|cache|idempotency|i18n|translation)[_.-]?|^(?:pk|key_?(?:id|name|path|file|size|length|type))$/i;

function assignmentAccept(minEntropy: number) {
  return (secret: string, match: RegExpExecArray): boolean => {
    const name = (match.groups?.name ?? '').replace(/^-+/, '');
    if (PUBLIC_NAME.test(name)) return false;
    // `"Bearer "`, `" = "`: a quoted fragment of code or prose, not a stored value.
    if (secret !== secret.trim() || !looksLikeValue(secret)) return false;
    // `token: AccessToken` in TypeScript is a type annotation, not a value.
    if (match.groups?.secretBare !== undefined && /:\s*$/.test(match[0].slice(0, match[0].length - secret.length)) && /^[A-Z][A-Za-z]*$/.test(secret)) return false;
    return minEntropy === 0 || (shannonEntropy(secret) >= minEntropy && /\d/.test(secret) && /[A-Za-z]/.test(secret));
  };
}

const hasDigit = (secret: string): boolean => /\d/.test(secret);

/** The rules, most specific first. */
export const SECRET_RULES: readonly SecretRule[] = [
  {
    id: 'private-key',
    description: 'A PEM private key block (RSA, EC, OpenSSH, PGP, PKCS#8), withheld whole up to its END line.',
    keywords: ['private key'],
    pattern: /-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----|$)/dg,
  },
  { id: 'github-pat', description: 'GitHub personal access token (classic).', keywords: ['ghp_'], pattern: /\bghp_[A-Za-z0-9]{36,255}\b/dg },
  { id: 'github-oauth', description: 'GitHub OAuth access token.', keywords: ['gho_'], pattern: /\bgho_[A-Za-z0-9]{36,255}\b/dg },
  { id: 'github-app-token', description: 'GitHub App user-to-server or server-to-server token (GITHUB_TOKEN in Actions).', keywords: ['ghu_', 'ghs_'], pattern: /\bgh[us]_[A-Za-z0-9]{36,255}\b/dg },
  { id: 'github-refresh-token', description: 'GitHub refresh token.', keywords: ['ghr_'], pattern: /\bghr_[A-Za-z0-9]{36,255}\b/dg },
  { id: 'github-fine-grained-pat', description: 'GitHub fine-grained personal access token.', keywords: ['github_pat_'], pattern: /\bgithub_pat_[A-Za-z0-9_]{50,255}\b/dg },
  { id: 'gitlab-token', description: 'GitLab personal, deploy, runner or CI job token.', keywords: ['glpat-', 'gldt-', 'glrt-', 'glcbt-', 'glptt-', 'glsoat-'], pattern: /\bgl(?:pat|dt|rt|cbt|ptt|soat)-[A-Za-z0-9_-]{20,300}\b/dg },
  {
    id: 'slack-webhook-url',
    description: 'Slack incoming webhook URL (posting to it needs no other credential).',
    keywords: ['hooks.slack.com'],
    pattern: /(?:https?:\/\/)?hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,200}/dg,
  },
  {
    id: 'slack-token',
    description: 'Slack bot, user, app, refresh or legacy token (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xoxe-, xapp-).',
    keywords: ['xox', 'xapp-'],
    pattern: /\b(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,300}/dg,
    accept: hasDigit,
  },
  { id: 'anthropic-api-key', description: 'Anthropic API, admin or OAuth key (sk-ant-...).', keywords: ['sk-ant-'], pattern: /\bsk-ant-[A-Za-z0-9_-]{20,300}/dg },
  {
    id: 'openai-api-key',
    description: 'OpenAI API key (sk-..., sk-proj-..., sk-svcacct-..., sk-admin-...).',
    keywords: ['sk-'],
    pattern: /\bsk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,300}/dg,
    accept: hasDigit,
  },
  { id: 'stripe-secret-key', description: 'Stripe secret or restricted key (sk_live_, rk_live_, sk_test_...).', keywords: ['sk_', 'rk_'], pattern: /\b[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,99}\b/dg },
  { id: 'google-api-key', description: 'Google API key (AIza...).', keywords: ['aiza'], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/dg },
  {
    id: 'aws-access-key-id',
    description: 'AWS access key id (AKIA, ASIA, ABIA, ACCA, A3T...).',
    keywords: ['akia', 'asia', 'abia', 'acca', 'a3t'],
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/dg,
  },
  {
    id: 'aws-secret-access-key',
    description: 'A 40-character AWS secret access key next to an AWS-ish name.',
    keywords: ['aws', 'secretaccesskey', 'secret_access_key', 'secret-access-key'],
    pattern: new RegExp(
      String.raw`(?<name>(?:aws[A-Za-z0-9_.-]{0,30}?(?:secret|sk)|secret[_.-]?access[_.-]?key)[A-Za-z0-9_.-]{0,30}?)${ASSIGN}["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      'dgi',
    ),
  },
  { id: 'npm-token', description: 'npm access token (npm_...).', keywords: ['npm_'], pattern: /\bnpm_[A-Za-z0-9]{36}\b/dg },
  { id: 'huggingface-token', description: 'Hugging Face access token (hf_...).', keywords: ['hf_'], pattern: /\bhf_[A-Za-z]{34}\b/dg },
  {
    id: 'jwt',
    description: 'JSON Web Token: three base64url parts, a JSON header and payload (CI_JOB_JWT, ACTIONS_RUNTIME_TOKEN, id tokens).',
    keywords: ['eyj'],
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*/dg,
  },
  {
    id: 'sentry-dsn',
    description: 'Sentry DSN: the 32-hex key before @ lets anyone post events to the project.',
    keywords: ['://'],
    pattern: /\bhttps?:\/\/(?<secret>[0-9a-f]{32}(?::[0-9a-f]{32})?)@[A-Za-z0-9.-]+(?::\d+)?\/(?:[\w.-]+\/)*\d+\b/dg,
  },
  {
    id: 'connection-string-key',
    description: 'A key inside a connection string (Azure AccountKey=, SharedAccessKey=, SharedAccessSignature=).',
    keywords: ['accountkey', 'sharedaccesskey', 'sharedaccesssignature', 'sharedsecret'],
    pattern: /\b(?:AccountKey|SharedAccessKey|SharedAccessSignature|SharedSecret)[ \t]*=[ \t]*(?<secret>[^;\s'"]{8,500})/dgi,
    accept: looksLikeValue,
  },
  {
    id: 'credentials-in-url',
    description: 'A password in a URL (scheme://user:password@host), as in DATABASE_URL, REDIS_URL, MONGODB_URI, proxies.',
    keywords: ['://'],
    pattern: /\b[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:@/?#'"<>]{0,200}:(?<secret>[^\s@/?#'"<>]{1,300})@[A-Za-z0-9[\]._-]+/dg,
    accept: (secret) => looksLikeValue(secret) || secret.length <= 3,
  },
  {
    id: 'ci-token',
    description: 'A CI credential by its well-known name (CI_JOB_JWT, CI_JOB_TOKEN, ACTIONS_ID_TOKEN_REQUEST_TOKEN, ACTIONS_RUNTIME_TOKEN, GITHUB_TOKEN...).',
    keywords: ['ci_', 'actions_', 'github_token', 'gh_token', 'buildkite', 'circle_token', 'system_accesstoken', 'bitbucket_step_oidc_token'],
    pattern: new RegExp(
      String.raw`${NAME_START}(?<name>CI_JOB_JWT(?:_V[12])?|CI_JOB_TOKEN|CI_BUILD_TOKEN|CI_REGISTRY_PASSWORD|CI_DEPLOY_PASSWORD|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_RUNTIME_TOKEN|GITHUB_TOKEN|GH_TOKEN|BUILDKITE_AGENT_ACCESS_TOKEN|CIRCLE_TOKEN|SYSTEM_ACCESSTOKEN|BITBUCKET_STEP_OIDC_TOKEN)${ASSIGN}["']?(?<secret>[^\s"'\x60,;]{4,5000})`,
      'dg',
    ),
    accept: looksLikeValue,
  },
  {
    id: 'secret-assignment',
    description: 'A value assigned to a password, secret, token, API key or credentials name (env files, YAML, JSON, code, CLI flags).',
    keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'credential', 'connection'],
    pattern: new RegExp(String.raw`${NAME_START}(?<name>[A-Za-z0-9_.-]{0,60}?(?:${STRONG_NAME_WORDS}))${ASSIGN}${ASSIGNED_VALUE}`, 'dgi'),
    accept: assignmentAccept(0),
  },
  {
    id: 'high-entropy-assignment',
    description: 'A random-looking value (entropy ≥ 3.5 bits/char, letters and digits) assigned to a key, auth, salt, session or signature name.',
    keywords: ['key', 'auth', 'pass', 'pat', 'salt', 'seed', 'signature', 'cookie', 'session', 'sid', 'hmac', 'sas', 'otp', 'jwt'],
    pattern: new RegExp(String.raw`${NAME_START}(?<name>[A-Za-z0-9_.-]{0,60}?(?:${WEAK_NAME_WORDS}))${ASSIGN}${ASSIGNED_VALUE}`, 'dgi'),
    accept: (secret, match) => secret.length >= 16 && assignmentAccept(3.5)(secret, match),
  },
];
