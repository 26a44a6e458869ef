// Secret-looking strings a brief must never carry. A match is reported by the pattern's name and
// the line it is on, never by the text itself: printing it would leak it into terminals and logs.

export type SecretPatternName = 'aws-access-key' | 'openai-key' | 'generic-secret-assignment' | 'pem-private-key';

/** The patterns, by name. Kept few and specific: a match is a hard error with no override. */
export const SECRET_PATTERNS: ReadonlyArray<{ readonly name: SecretPatternName; readonly regex: RegExp }> = [
  { name: 'aws-access-key', regex: /\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/ },
  { name: 'openai-key', regex: /\bsk-[A-Za-z0-9_-]{16,}/ },
  {
    name: 'generic-secret-assignment',
    // name = value, name: "value", "name": "value" — unless the value is a reference to where the
    // secret lives (process.env.X, ${X}, <X>, {{X}}) or a mask (***). The name may also be the last
    // segment of a longer one (DB_PASSWORD, OPENAI_API_KEY, aws-secret-access-key): that is how
    // environment files and shell exports spell most secrets.
    regex:
      /(?:\b|(?<=[A-Za-z0-9][_-]))(?:api[_-]?key|apikey|secret(?:[_-]?key)?|client[_-]?secret|(?:access|auth|refresh|bearer)[_-]?token|token|password|passwd|pwd|private[_-]?key|access[_-]?key(?:[_-]?id)?)\b["']?\s*[:=]\s*["']?(?!process\.env|\$\{?|<|\{\{|os\.environ|env\.|\*{3})[A-Za-z0-9/+_.~=-]{8,}/i,
  },
  { name: 'pem-private-key', regex: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/ },
];

/** Where a secret-looking string was found: which pattern, and the 1-based line. */
export interface SecretFinding {
  readonly pattern: SecretPatternName;
  readonly line: number;
}

/** Finds secret-looking strings, one finding per pattern and line, in line order. */
export function scanSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    for (const { name, regex } of SECRET_PATTERNS) if (regex.test(line)) findings.push({ pattern: name, line: index + 1 });
  });
  return findings;
}

const PEM_BLOCK = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g;

/**
 * The text with every secret-looking string replaced by `[secret withheld: <pattern>]`, for
 * read-only views (the MCP server's tools) that show recorded text rather than refuse it. A PEM
 * key is withheld whole, up to its END line, since its body lines match no pattern of their own.
 */
export function redactSecrets(text: string): string {
  let out = text.replace(PEM_BLOCK, '[secret withheld: pem-private-key]');
  for (const { name, regex } of SECRET_PATTERNS) {
    if (name === 'pem-private-key') continue;
    out = out.replace(new RegExp(regex.source, `${regex.flags}g`), `[secret withheld: ${name}]`);
  }
  return out;
}

/** redactSecrets over every string of a JSON-like value (keys are left as they are). */
export function redactSecretsDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactSecretsDeep(item)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactSecretsDeep(item)])) as T;
  }
  return value;
}
