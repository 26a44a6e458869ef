import { describe, expect, it } from 'vitest';
import { AGENT_ENV, agentChildEnv, buildChildEnv, parsePassEnv, stripUrlCredentials } from '../../../src/engine/secrets/index.js';

const join = (...parts: string[]): string => parts.join('');
const GH = join('ghp', '_', 'aZ3kQ9mX7pL2vB8n'.repeat(3).slice(0, 36));
const WEBHOOK = join('https://hooks.', 'slack.com/services/T0AAAAAAA/B0BBBBBBB/', 'aZ3kQ9mX7pL2vB8naZ3kQ9mX');

const PARENT = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/me',
  USER: 'me',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C.UTF-8',
  TERM: 'xterm-256color',
  TMPDIR: '/tmp',
  TZ: 'Europe/Paris',
  XDG_CONFIG_HOME: '/home/me/.config',
  GITHUB_TOKEN: GH,
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  DATABASE_URL: 'postgres://u:p@h/db',
  NODE_OPTIONS: '--require /tmp/evil.js',
  OPENAI_API_KEY: 'openai-for-codex',
  ANTHROPIC_API_KEY: 'anthropic-for-claude',
  GEMINI_API_KEY: 'gemini-for-gemini',
  FOO_API_KEY: 'unrelated',
  LC_NOTES: WEBHOOK,
  HTTPS_PROXY: 'http://user:pass@proxy:8080',
  no_proxy: 'localhost,127.0.0.1',
  JAVA_HOME: '/opt/java',
  npm_config_cache: '/home/me/.npm',
  npm_config__authToken: 'npm-secret',
  npm_package_name: 'relay-desk',
  GIT_AUTHOR_NAME: 'Me',
  DISPLAY: ':0',
  UNSET: undefined,
} as const;

describe('buildChildEnv()', () => {
  it('base: only the allow-list, never the secrets around it', () => {
    expect(buildChildEnv({ from: PARENT, profile: 'base', platform: 'linux' })).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/me',
      USER: 'me',
      LANG: 'en_US.UTF-8',
      LC_ALL: 'C.UTF-8',
      TERM: 'xterm-256color',
      TMPDIR: '/tmp',
      TZ: 'Europe/Paris',
      XDG_CONFIG_HOME: '/home/me/.config',
      HTTPS_PROXY: 'http://proxy:8080',
      no_proxy: 'localhost,127.0.0.1',
    });
  });

  it('tools adds toolchains, npm settings without credentials and git identity; desktop adds the display', () => {
    const tools = buildChildEnv({ from: PARENT, profile: 'tools', platform: 'linux' });
    expect(tools).toMatchObject({ JAVA_HOME: '/opt/java', npm_config_cache: '/home/me/.npm', GIT_AUTHOR_NAME: 'Me' });
    expect(tools).not.toHaveProperty('npm_config__authToken');
    expect(tools).not.toHaveProperty('npm_package_name');
    expect(tools).not.toHaveProperty('DISPLAY');
    expect(buildChildEnv({ from: PARENT, profile: 'desktop', platform: 'linux' })).toMatchObject({ DISPLAY: ':0' });
  });

  it('drops an allowed name whose value looks like a secret (a webhook in LC_NOTES)', () => {
    expect(buildChildEnv({ from: PARENT, profile: 'base', platform: 'linux' })).not.toHaveProperty('LC_NOTES');
    expect(buildChildEnv({ from: { TERM: GH }, profile: 'base', platform: 'linux' })).toEqual({});
  });

  it('passes declared keys as they are, and values Relay Desk sets', () => {
    const env = buildChildEnv({ from: PARENT, profile: 'base', keys: ['OPENAI_API_KEY'], set: { PHONE_A_FRIEND_DEPTH: '1' }, platform: 'linux' });
    expect(env).toMatchObject({ OPENAI_API_KEY: 'openai-for-codex', PHONE_A_FRIEND_DEPTH: '1' });
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
  });

  it('never passes NODE_OPTIONS or other code-loading variables, not even when declared', () => {
    const env = buildChildEnv({ from: { ...PARENT, LD_PRELOAD: '/tmp/x.so', BASH_ENV: '/tmp/x.sh', RELAY_PASS_ENV: 'NODE_OPTIONS,LD_PRELOAD' }, profile: 'tools', keys: ['NODE_OPTIONS'], allow: ['BASH_ENV'], platform: 'linux' });
    for (const name of ['NODE_OPTIONS', 'LD_PRELOAD', 'BASH_ENV']) expect(env).not.toHaveProperty(name);
  });

  it('RELAY_PASS_ENV: an exact name passes as the user\'s declaration; a PREFIX_* family only passes what looks like no secret', () => {
    const from = { ...PARENT, RELAY_PASS_ENV: 'GITHUB_TOKEN, MYAPP_*', MYAPP_MODE: 'dev', MYAPP_TOKEN: 'x', MYAPP_NOTE: GH };
    const env = buildChildEnv({ from, profile: 'base', platform: 'linux' });
    expect(env).toMatchObject({ GITHUB_TOKEN: GH, MYAPP_MODE: 'dev' });
    expect(env).not.toHaveProperty('MYAPP_TOKEN');
    expect(env).not.toHaveProperty('MYAPP_NOTE');
    expect(parsePassEnv(' A_B,,C_* bad-name\tD ')).toEqual({ exact: ['A_B', 'D'], families: ['C_*'] });
  });

  it('matches names case-insensitively on Windows (Path, ComSpec) and not elsewhere', () => {
    const from = { Path: 'C:\\Windows', ComSpec: 'C:\\Windows\\system32\\cmd.exe', SystemRoot: 'C:\\Windows', path_hint: 'x' };
    expect(buildChildEnv({ from, profile: 'base', platform: 'win32' })).toEqual({ Path: 'C:\\Windows', ComSpec: 'C:\\Windows\\system32\\cmd.exe', SystemRoot: 'C:\\Windows' });
    expect(buildChildEnv({ from: { Path: '/x' }, profile: 'base', platform: 'linux' })).toEqual({});
  });
});

