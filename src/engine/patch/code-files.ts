// Which files of a patch are code that Relay Desk's own commands would run. The linter and the
// pre/post commands of relay.config.json run on the patched tree (and the preCommand on the next
// patch's tree), so an answer that edits a file those commands execute or load would get its code
// run before any person looked at it. Such a patch goes to manual approval whatever approvalMode
// says, and no command runs until a person approved the diff (see transaction.ts).
//
// The list below is the ONE place that says which files count as code; each entry says why.
// It errs on the side of asking: a false positive costs one click, a false negative runs code.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readTextOrNull } from '../fs/read.js';
import path from 'node:path';

/** A changed file that a configured command would execute or load, and why it counts. */
export interface ExecutedFile {
  readonly path: string;
  readonly why: string;
}

interface CodeFileRule {
  readonly test: (relative: string, base: string) => boolean;
  readonly why: string;
}

const name = (...names: string[]) => (_: string, base: string) => names.includes(base);
const nameMatches = (pattern: RegExp) => (_: string, base: string) => pattern.test(base);
const under = (...folders: string[]) => (relative: string) => relative.split('/').some((segment, i, all) => i < all.length - 1 && folders.includes(segment));

/** Files that are code (or load code) for the tools a linter or pre/post command typically starts. */
const CODE_FILE_RULES: readonly CodeFileRule[] = [
  { test: name('package.json'), why: 'package.json scripts are what `npm run`, `npx`, `pnpm` and `yarn` execute (and its lifecycle scripts run on install)' },
  { test: nameMatches(/\.config\.(js|cjs|mjs|ts|mts|cts|jsx|tsx)$/), why: 'a *.config.js/ts file is a JavaScript/TypeScript module that the tool (vite, vitest, jest, eslint, prettier, webpack, tailwind…) imports and runs' },
  { test: nameMatches(/^\.(eslintrc|prettierrc|babelrc|stylelintrc|mocharc|lintstagedrc|swcrc|releaserc)(\..*)?$/), why: 'tool configuration that is code or names plugins and parsers by path, which the tool loads and runs' },
  { test: nameMatches(/^(babel|jest|eslint|prettier|stylelint|lint-staged|commitlint)\.config\..*$/), why: 'tool configuration that is code or names plugins by path, which the tool loads and runs' },
  { test: nameMatches(/^tsconfig(\..*)?\.json$/), why: 'tsconfig.json can name modules ts-node and tsx load before anything else ("ts-node": { "require": […] })' },
  { test: name('Makefile', 'makefile', 'GNUmakefile'), why: 'make runs the shell commands of its Makefile' },
  { test: nameMatches(/\.mk$/), why: 'make includes *.mk files and runs their shell commands' },
  { test: name('justfile', 'Justfile', '.justfile', 'Taskfile.yml', 'Taskfile.yaml', 'Rakefile', 'Gemfile', 'Brewfile'), why: 'a task runner file: its recipes are shell commands or Ruby code' },
  { test: name('.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs', '.pnpmfile.mjs', 'pnpm-workspace.yaml', 'bunfig.toml', '.bunfig.toml'), why: 'package manager settings can set script-shell, node-options, yarnPath or hooks: the package manager runs them' },
  { test: under('.yarn'), why: 'Yarn runs the release (yarnPath) and plugins kept under .yarn/' },
  { test: under('.husky'), why: 'husky hooks are shell scripts git runs' },
  { test: name('lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml', 'lefthook-local.yml', '.pre-commit-config.yaml', '.pre-commit-hooks.yaml', '.lintstagedrc'), why: 'git hook managers run the commands this file lists' },
  { test: under('node_modules'), why: 'node_modules holds the programs npx, node and every JavaScript tool load and run' },
  { test: under('.venv', 'venv', 'site-packages'), why: 'a Python environment: its programs and .pth files run when the tools in it start' },
  { test: nameMatches(/^(sitecustomize|usercustomize)\.py$|\.pth$/), why: 'Python imports and runs these at start-up' },
  { test: name('conftest.py'), why: 'pytest imports conftest.py files as code' },
  { test: name('setup.py', 'noxfile.py', 'fabfile.py', 'dodo.py', 'manage.py'), why: 'a Python file that build and test tools execute' },
  { test: name('tox.ini', 'pyproject.toml', 'setup.cfg', 'pytest.ini', '.pylintrc', 'pylintrc', 'mypy.ini', '.flake8'), why: 'Python tool configuration can name plugins, hooks or commands that the tool loads and runs' },
  { test: name('build.rs', 'Cargo.toml'), why: 'cargo compiles and runs build.rs (and build scripts named in Cargo.toml) before checking or building' },
  { test: under('.cargo'), why: '.cargo/config.toml can set a runner or rustc wrapper that cargo executes' },
  { test: nameMatches(/^\.golangci\.(ya?ml|toml|json)$/), why: 'golangci-lint configuration can load plugins (compiled code) by path' },
  { test: nameMatches(/^\.rubocop.*\.ya?ml$/), why: 'rubocop configuration can `require` Ruby files, which it runs' },
  { test: nameMatches(/^\.env(\..*)?$/), why: 'tools that load .env into the environment pass on NODE_OPTIONS or PYTHONSTARTUP, which run code' },
  { test: name('.envrc'), why: 'direnv runs .envrc as a shell script' },
  { test: under('.githooks', 'git-hooks'), why: 'a hooks folder that git can be pointed at (core.hooksPath) runs these scripts' },
];

