import { describe, expect, it } from 'vitest';
import { findSecrets, redactSecrets, SECRET_RULE_IDS, SECRET_RULES, type SecretRuleId } from '../../../src/engine/secrets/index.js';

// Samples are assembled at run time (`join`), so the repository holds no string a secret scanner
// (or a push protection) would flag. Each looks like the real thing: right prefix, length, alphabet.
const join = (...parts: string[]): string => parts.join('');
const rnd = (n: number, alphabet = 'aZ3kQ9mX7pL2vB8n'): string => Array.from({ length: n }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join('');
const hex = (n: number): string => rnd(n, '0123456789abcdef');
const upper = (n: number): string => rnd(n, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567');

/** For each rule: text holding one secret of that kind (the withheld part marked as it must be), and near misses that must find nothing. */
const CASES: Record<SecretRuleId, { readonly positives: readonly string[]; readonly nearMisses: readonly string[] }> = {
  'private-key': {
    positives: [join('-----BEGIN RSA ', 'PRIVATE KEY-----\nMIIEowIBAAKCAQEA', rnd(40), '\n', rnd(64), '\n-----END RSA PRIVATE KEY-----'), join('-----BEGIN OPENSSH ', 'PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----'), join('-----BEGIN ', 'PRIVATE KEY----- pasted without its end')],
    nearMisses: ['-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----', '-----BEGIN CERTIFICATE-----', 'keep the private key out of git'],
  },
  'github-pat': { positives: [join('ghp', '_', rnd(36))], nearMisses: [join('ghp', '_', rnd(12)), 'ghp_ is the prefix of classic tokens'] },
  'github-oauth': { positives: [join('gho', '_', rnd(36))], nearMisses: [join('gho', '_', rnd(20))] },
  'github-app-token': { positives: [join('ghs', '_', rnd(36)), join('ghu', '_', rnd(36))], nearMisses: [join('ghx', '_', rnd(36)), join('ghs', '_short')] },
  'github-refresh-token': { positives: [join('ghr', '_', rnd(36))], nearMisses: [join('ghr', '_', rnd(35))] },
  'github-fine-grained-pat': { positives: [join('github', '_pat_', rnd(22), '_', rnd(59))], nearMisses: ['github_pat_example', 'see github_pat_* tokens'] },
  'gitlab-token': { positives: [join('glpat', '-', rnd(20))], nearMisses: ['glpat-short', 'glpat- is GitLab'] },
  'slack-webhook-url': {
    positives: [join('https://hooks.', 'slack.com/services/T', upper(8), '/B', upper(8), '/', rnd(24))],
    nearMisses: ['https://hooks.slack.com/services/', 'https://api.slack.com/messaging/webhooks'],
  },
  'slack-token': { positives: [join('xox', 'b-', '1234567890', '-', '1234567890123', '-', rnd(24)), join('xox', 'p-', '12345678901-', rnd(30))], nearMisses: ['xoxb-token', 'xoxb-abcdefghijklmnop'] },
  'anthropic-api-key': { positives: [join('sk-', 'ant-api03-', rnd(93), 'AA')], nearMisses: ['sk-ant-', 'sk-ant-key'] },
  'openai-api-key': { positives: [join('sk-', 'proj-', rnd(58), 'T3BlbkFJ', rnd(58)), join('sk-', rnd(48))], nearMisses: ['sk-learn', 'the risk-free task-runner and desk-top app', 'sk-abcdefghijklmnopqrstuvwxyz'] },
  'stripe-secret-key': { positives: [join('sk', '_live_', rnd(24)), join('rk', '_live_', rnd(24)), join('sk', '_test_', rnd(24))], nearMisses: [join('pk', '_live_', rnd(24)), 'sk_live_short'] },
  'google-api-key': { positives: [join('AI', 'za', rnd(35))], nearMisses: [join('AI', 'za', rnd(20)), 'AIzaSy is how keys start'] },
  'aws-access-key-id': { positives: [join('AK', 'IA', upper(16)), join('AS', 'IA', upper(16))], nearMisses: ['AKIA is a prefix', join('ak', 'ia', upper(16).toLowerCase()), join('AK', 'IA', upper(10))] },
  'aws-secret-access-key': {
    positives: [join('AWS_SECRET_ACCESS_KEY=', rnd(40, 'aZ3kQ9/+mX7pL2vB8n')), join('aws_secret_access_key = ', rnd(40)), join('"SecretAccessKey": "', rnd(40), '"')],
    nearMisses: ['AWS_REGION=eu-west-1', join('commit = ', hex(40)), 'aws_secret_access_key = short'],
  },
  'npm-token': { positives: [join('npm', '_', rnd(36))], nearMisses: ['npm_config_registry=https://registry.npmjs.org/', 'npm_lifecycle_event'] },
  'huggingface-token': { positives: [join('hf', '_', rnd(34, 'abcdefghijKLMNOPqrstuvwxyz'))], nearMisses: ['hf_hub_download', 'hf_short'] },
  jwt: {
    positives: [join('ey', 'JhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9', '.', 'ey', 'JzdWIiOiJwcm9qZWN0X3BhdGg6Z3JvdXAvcHJvamVjdCJ9', '.', rnd(43))],
    nearMisses: ['eyJhbGciOiJIUzI1NiJ9', 'eyJhbGciOiJIUzI1NiJ9.notjson.sig', 'version.eyJ.x'],
  },
  'sentry-dsn': { positives: [join('SENTRY_DSN=https://', hex(32), '@o123456.ingest.sentry.io/4500000000000000')], nearMisses: ['https://docs.sentry.io/platforms/javascript/', 'https://public@sentry.example.com/1'] },
  'connection-string-key': {
    positives: [join('DefaultEndpointsProtocol=https;AccountName=acct;Account', 'Key=', rnd(86), '==;EndpointSuffix=core.windows.net'), join('Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccess', 'Key=', rnd(44), '=')],
    nearMisses: ['AccountName=devstoreaccount1;', 'AccountKey=;', 'AccountKey=${STORAGE_KEY}'],
  },
  'credentials-in-url': {
    positives: ['DATABASE_URL=postgres://u:p@h/db', join('REDIS_URL=redis://:', rnd(12), '@cache:6379/0'), join('MONGODB_URI=mongodb+srv://app:', rnd(16), '@cluster0.example.net/db'), 'HTTPS_PROXY=http://user:pass@proxy:8080'],
    nearMisses: ['https://user@host/path', 'http://host:8080/path', 'git@github.com:org/repo.git', 'postgres://${DB_USER}:${DB_PASSWORD}@db/app'],
  },
  'ci-token': {
    positives: [join('CI_JOB_TOKEN=', rnd(20)), join('ACTIONS_ID_TOKEN_REQUEST_TOKEN=', rnd(40)), join('GITHUB_TOKEN: ', rnd(20))],
    nearMisses: ['GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}', 'CI_JOB_ID=12345', 'CI_JOB_TOKEN=$CI_JOB_TOKEN'],
  },
  'secret-assignment': {
    positives: ['password=hunter2', 'DB_PASSWORD=supersecret123', 'MYSQL_PWD=rootpw99', 'api_key: "abcd1234efgh"', '{"password": "correct horse battery"}', 'client_secret: s3cr3tvalue', 'export OPENAI_API_KEY=abcdefgh12345678', '--password=letmein42'],
    nearMisses: [
      'token: string;',
      'accessToken: AccessToken',
      'password = req.body.password;',
      'password = getPassword();',
      'apiKey = process.env.OPENAI_API_KEY',
      'password: ${DB_PASSWORD}',
      'secret: <your secret here>',
      'token=*********',
      'max_tokens=8000000000',
      'tokenizer=abcdefgh12345678',
      'password_hint=abcdefgh12345678',
      'private_key=/home/me/.ssh/id_ed25519',
      'csrf_token=abcdef123456',
      'token budget: 400',
      'const token = "Bearer " + value;',
    ],
  },
  'high-entropy-assignment': {
    positives: [join('SIGNING_KEY=', 'q8Zr2LmX7pW4kT9sV1bN6cY3'), join('session_cookie: "', 'Zx81Qp02Lm93Kd74Vb65', '"')],
    nearMisses: ['SORT_KEY=created_at_desc_order', 'primary_key=user_id_column_12', 'LICENSE_KEY=aaaaaaaaaaaaaaaaaaaa', 'KEY=short1'],
  },
};

describe('the secret rule table', () => {
  it('has one case per rule id, and every rule id is in the table once', () => {
    expect(Object.keys(CASES).sort()).toEqual([...SECRET_RULE_IDS].sort());
    expect(SECRET_RULES.map((r) => r.id)).toEqual([...SECRET_RULE_IDS]);
  });

  for (const id of SECRET_RULE_IDS) {
    describe(id, () => {
      it.each(CASES[id].positives.map((s) => [s]))('finds %j', (sample) => {
        const findings = findSecrets(sample);
        expect(findings.map((f) => f.ruleId)).toEqual([id]);
        const redacted = redactSecrets(sample);
        expect(redacted).toContain(`[secret withheld: ${id}]`);
        // What was withheld is gone, and withholding again changes nothing.
        const finding = findings[0]!;
        expect(redacted).toBe(`${sample.slice(0, finding.start)}[secret withheld: ${id}]${sample.slice(finding.end)}`);
        const withheld = sample.slice(finding.start, finding.end);
        if (withheld.length >= 8) expect(redacted).not.toContain(withheld);
        expect(redactSecrets(redacted)).toBe(redacted);
      });

      it.each(CASES[id].nearMisses.map((s) => [s]))('leaves the near miss %j alone', (sample) => {
        expect(findSecrets(sample)).toEqual([]);
      });
    });
  }

  it('names a secret by the most specific rule when several match (a GitHub token assigned to GITHUB_TOKEN)', () => {
    const token = join('ghp', '_', rnd(36));
    expect(findSecrets(`GITHUB_TOKEN=${token}`).map((f) => f.ruleId)).toEqual(['github-pat']);
    expect(findSecrets(`api_key="${join('sk-', 'ant-api03-', rnd(40))}"`).map((f) => f.ruleId)).toEqual(['anthropic-api-key']);
  });
});