describe('agentChildEnv()', () => {
  it('gives each agent its own key and nobody else\'s', () => {
    const codex = agentChildEnv('codex', PARENT, { platform: 'linux' });
    const claude = agentChildEnv('claude', PARENT, { platform: 'linux' });
    const gemini = agentChildEnv('gemini', PARENT, { platform: 'linux' });
    expect(codex).toMatchObject({ OPENAI_API_KEY: 'openai-for-codex' });
    expect(claude).toMatchObject({ ANTHROPIC_API_KEY: 'anthropic-for-claude' });
    expect(gemini).toMatchObject({ GEMINI_API_KEY: 'gemini-for-gemini' });
    for (const [env, others] of [[codex, ['ANTHROPIC_API_KEY', 'GEMINI_API_KEY']], [claude, ['OPENAI_API_KEY', 'GEMINI_API_KEY']], [gemini, ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY']]] as const) {
      for (const name of [...others, 'GITHUB_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'DATABASE_URL', 'NODE_OPTIONS', 'FOO_API_KEY', 'LC_NOTES', 'npm_config__authToken']) expect(env).not.toHaveProperty(name);
      expect(env).toMatchObject({ HTTPS_PROXY: 'http://proxy:8080', PATH: '/usr/bin:/bin', JAVA_HOME: '/opt/java' });
    }
  });

  it('declares, for every agent, keys that look like credentials and settings that do not', () => {
    for (const declared of Object.values(AGENT_ENV)) expect(declared.keys.length).toBeGreaterThan(0);
  });
});

describe('stripUrlCredentials()', () => {
  it.each([
    ['http://user:pass@proxy:8080', 'http://proxy:8080'],
    ['https://u@proxy.corp:3128/', 'https://proxy.corp:3128/'],
    ['user:pass@proxy:8080', 'proxy:8080'],
    ['socks5://a:b@s:1080,http://plain:80', 'socks5://s:1080,http://plain:80'],
    ['http://proxy:8080', 'http://proxy:8080'],
  ])('%s → %s', (input, output) => {
    expect(stripUrlCredentials(input)).toBe(output);
  });
});