/** Interpreters: the options before the script and the script itself are code; what follows are its arguments. */
const INTERPRETERS = new Set([
  'node', 'nodejs', 'deno', 'bun', 'tsx', 'ts-node', 'sh', 'bash', 'zsh', 'dash', 'fish', 'ksh', 'pwsh', 'powershell',
  'python', 'python3', 'python2', 'pypy', 'pypy3', 'ruby', 'perl', 'php', 'lua', 'Rscript',
]);

/** Interpreter options whose value is a file that is loaded as code (`node -r ./hook.js`). */
const CODE_VALUE_OPTIONS = new Set(['-r', '--require', '--import', '--loader', '--experimental-loader', '-m', '--rcfile', '--init-file']);

/** Test runners: every file or folder they are given is imported and run. */
const TEST_RUNNERS = new Set(['pytest', 'py.test', 'jest', 'vitest', 'mocha', 'ava', 'tap', 'jasmine', 'karma', 'rspec', 'phpunit', 'playwright', 'cypress']);

/** Files with these extensions are code when a tool is told to load them (`--config eslint.local.cjs`). */
const CODE_EXTENSION = /\.(js|cjs|mjs|jsx|ts|cts|mts|tsx|py|rb|pl|sh|bash|zsh|ps1|bat|cmd|php|lua)$/i;

/** Options whose value a tool loads (a config, plugin, rules folder, setup file…). */
const LOADING_OPTION = /^(-c|-r|-p|--?[a-z-]*(config|plugin|rule|require|import|loader|setup|preset|parser|transform|resolver|reporter|project|init)[a-z-]*)$/i;

function programName(argv0: string): string {
  return path.basename(argv0).replace(/\.(exe|cmd|bat)$/i, '');
}

/** The project-relative path an argv element names, when it names something inside the project other than the root. */
function operandPath(root: string, value: string): string | null {
  if (value === '' || value.startsWith('-')) return null;
  const absolute = path.resolve(root, value);
  const relative = path.relative(root, absolute);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return relative.split(path.sep).join('/');
}

/**
 * The argv elements of one command that name code: the program itself when given as a path
 * (`./scripts/fmt.sh`); for an interpreter, the files its code options load and the script (not
 * the script's own arguments); for a test runner, every file or folder operand; for any other
 * tool, option values that are code files (`--config=eslint.local.cjs`, `-c x.js`).
 */
function codeOperands(argv: readonly string[]): string[] {
  const program = programName(argv[0]!);
  const out: string[] = [];
  if (argv[0]!.includes('/') || argv[0]!.includes('\\')) out.push(argv[0]!);
  const rest = argv.slice(1);
  if (INTERPRETERS.has(program)) {
    for (let i = 0; i < rest.length; i += 1) {
      const arg = rest[i]!;
      if (arg.startsWith('-')) {
        if (arg.includes('=')) out.push(arg.slice(arg.indexOf('=') + 1));
        else if (CODE_VALUE_OPTIONS.has(arg) && i + 1 < rest.length) out.push(rest[(i += 1)]!);
        continue;
      }
      out.push(arg); // the script; what follows is its arguments
      break;
    }
    return out;
  }
  if (TEST_RUNNERS.has(program)) return [...out, ...rest.map((a) => (a.startsWith('-') && a.includes('=') ? a.slice(a.indexOf('=') + 1) : a))];
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    if (!arg.startsWith('-')) continue;
    // `--opt=value` is always the option's own value; a separate value only for options that load things.
    const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : LOADING_OPTION.test(arg) ? rest[i + 1] : undefined;
    if (value !== undefined && CODE_EXTENSION.test(value)) out.push(value);
  }
  return out;
}

