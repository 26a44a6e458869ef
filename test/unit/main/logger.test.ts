// The desktop app's log: private like the database (it can quote answers), never throwing.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/main/logger.js';
import { tempDir } from '../../helpers/temp.js';

describe('createLogger', () => {
  it('creates logs/ 0700 and main.log 0600, and tightens a log an older build left readable', () => {
    const logs = path.join(tempDir(), 'logs');
    const log = createLogger(logs);
    log.info('started');
    log.error('failed', new Error('boom'));
    expect(statSync(logs).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(logs, 'main.log')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(logs, 'main.log'), 'utf8')).toMatch(/INFO  started\n.*ERROR failed: Error: boom/s);

    const old = path.join(tempDir(), 'logs');
    mkdirSync(old);
    writeFileSync(path.join(old, 'main.log'), 'old\n');
    chmodSync(path.join(old, 'main.log'), 0o644);
    createLogger(old).info('again');
    expect(statSync(path.join(old, 'main.log')).mode & 0o777).toBe(0o600);
  });
  it('writes timestamped lines with secrets withheld, by rule and by the values of secret-looking variables', () => {
    const dir = tempDir();
    const key = ['sk', '-proj-', 'aZ3kQ9mX7pL2vB8n'.repeat(2)].join('');
    const log = createLogger(dir, { PATH: '/usr/bin', MY_SERVICE_PASSWORD: 'correct-horse-battery' });
    log.info(`relay ask failed: key ${key} rejected`);
    log.error('postCommand failed', new Error('login as admin with correct-horse-battery refused'));
    const text = readFileSync(path.join(dir, 'main.log'), 'utf8');
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT[^ ]+ INFO  relay ask failed: key \[secret withheld: openai-api-key\] rejected\n/);
    expect(text).toContain('ERROR postCommand failed: Error: login as admin with [secret withheld: env-secret-value] refused');
    expect(text).not.toContain(key);
    expect(text).not.toContain('correct-horse-battery');
  });
});
