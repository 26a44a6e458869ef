// The environment a child process gets: an ALLOW-LIST, never "everything minus a deny-list".
// A child sees only the names below (and the few its caller declares), and even an allowed name
// is dropped when its value looks like a secret (a token in LC_NOTES, a webhook in TERM), except
// the credentials the caller declares as the child's own (the one API key an agent needs).
//
// NODE_OPTIONS and the other variables that make a program load code (LD_PRELOAD, BASH_ENV,
// PYTHONSTARTUP, JAVA_TOOL_OPTIONS, GIT_CONFIG_PARAMETERS, GIT_SSH_COMMAND...) never pass, not even
// when declared: they turn an environment into code execution in every node (or shell, python,
// java, git) the child starts. VS Code's debug terminals set NODE_OPTIONS to a --require bootloader
// and Electron development sets inspector flags; a linter or agent must not inherit them. A user
// who needs `--max-old-space-size` for tsc puts it in the command (`node --max-old-space-size=8192
// node_modules/typescript/bin/tsc`).
//
// The user widens the list for every child with RELAY_PASS_ENV (names separated by commas or
// spaces, `PREFIX_*` for a family). An exact name is the user's own declaration and passes even
// when it looks like a credential (RELAY_PASS_ENV=GH_TOKEN); a `PREFIX_*` entry passes only
// variables that look like no secret, by name or by value.
import { assertNever } from '../result.js';
import { containsSecret } from './detect.js';
import { isSecretName } from './names.js';

/** An environment as name → value pairs (process.env's shape). */
export type Env = Readonly<Record<string, string | undefined>>;

declare const CHILD_ENV: unique symbol;
/** A child's complete environment, built by buildChildEnv: engine/proc accepts no other. */
export type ChildEnv = Readonly<Record<string, string>> & { readonly [CHILD_ENV]: true };

/** The variable a user sets to pass more names to every child (see the header of this file). */
export const PASS_ENV_VARIABLE = 'RELAY_PASS_ENV';

/**
 * What every child gets: where programs and home are, who the user is, locale, terminal, temp
 * folders, time zone, CA bundles, the Windows essentials and the XDG base folders.
 */
export const BASE_NAMES: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL',
  'LANG', 'LANGUAGE', 'LC_*',
  'TERM', 'COLORTERM', 'NO_COLOR', 'FORCE_COLOR', 'COLUMNS', 'LINES',
  'TMPDIR', 'TMP', 'TEMP', 'TZ',
  'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE',
  'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR', 'XDG_CONFIG_DIRS', 'XDG_DATA_DIRS',
  // Windows: without these many programs (and cmd.exe shims of npm tools) cannot start.
  'SystemRoot', 'SystemDrive', 'ComSpec', 'PATHEXT', 'WINDIR', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE', 'HOMEDRIVE', 'HOMEPATH',
  'ProgramFiles', 'ProgramFiles(x86)', 'ProgramW6432', 'ProgramData', 'CommonProgramFiles', 'CommonProgramFiles(x86)', 'CommonProgramW6432',
  'ALLUSERSPROFILE', 'PUBLIC', 'USERNAME', 'USERDOMAIN', 'COMPUTERNAME', 'OS', 'PROCESSOR_ARCHITECTURE', 'NUMBER_OF_PROCESSORS',
];

/** Proxy settings: passed with any `user:password@` taken out of their URLs. */
export const PROXY_NAMES: readonly string[] = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'all_proxy', 'no_proxy'];

/**
 * What the user's own tools need on top of the base (linters, pre/post commands, verification
 * commands, and agents, which run the same tools): toolchain locations, npm settings without
 * credentials, and git identity (a command may commit). Not flag variables that can name
 * programs to run (GOFLAGS -toolexec, RUSTC_WRAPPER), nor npm's `npm_package_*` /
 * `npm_lifecycle_*` (they describe Relay Desk's own package when it runs under npm).
 */
export const TOOL_NAMES: readonly string[] = [
  'JAVA_HOME', 'GOPATH', 'GOROOT', 'GOCACHE', 'GOMODCACHE', 'GOPROXY', 'GOPRIVATE', 'GONOSUMDB', 'GOTOOLCHAIN',
  'CARGO_HOME', 'RUSTUP_HOME', 'RUSTUP_TOOLCHAIN',
  'VIRTUAL_ENV', 'CONDA_PREFIX', 'CONDA_DEFAULT_ENV', 'PYENV_ROOT', 'PYENV_VERSION', 'UV_CACHE_DIR', 'PIP_CACHE_DIR', 'PIP_INDEX_URL',
  'NVM_DIR', 'NVM_BIN', 'NVM_INC', 'VOLTA_HOME', 'PNPM_HOME', 'BUN_INSTALL', 'DENO_DIR', 'COREPACK_HOME', 'YARN_CACHE_FOLDER',
  'npm_config_*', 'NPM_CONFIG_*',
  'GEM_HOME', 'GEM_PATH', 'RBENV_ROOT', 'RBENV_VERSION', 'DOTNET_ROOT', 'ANDROID_HOME', 'ANDROID_SDK_ROOT',
  'GIT_AUTHOR_NAME', 'GIT_AUTHOR_EMAIL', 'GIT_AUTHOR_DATE', 'GIT_COMMITTER_NAME', 'GIT_COMMITTER_EMAIL', 'GIT_COMMITTER_DATE',
  // Which git config files apply: the user's own choice of files, the same git in their shell reads.
  'GIT_CONFIG_GLOBAL', 'GIT_CONFIG_SYSTEM', 'GIT_CONFIG_NOSYSTEM',
];