/** Package managers: `run <script>` (or a bare script name) runs a script package.json defines. */
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** Their subcommands that run a package's binary (the next words are that command). */
const PACKAGE_EXEC = new Set(['exec', 'dlx', 'x']);

/** package.json's scripts, or an empty object. */
function packageScripts(root: string): Readonly<Record<string, unknown>> {
  try {
    const scripts = (JSON.parse(readTextOrNull(root, 'package.json') ?? '{}') as { scripts?: unknown }).scripts;
    return typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A script's text as argv arrays: split at `&&`, `||`, `;` and `|`, without leading `VAR=value` words. */
function scriptCommands(text: string): string[][] {
  return text
    .split(/&&|\|\||[;|]/)
    .map((part) => part.trim().split(/\s+/).filter((word) => word !== ''))
    .map((words) => words.slice(words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word))))
    .filter((words) => words.length > 0 && words[0] !== undefined);
}

/**
 * The commands a package.json script runs when a configured command is `npm run lint`,
 * `npm test`, `pnpm lint` or `yarn lint`, with its `pre`/`post` scripts and the scripts it runs in
 * turn (read from the tree as it is, so a script the answer changes is also read). Null when the
 * command is not a package script.
 */
function packageScriptCommands(root: string, argv: readonly string[], depth = 0): string[][] | null {
  if (!PACKAGE_MANAGERS.has(programName(argv[0]!)) || depth > 5) return null;
  const words = argv.slice(1).filter((word) => !word.startsWith('-'));
  const script = words[0] === 'run' || words[0] === 'run-script' ? words[1] : words[0] === 't' ? 'test' : words[0];
  const scripts = packageScripts(root);
  if (script === undefined || typeof scripts[script] !== 'string') return null;
  const texts = [`pre${script}`, script, `post${script}`].map((name) => scripts[name]).filter((text): text is string => typeof text === 'string');
  return texts.flatMap(scriptCommands).flatMap((command) => [command, ...(packageScriptCommands(root, command, depth + 1) ?? [])]);
}

/**
 * Tools that read a project's files without running them: to them only their configuration (the
 * rules above, and what a configuration file imports) is code. Any other program may run the
 * project's own code.
 */
const READING_TOOLS = new Set([
  'tsc', 'vue-tsc', 'eslint', 'prettier', 'biome', 'oxlint', 'dprint', 'stylelint', 'markdownlint', 'markdownlint-cli2', 'ruff', 'flake8', 'pylint',
  'mypy', 'pyright', 'black', 'isort', 'yapf', 'gofmt', 'goimports', 'golangci-lint', 'staticcheck', 'rustfmt', 'shellcheck', 'shfmt',
  'clang-format', 'clang-tidy', 'hadolint', 'yamllint', 'tflint', 'rubocop', 'standardrb', 'swiftlint', 'ktlint', 'cspell', 'typos', 'vale',
  'actionlint', 'taplo', 'sqlfluff', 'htmlhint', 'true', 'false', 'echo', 'git',
]);
/** Toolchains whose these subcommands only read (check, format, lint). */
const READING_SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  cargo: new Set(['check', 'clippy', 'fmt']),
  go: new Set(['vet', 'fmt']),
  deno: new Set(['check', 'lint', 'fmt']),
};
/** Launchers: the command is the words after them (and their options). */
const LAUNCHERS = new Set(['npx', 'pnpx', 'bunx', 'env', 'nice', 'time', 'nohup', 'timeout', 'uvx', 'pipx']);
const RUN_LAUNCHERS = new Set(['uv', 'poetry', 'pdm', 'hatch', 'pipenv', 'rye']);

/** Drops a launcher's options (and `timeout`'s duration) before the command it starts. */
function afterOptions(words: readonly string[], program: string): string[] {
  let i = 0;
  while (i < words.length && (words[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!))) i += 1;
  if (program === 'timeout' && i < words.length) i += 1; // its duration
  return words.slice(i);
}

