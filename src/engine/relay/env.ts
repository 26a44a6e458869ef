import type { Env } from './depth.js';

// Words that mark a variable as a credential wherever they appear in its name.
const SECRET_WORDS = /SECRET|PASSWORD|PASSWD|TOKEN|APIKEY|API_KEY|CREDENTIAL|PRIVATE_KEY|ACCESS_KEY/;
// Words that mark a credential only as a whole segment of the name (KEY but not MONKEY).
const SECRET_SEGMENTS = new Set(['KEY', 'KEYS', 'AUTH', 'PASS', 'PAT', 'COOKIE', 'COOKIES', 'SESSION', 'SIGNING']);
// Values that are credentials whatever the variable is called (OpenAI, GitHub, GitLab, Slack, AWS, Google, Hugging Face).
const SECRET_VALUE = /^(sk-|sk_|rk_|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abpr]-|AKIA|ASIA|AIza|hf_)[A-Za-z0-9_-]{6,}/;

/** True when a variable looks like it carries a credential, by its name or by its value. */
export function isSecretLooking(name: string, value: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_WORDS.test(upper)) return true;
  if (upper.split(/[^A-Z0-9]+/).some((segment) => SECRET_SEGMENTS.has(segment))) return true;
  return SECRET_VALUE.test(value.trim());
}

/**
 * The environment a backend process gets: the parent's, minus every secret-looking variable
 * the backend does not need (`keep`), minus `drop`, plus `set`. Keys outside `keep` never
 * reach another agent, so a relay cannot leak the caller's unrelated credentials.
 */
export function backendEnv(parent: Env, options: { readonly keep: readonly string[]; readonly drop?: readonly string[]; readonly set?: Readonly<Record<string, string>> }): Record<string, string> {
  const keep = new Set(options.keep);
  const drop = new Set(options.drop ?? []);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || drop.has(name)) continue;
    if (!keep.has(name) && isSecretLooking(name, value)) continue;
    out[name] = value;
  }
  return { ...out, ...options.set };
}

/** The values of secret-looking variables in `env`, long enough to be worth hiding from messages. */
export function secretValues(env: Env): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.length >= 8 && isSecretLooking(name, value)) values.push(value);
  }
  // Longest first, so a secret that contains another is masked whole.
  return values.sort((a, b) => b.length - a.length);
}

/** Replaces every occurrence of the given secret values in `text` with "***". */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}
