import { describe, expect, it } from 'vitest';
import { backendEnv, isSecretLooking, redact, secretValues } from '../../../src/engine/relay/env.js';

describe('isSecretLooking()', () => {
  it.each(['OPENAI_API_KEY', 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'DB_PASSWORD', 'NPM_TOKEN', 'SSH_AUTH_SOCK', 'GPG_KEY', 'my_apikey', 'GOOGLE_APPLICATION_CREDENTIALS', 'SESSION_COOKIE'])('flags %s by its name', (name) => {
    expect(isSecretLooking(name, 'x')).toBe(true);
  });

  it.each(['PATH', 'HOME', 'PWD', 'LANG', 'MONKEY', 'KEYBOARD_LAYOUT', 'TERM', 'PHONE_A_FRIEND_DEPTH', 'OLLAMA_HOST', 'RELAY_CODEX_BIN'])('leaves %s alone', (name) => {
    expect(isSecretLooking(name, '/usr/bin')).toBe(false);
  });

  it('flags credentials by their value whatever the name', () => {
    expect(isSecretLooking('MY_VAR', 'sk-proj-abcdefghijkl')).toBe(true);
    expect(isSecretLooking('X', 'ghp_0123456789abcdef')).toBe(true);
    expect(isSecretLooking('X', 'AKIAABCDEFGHIJKLMNOP')).toBe(true);
    expect(isSecretLooking('X', 'skeleton')).toBe(false);
  });
});

describe('backendEnv()', () => {
  const parent = { PATH: '/bin', HOME: '/home/me', OPENAI_API_KEY: 'sk-aaaaaaaaaaaa', GITHUB_TOKEN: 'ghp_bbbbbbbbbbbb', CLAUDECODE: '1', UNSET: undefined };

  it('strips secret-looking variables the backend does not need and keeps the rest', () => {
    expect(backendEnv(parent, { keep: [] })).toEqual({ PATH: '/bin', HOME: '/home/me', CLAUDECODE: '1' });
  });

  it('keeps the backend\'s own keys, drops named variables, and sets the given ones', () => {
    const env = backendEnv(parent, { keep: ['OPENAI_API_KEY'], drop: ['CLAUDECODE'], set: { PHONE_A_FRIEND_DEPTH: '1' } });
    expect(env).toEqual({ PATH: '/bin', HOME: '/home/me', OPENAI_API_KEY: 'sk-aaaaaaaaaaaa', PHONE_A_FRIEND_DEPTH: '1' });
  });
});

describe('redact()', () => {
  it('masks every secret value of the environment in a message', () => {
    const secrets = secretValues({ OPENAI_API_KEY: 'sk-live-0123456789', PATH: '/usr/bin', SHORT_TOKEN: 'abc' });
    expect(secrets).toEqual(['sk-live-0123456789']);
    expect(redact('401: key sk-live-0123456789 rejected (sk-live-0123456789)', secrets)).toBe('401: key *** rejected (***)');
  });
});