/**
 * Whether a configured command may run the project's own code (then any code file the answer
 * changes counts), or only reads the files (then only its configuration does). Unknown programs
 * run code: the rule errs on the side of asking.
 */
function mayRunProjectCode(root: string, argv: readonly string[], depth = 0): boolean {
  if (argv.length === 0 || depth > 8) return argv.length > 0;
  const program = programName(argv[0]!);
  const rest = argv.slice(1);
  // A program of the project (./scripts/check.sh) is the project's code; /usr/bin/node is node.
  if ((argv[0]!.includes('/') || argv[0]!.includes('\\')) && operandPath(root, argv[0]!) !== null) return true;
  if (LAUNCHERS.has(program)) return mayRunProjectCode(root, afterOptions(rest, program), depth + 1);
  if (RUN_LAUNCHERS.has(program) && rest[0] === 'run') return mayRunProjectCode(root, afterOptions(rest.slice(1), program), depth + 1);
  if (PACKAGE_MANAGERS.has(program)) {
    const scripts = packageScriptCommands(root, argv);
    if (scripts !== null) return scripts.some((command) => mayRunProjectCode(root, command, depth + 1));
    const words = rest.filter((word) => !word.startsWith('-'));
    if (PACKAGE_EXEC.has(words[0] ?? '')) return mayRunProjectCode(root, afterOptions(rest.slice(rest.indexOf(words[0]!) + 1), program), depth + 1);
    // `yarn eslint .`, `pnpm tsc`: a package's binary by name; anything else (install, a missing script) may run scripts.
    if (program !== 'npm' && words[0] !== undefined && READING_TOOLS.has(words[0])) return mayRunProjectCode(root, rest.slice(rest.indexOf(words[0])), depth + 1);
    return true;
  }
  if (READING_TOOLS.has(program)) return false;
  if (READING_SUBCOMMANDS[program]?.has(rest.find((word) => !word.startsWith('-')) ?? '')) return false;
  if (INTERPRETERS.has(program)) return interpreterRunsProjectCode(root, rest);
  return true;
}

/** Interpreter options whose value is code or a module to run, not a file of the user's. */
const INLINE_CODE_OPTIONS = new Set(['-e', '--eval', '-p', '--print', '-c', '-m', '--test', '-']);

/**
 * An interpreter runs the project's code unless its script is a file of the user's outside the
 * project (`node ~/tools/fmt.cjs`): inline code and modules (`-e`, `-c`, `-m`), a script inside
 * the project, a loader option naming a project file, or no script at all (a test runner mode,
 * stdin) all may load any code file of the project.
 */
function interpreterRunsProjectCode(root: string, rest: readonly string[]): boolean {
  for (let i = 0; i < rest.length; i += 1) {
    const arg = rest[i]!;
    if (INLINE_CODE_OPTIONS.has(arg) || /^--(eval|print|test)(=|$)/.test(arg)) return true;
    if (arg.startsWith('-')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : CODE_VALUE_OPTIONS.has(arg) ? rest[(i += 1)] : undefined;
      if (value !== undefined && !path.isAbsolute(value)) return true;
      if (value !== undefined && operandPath(root, value) !== null) return true;
      continue;
    }
    return operandPath(root, arg) !== null || !path.isAbsolute(arg);
  }
  return true;
}

