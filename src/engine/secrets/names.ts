// Secret-looking variable names: `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, `*_API_KEY`, `*_DSN`,
// `DATABASE_URL`... Used to keep such variables from children that did not declare them, and to
// find their values in text (secretValuesOf).
import { containsSecret } from './detect.js';

/** Words that mark a credential wherever they stand in the name (`SYSTEM_ACCESSTOKEN`, `DBPASSWORD`). */
const SECRET_WORDS = /SECRET|PASSWORD|PASSWD|PASSPHRASE|TOKENS?(?:_|$)|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|AUTH_?KEY|CREDENTIAL|CONNECTION_?STRING|CONN_?STR/;

/** Words that mark a credential only as a whole segment of the name (`*_KEY` but not `MONKEY`, `*_AUTH` but not `XAUTHORITY`). */
const SECRET_SEGMENTS = new Set(['KEY', 'KEYS', 'PWD', 'PASS', 'PAT', 'JWT', 'DSN', 'AUTH', 'COOKIE', 'COOKIES', 'SESSION', 'SIGNING', 'SALT', 'SAS', 'OTP', 'HMAC', 'CREDS']);

/** Whole names (or name endings after `_`) of URLs that carry a database or broker login. */
const SECRET_URL_NAMES = /(?:^|_)(?:DATABASE_URL|DB_URL|DB_URI|REDIS_URL|REDIS_URI|MONGODB_URI|MONGODB_URL|MONGO_URI|MONGO_URL|POSTGRES_URL|POSTGRESQL_URL|PG_URL|MYSQL_URL|AMQP_URL|RABBITMQ_URL|BROKER_URL|CELERY_BROKER_URL|ELASTICSEARCH_URL|SMTP_URL)$/;

/** True when a variable name says it holds a credential (case-insensitive). */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  if (SECRET_WORDS.test(upper) || SECRET_URL_NAMES.test(upper)) return true;
  return upper.split(/[^A-Z0-9]+/).some((segment) => SECRET_SEGMENTS.has(segment));
}

/** True when a variable is a credential by its name or by its value. */
export function isSecretVariable(name: string, value: string): boolean {
  return isSecretName(name) || containsSecret(value);
}

/** The values of secret-looking variables of `env`, longest first (so a secret that contains another is withheld whole). */
export function secretValuesOf(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value.trim().length > 0 && isSecretVariable(name, value)) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}
