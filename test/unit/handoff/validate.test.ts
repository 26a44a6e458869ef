import { describe, expect, it } from 'vitest';
import { renderBrief } from '../../../src/engine/handoff/render.js';
import { buildBrief } from '../../../src/engine/handoff/synthesize.js';
import { validateBrief, type ValidationMode } from '../../../src/engine/handoff/validate.js';
import { findSecrets, redactSecrets, redactSecretsDeep } from '../../../src/engine/secrets/index.js';
import { FAKE_SECRETS, sampleHistory, transaction } from '../../helpers/handoff.js';

const NOW = new Date('2026-05-10T10:30:00.000Z');

async function briefWith(reasoning: string): Promise<string> {
  const history = sampleHistory({ transactions: [transaction({ uuid: 'secret-tx', createdAt: '2026-05-10T10:00:00Z', reasoning: [reasoning] })] });
  return renderBrief(await buildBrief({ history, now: NOW, briefId: 'brief-1-a', gitLogEnabled: false })).markdown;
}

async function cleanBrief(): Promise<string> {
  return renderBrief(await buildBrief({ history: sampleHistory(), now: NOW, briefId: 'brief-1-a', gitLogEnabled: false })).markdown;
}

describe('validateBrief', () => {
  describe('secrets', () => {
    for (const [pattern, secret] of Object.entries(FAKE_SECRETS)) {
      for (const mode of ['strict', 'permissive'] as const satisfies readonly ValidationMode[]) {
        it(`refuses ${pattern} in ${mode} mode, even forced, naming the pattern and never the text`, async () => {
          // PEM blocks span lines, and reasoning is folded to one line in the brief: use the header line.
          const md = pattern === 'private-key' ? `${await cleanBrief()}\n${secret}\n` : await briefWith(`I used ${secret} to test it.`);
          const report = validateBrief(md, { mode, force: true });
          expect(report.ok).toBe(false);
          const issue = report.errors.find((e) => e.code === 'SECRET_DETECTED');
          expect(issue?.pattern).toBe(pattern);
          expect(issue?.line).toBeGreaterThan(0);
          const printed = JSON.stringify(report);
          const core = pattern === 'secret-assignment' ? 'hunter2hunter2' : pattern === 'private-key' ? 'MIIEow' : secret;
          expect(printed).not.toContain(core);
          expect(issue?.message).toContain('no override');
        });
      }
    }

    it('says which section the secret is in', async () => {
      const report = validateBrief(await briefWith(`key ${FAKE_SECRETS['aws-access-key-id']}`), { mode: 'permissive' });
      expect(report.errors[0]!.section).toBe('Recent decisions');
    });

    it('catches key=value secrets whose name ends in the keyword, as env files and exports spell them', () => {
      const assignments = [
        ['DB_PASSWORD=supersecret123', 'secret-assignment'],
        ['export OPENAI_API_KEY=abcdefgh12345678', 'secret-assignment'],
        ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'aws-secret-access-key'],
        ['github_token: "abcdefghijklmnop1234"', 'secret-assignment'],
        ['stripe-secret-key = abcdefgh12345678', 'secret-assignment'],
      ];
      for (const [line, rule] of assignments) expect(findSecrets(line!).map((f) => [f.ruleId, f.line]), line).toEqual([[rule, 1]]);
      // A keyword inside a word is not a name segment.
      for (const line of ['tokenizer=abcdefgh12345678', 'max_tokens=8000000000', 'password_hint=abcdefgh12345678']) expect(findSecrets(line), line).toEqual([]);
    });

    it('does not flag ordinary brief text, references to where secrets live, or masks', async () => {
      expect(validateBrief(await cleanBrief(), { mode: 'strict' }).errors).toEqual([]);
      const benign = [
        'token budget: 400',
        'apiKey = process.env.OPENAI_API_KEY',
        'password: ${DB_PASSWORD}',
        'secret: <your secret here>',
        'token=*********',
        'the risk-free task-runner and desk-top app',
        'AKIA is a prefix',
        'max_tokens=8000000000',
      ];
      for (const line of benign) expect(findSecrets(line), line).toEqual([]);
    });
  });

  describe('STRICT', () => {
    it('passes a rendered brief', async () => {
      const report = validateBrief(await cleanBrief(), { mode: 'strict' });
      expect(report).toMatchObject({ mode: 'strict', ok: true, errors: [], warnings: [] });
    });

    it('requires every section, in order, and the schema header', async () => {
      const md = (await cleanBrief()).replace('## Files touched', '## Files').replace('**Schema version:** 1', '**Schema version:** 2');
      const report = validateBrief(md, { mode: 'strict', force: true });
      expect(report.ok).toBe(false);
      expect(report.errors.map((e) => e.code).sort()).toEqual(['SCHEMA_VERSION_INVALID', 'SECTION_MISSING']);
      expect(report.errors.find((e) => e.code === 'SECTION_MISSING')!.section).toBe('Files touched');
      expect(validateBrief(md, { mode: 'permissive' }).ok).toBe(true);
    });

    it('refuses a brief over the hard cap unless forced, and then warns', async () => {
      const md = `${await cleanBrief()}\n${'word '.repeat(7_000)}`;
      const refused = validateBrief(md, { mode: 'strict' });
      expect(refused.ok).toBe(false);
      expect(refused.errors.map((e) => e.code)).toEqual(['HARD_CAP_EXCEEDED']);
      expect(refused.errors[0]!.message).toContain('--force');
      const forced = validateBrief(md, { mode: 'strict', force: true });
      expect(forced.ok).toBe(true);
      expect(forced.warnings.map((w) => w.code)).toEqual(['HARD_CAP_EXCEEDED']);
    });
  });

  describe('PERMISSIVE', () => {
    it('accepts a brief over the hard cap with a soft-cap warning', async () => {
      const md = `${await cleanBrief()}\n${'word '.repeat(7_000)}`;
      const report = validateBrief(md, { mode: 'permissive' });
      expect(report.ok).toBe(true);
      expect(report.tokens).toBeGreaterThan(8_000);
      expect(report.warnings.map((w) => w.code)).toEqual(['SOFT_CAP_EXCEEDED']);
      expect(report.warnings[0]!.message).toContain('hard cap');
    });

    it('warns between the soft and the hard cap in both modes', async () => {
      const md = `${await cleanBrief()}\n${'word '.repeat(3_000)}`;
      for (const mode of ['strict', 'permissive'] as const) {
        const report = validateBrief(md, { mode });
        expect(report.ok).toBe(true);
        expect(report.warnings.map((w) => w.code)).toEqual(['SOFT_CAP_EXCEEDED']);
      }
    });
  });
});

describe('redactSecrets', () => {
  it.each(Object.entries(FAKE_SECRETS))('withholds %s and keeps the text around it', (name, secret) => {
    const out = redactSecrets(`before\n${secret}\nafter`);
    // An assignment keeps its name and quotes: only the value is withheld.
    expect(out).toBe(`before\n${name === 'secret-assignment' ? `password = "[secret withheld: ${name}]"` : `[secret withheld: ${name}]`}\nafter`);
    expect(findSecrets(out)).toEqual([]);
  });

  it('withholds every occurrence, in strings nested in objects and arrays, and leaves clean text alone', () => {
    const value = { title: `a ${FAKE_SECRETS['aws-access-key-id']} b ${FAKE_SECRETS['aws-access-key-id']}`, list: ['max_tokens=4096', { deep: FAKE_SECRETS['openai-api-key'] }], n: 3 };
    expect(redactSecretsDeep(value)).toEqual({ title: 'a [secret withheld: aws-access-key-id] b [secret withheld: aws-access-key-id]', list: ['max_tokens=4096', { deep: '[secret withheld: openai-api-key]' }], n: 3 });
  });
});