/** Relative specifiers a JavaScript/TypeScript file imports or requires. */
const LOCAL_IMPORT = /(?:\brequire\s*\(\s*|\bimport\s*\(\s*|\bfrom\s+|^\s*import\s+)['"](\.{1,2}\/[^'"\n]+)['"]/gm;
const JS_FILE = /\.(js|cjs|mjs|jsx|ts|cts|mts|tsx)$/i;
const RESOLVE_SUFFIXES = ['', '.js', '.cjs', '.mjs', '.ts', '.cts', '.mts', '.jsx', '.tsx', '.json', '/index.js', '/index.ts', '/index.mjs', '/index.cjs'];

/**
 * The project files the named scripts load through relative imports, followed from file to file
 * (at most 500): what `node lint.js` also runs. Read from the tree as it is now.
 */
function localImports(root: string, scripts: readonly string[]): string[] {
  const seen = new Set<string>(scripts);
  const queue = scripts.filter((file) => JS_FILE.test(file));
  const found: string[] = [];
  while (queue.length > 0 && seen.size < 500) {
    const file = queue.shift()!;
    // Through the read chokepoint: a link out of the project is not followed.
    let text: string | null;
    try {
      text = readTextOrNull(root, file);
    } catch {
      continue;
    }
    if (text === null || text.length > 1_000_000) continue;
    for (const match of text.matchAll(LOCAL_IMPORT)) {
      const base = path.posix.join(path.posix.dirname(file), match[1]!);
      if (base.startsWith('..')) continue;
      // A TypeScript import of './x.js' names x.ts; any spelling that exists, or may be created, counts.
      const candidates = [...RESOLVE_SUFFIXES.map((suffix) => `${base}${suffix}`), base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')];
      for (const candidate of candidates) {
        if (seen.has(candidate)) continue;
        seen.add(candidate);
        found.push(candidate);
        if (JS_FILE.test(candidate) && existsSync(path.join(root, candidate))) queue.push(candidate);
      }
    }
  }
  return found;
}

function isFolder(root: string, relative: string): boolean {
  try {
    return statSync(path.join(root, relative)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The changed files that the configured commands (argv arrays) would execute or load: the code
 * operands of each command (files, and everything under a folder given as one), and the tool and
 * build files of the list above. Empty when no command is configured, since nothing of Relay
 * Desk's would then run.
 */
export function filesCommandsExecute(root: string, commands: ReadonlyArray<readonly string[]>, changed: readonly string[]): ExecutedFile[] {
  const configured = commands.filter((argv) => argv.length > 0);
  if (configured.length === 0) return [];
  const hits = new Map<string, string>();
  for (const argv of configured.flatMap((command) => [command, ...(packageScriptCommands(root, command) ?? [])])) {
    // A script runs what it imports too: `node lint.js` runs ./lib/rules.js when lint.js requires it.
    const operands = codeOperands(argv)
      .map((operand) => operandPath(root, operand))
      .filter((named): named is string => named !== null);
    for (const named of [...operands, ...localImports(root, operands)]) {
      for (const file of changed) {
        if (file === named) hits.set(file, `the configured command \`${argv.join(' ')}\` runs it`);
        else if (file.startsWith(`${named}/`) && (isFolder(root, named) || !existsSync(path.join(root, named)))) {
          hits.set(file, `the configured command \`${argv.join(' ')}\` runs the files in ${named}/`);
        }
      }
    }
  }
  // A command that may run the project's own code (a script, a test runner, a package script, an
  // unknown program) can load any of its code files, by paths no list of names can predict.
  const runner = configured.find((argv) => mayRunProjectCode(root, argv));
  // A tool that only reads still runs its configuration, and what that configuration imports.
  const configImports = runner ? [] : localImports(root, rootConfigFiles(root));
  for (const file of changed) {
    if (hits.has(file)) continue;
    const rule = CODE_FILE_RULES.find((r) => r.test(file, path.posix.basename(file)));
    if (rule) hits.set(file, rule.why);
    else if (runner && looksLikeCode(root, file)) hits.set(file, `the configured command \`${runner.join(' ')}\` may run the project's own code (a script, tests or a package script), which can load any of its code files`);
    else if (configImports.includes(file)) hits.set(file, 'a tool configuration file imports it: the tool loads and runs it');
  }
  return [...hits].map(([file, why]) => ({ path: file, why })).sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** Files at the project's root that are tool configuration written as code (eslint.config.js…). */
function rootConfigFiles(root: string): string[] {
  try {
    return readdirSync(root).filter((name) => JS_FILE.test(name) && CODE_FILE_RULES.some((r) => r.test(name, name)));
  } catch {
    return [];
  }
}

/** A file that is code: a code extension, or a script (a shebang first line, or executable). */
function looksLikeCode(root: string, file: string): boolean {
  if (CODE_EXTENSION.test(file) || /\.(pyw?|go|rs|java|kt|kts|scala|swift|c|cc|cpp|h|hpp|cs|fs|ex|exs|erl|clj|hs|ml|r|jl|dart|nim|zig|v|groovy|gradle|tcl|awk|sed|fish|nu|psm1)$/i.test(file)) return true;
  try {
    if ((statSync(path.join(root, file)).mode & 0o111) !== 0) return true;
    return readTextOrNull(root, file)?.startsWith('#!') === true;
  } catch {
    return false;
  }
}
