import { describe, expect, it } from 'vitest';
import { ENV_VALUE_RULE, findSecrets, isSecretName, redactSecrets, redactSecretsDeep, secretValuesOf, shannonEntropy } from '../../../src/engine/secrets/index.js';

const join = (...parts: string[]): string => parts.join('');
const TOKEN = join('ghp', '_', 'aZ3kQ9mX7pL2vB8n'.repeat(3).slice(0, 36));
const PEM = join('-----BEGIN EC ', 'PRIVATE KEY-----\nMHcCAQEEIBkg4LVWM9nuwNSk3yByxZpYRTBnVJk5oVzJ6pZ8F\nAwEHoUQDQgAEx4\n-----END EC PRIVATE KEY-----');

describe('findSecrets()', () => {
  it('gives rule id, span and 1-based line of every secret, in order', () => {
    const text = `first line\nuse ${TOKEN} here\n\npassword=hunter2\n`;
    const findings = findSecrets(text);
    expect(findings.map((f) => [f.ruleId, f.line, text.slice(f.start, f.end)])).toEqual([
      ['github-pat', 2, TOKEN],
      ['secret-assignment', 4, 'hunter2'],
    ]);
  });

  it('finds the values of known secrets (the caller\'s environment) whatever their shape', () => {
    const value = 'plain-words-but-secret';
    expect(findSecrets(`it said ${value}`)).toEqual([]);
    expect(findSecrets(`it said ${value}`, { knownValues: [value] })).toEqual([{ ruleId: ENV_VALUE_RULE, start: 8, end: 8 + value.length, line: 1 }]);
    // Too short to search for without hitting ordinary words.
    expect(findSecrets('a b c', { knownValues: ['b'] })).toEqual([]);
  });

  it('returns nothing for empty or ordinary text', () => {
    expect(findSecrets('')).toEqual([]);
    expect(findSecrets('Refactor the token budget; keep the API key out of logs (see docs/secrets.md).')).toEqual([]);
  });
});

describe('redactSecrets()', () => {
  it('withholds a PEM block whole, up to its END line, and keeps the text around it', () => {
    expect(redactSecrets(`before\n${PEM}\nafter`)).toBe('before\n[secret withheld: private-key]\nafter');
  });

  it('keeps an assignment\'s name and quotes, withholding only the value', () => {
    expect(redactSecrets('DB_PASSWORD="s3cret value" next')).toBe('DB_PASSWORD="[secret withheld: secret-assignment]" next');
    expect(redactSecrets('postgres://app:pa55word@db:5432/app')).toBe('postgres://app:[secret withheld: credentials-in-url]@db:5432/app');
  });

  it('withholds every occurrence, and overlapping matches as one', () => {
    expect(redactSecrets(`${TOKEN} and ${TOKEN}`)).toBe('[secret withheld: github-pat] and [secret withheld: github-pat]');
    expect(redactSecrets(`GITHUB_TOKEN=${TOKEN}`)).toBe('GITHUB_TOKEN=[secret withheld: github-pat]');
  });

  it('is idempotent, and leaves text without secrets untouched', () => {
    const text = `key ${TOKEN}\npassword: "hunter2hunter2"\n${PEM}\nDATABASE_URL=postgres://u:p@h/db`;
    const once = redactSecrets(text);
    expect(redactSecrets(once)).toBe(once);
    expect(redactSecrets('nothing to see')).toBe('nothing to see');
  });

  it('redactSecretsDeep withholds in nested strings and leaves keys and other values alone', () => {
    expect(redactSecretsDeep({ title: `t ${TOKEN}`, list: [{ password: 'x' }, 3, null], [TOKEN]: true })).toEqual({ title: 't [secret withheld: github-pat]', list: [{ password: 'x' }, 3, null], [TOKEN]: true });
  });
});

describe('isSecretName()', () => {
  it.each([
    'GITHUB_TOKEN', 'NPM_TOKEN', 'SYSTEM_ACCESSTOKEN', 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', 'CI_JOB_JWT', 'AWS_SECRET_ACCESS_KEY', 'AWS_ACCESS_KEY_ID', 'DB_PASSWORD', 'MYSQL_PWD', 'SMTP_PASSWD',
    'OPENAI_API_KEY', 'my_apikey', 'GPG_PRIVATE_KEY', 'GOOGLE_APPLICATION_CREDENTIALS', 'SENTRY_DSN', 'AZURE_STORAGE_CONNECTION_STRING', 'DATABASE_URL', 'REDIS_URL', 'MONGODB_URI', 'APP_DATABASE_URL',
    'SESSION_COOKIE', 'SIGNING_KEY', 'SSH_AUTH_SOCK', 'client_secret',
  ])('flags %s', (name) => {
    expect(isSecretName(name)).toBe(true);
  });

  it.each(['PATH', 'HOME', 'LANG', 'TERM', 'MONKEY', 'KEYBOARD_LAYOUT', 'XAUTHORITY', 'TOKENIZERS_PARALLELISM', 'PHONE_A_FRIEND_DEPTH', 'RELAY_CODEX_BIN', 'HTTPS_PROXY', 'OLLAMA_HOST', 'GIT_AUTHOR_NAME'])('leaves %s alone', (name) => {
    expect(isSecretName(name)).toBe(false);
  });
});

describe('secretValuesOf()', () => {
  it('lists values of secret-looking variables (by name or value), longest first', () => {
    expect(secretValuesOf({ PATH: '/usr/bin', OPENAI_API_KEY: 'short', NOTES: TOKEN, DB_PASSWORD: 'a-much-longer-password', EMPTY_TOKEN: '', UNSET: undefined })).toEqual([TOKEN, 'a-much-longer-password', 'short']);
  });
});

describe('shannonEntropy()', () => {
  it('is 0 for one repeated character and grows with variety', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