/** What a program that opens a window needs (a terminal emulator, a browser): the desktop session. */
export const DESKTOP_NAMES: readonly string[] = [
  'DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_CURRENT_DESKTOP', 'XDG_SESSION_TYPE', 'XDG_SESSION_DESKTOP', 'DESKTOP_SESSION', 'BROWSER', 'TERMINAL',
];

/** Variables that make programs load code: never passed, whoever asks (see the header). */
export const NEVER_NAMES: readonly string[] = [
  'NODE_OPTIONS', 'LD_PRELOAD', 'LD_AUDIT', 'DYLD_*', 'BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PYTHONSTARTUP', 'PERL5OPT', 'RUBYOPT',
  'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'GIT_CONFIG_PARAMETERS', 'GIT_CONFIG_COUNT', 'GIT_CONFIG_KEY_*', 'GIT_CONFIG_VALUE_*',
  // Set only by Relay Desk itself (`set`), for the relay CLI it starts in a terminal.
  'ELECTRON_RUN_AS_NODE',
];

/** npm settings that hold credentials (`npm_config__authToken`, `npm_config_//host/:_password`...). */
const NPM_AUTH = /^npm_config_.*(?:auth|token|password|_pass|username|email|cert|key)/i;

export type EnvProfile = 'base' | 'tools' | 'desktop';

/** What a caller asks for; buildChildEnv turns it into the child's whole environment. */
export interface ChildEnvRequest {
  /** The environment the child's is drawn from (the caller's own, usually process.env). */
  readonly from: Env;
  /** base: BASE_NAMES and proxies. tools: base + TOOL_NAMES. desktop: base + DESKTOP_NAMES. */
  readonly profile: EnvProfile;
  /** More names this child needs (`NAME` or `PREFIX_*`); values that look like secrets are still dropped. */
  readonly allow?: readonly string[];
  /** Credentials this child needs (the agent's API key): passed whatever their value looks like. */
  readonly keys?: readonly string[];
  /** Variables Relay Desk itself sets for the child (the relay depth guard); passed as given. */
  readonly set?: Readonly<Record<string, string>>;
  /** Windows compares names case-insensitively (Path and PATH are one variable). */
  readonly platform?: NodeJS.Platform;
}

/** A name list as a matcher: exact names, and `PREFIX*` entries matching by prefix. */
function matcher(entries: readonly string[], caseless: boolean): (name: string) => boolean {
  const norm = (s: string): string => (caseless ? s.toUpperCase() : s);
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const entry of entries) {
    if (entry.endsWith('*')) prefixes.push(norm(entry.slice(0, -1)));
    else exact.add(norm(entry));
  }
  return (name) => {
    const n = norm(name);
    return exact.has(n) || prefixes.some((p) => n.startsWith(p));
  };
}

/** The names a user's RELAY_PASS_ENV declares: exact ones, and `PREFIX_*` families. */
export function parsePassEnv(value: string | undefined): { readonly exact: readonly string[]; readonly families: readonly string[] } {
  const entries = (value ?? '').split(/[\s,]+/).filter((e) => /^[A-Za-z_][A-Za-z0-9_]*\*?$/.test(e));
  return { exact: entries.filter((e) => !e.endsWith('*')), families: entries.filter((e) => e.endsWith('*')) };
}

/** A proxy URL without its `user:password@` part (`http://u:p@proxy:8080` → `http://proxy:8080`). */
export function stripUrlCredentials(value: string): string {
  return value
    .split(',')
    .map((part) => part.replace(/^(\s*(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?)[^@/\s]*@/, '$1'))
    .join(',');
}

function profileNames(profile: EnvProfile): readonly string[] {
  switch (profile) {
    case 'base':
      return [...BASE_NAMES, ...PROXY_NAMES];
    case 'tools':
      return [...BASE_NAMES, ...PROXY_NAMES, ...TOOL_NAMES];
    case 'desktop':
      return [...BASE_NAMES, ...PROXY_NAMES, ...DESKTOP_NAMES];
    default:
      return assertNever(profile);
  }
}

/** The child's whole environment for `request` (see the header of this file for the rules). */
export function buildChildEnv(request: ChildEnvRequest): ChildEnv {
  const caseless = (request.platform ?? process.platform) === 'win32';
  const pass = parsePassEnv(request.from[PASS_ENV_VARIABLE]);
  const never = matcher(NEVER_NAMES, caseless);
  const isKey = matcher([...(request.keys ?? []), ...pass.exact], caseless);
  const isProxy = matcher(PROXY_NAMES, caseless);
  const isAllowed = matcher([...profileNames(request.profile), ...(request.allow ?? [])], caseless);
  const isFamily = matcher(pass.families, caseless);
  const isNpmConfig = matcher(['npm_config_*'], true);
  const env: Record<string, string> = {};
  for (const [name, raw] of Object.entries(request.from)) {
    if (raw === undefined || never(name)) continue;
    if (isKey(name)) {
      env[name] = raw;
      continue;
    }
    if (isNpmConfig(name) && NPM_AUTH.test(name)) continue;
    const value = isProxy(name) ? stripUrlCredentials(raw) : raw;
    const allowed = isAllowed(name) || (isFamily(name) && !isSecretName(name));
    if (allowed && !containsSecret(value)) env[name] = value;
  }
  return { ...env, ...request.set } as ChildEnv;
}
