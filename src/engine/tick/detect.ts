// What `relais init` can tell about the project it is run in: which JavaScript package manager
// it uses and which of its scripts make good verification commands. Only scripts that exist are
// written, so a fresh config never names a tool the project does not have.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { VerificationTemplate } from './config.js';

/** The package managers whose scripts `relais init` knows how to run. */
export type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun';

/** What was found, and the templates to write (none when nothing was found). */
export interface DetectedVerification {
  readonly manager: PackageManager | null;
  /** How the manager was recognised ("packageManager field", "pnpm-lock.yaml", …), for the init message. */
  readonly evidence: string | null;
  readonly templates: readonly VerificationTemplate[];
}

/** Template id → the package.json scripts that can fill it, first match wins. */
const SCRIPT_CANDIDATES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['lint', ['lint']],
  ['typecheck', ['typecheck', 'type-check', 'check-types', 'tsc']],
  ['test', ['test']],
];

/** Lockfiles in the order they are trusted when package.json does not say (`packageManager`). */
const LOCKFILES: ReadonlyArray<readonly [string, PackageManager]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

function readPackageJson(root: string): Record<string, unknown> | null {
  try {
    const data: unknown = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The package manager of a project with package.json: its `packageManager` field, else its lockfile, else npm. */
export function detectPackageManager(root: string, pkg: Record<string, unknown>): { manager: PackageManager; evidence: string } {
  const declared = typeof pkg.packageManager === 'string' ? /^(npm|pnpm|yarn|bun)@/.exec(pkg.packageManager)?.[1] : undefined;
  if (declared) return { manager: declared as PackageManager, evidence: `"packageManager": "${String(pkg.packageManager)}" in package.json` };
  for (const [file, manager] of LOCKFILES) {
    if (existsSync(path.join(root, file))) return { manager, evidence: file };
  }
  return { manager: 'npm', evidence: 'package.json without a lockfile' };
}

/** The argv that runs a package.json script with this manager (no shell: the manager runs it). */
export function scriptCommand(manager: PackageManager, script: string): { cmd: string; args: string[] } {
  return { cmd: manager, args: ['run', script] };
}

/** Looks at `root` for a JavaScript project and the verification commands its scripts offer. */
export function detectVerification(root: string): DetectedVerification {
  const pkg = readPackageJson(root);
  if (!pkg) return { manager: null, evidence: null, templates: [] };
  const { manager, evidence } = detectPackageManager(root, pkg);
  const scripts = pkg.scripts !== null && typeof pkg.scripts === 'object' ? (pkg.scripts as Record<string, unknown>) : {};
  const templates: VerificationTemplate[] = [];
  for (const [id, names] of SCRIPT_CANDIDATES) {
    const script = names.find((name) => typeof scripts[name] === 'string');
    if (script) templates.push({ id, ...scriptCommand(manager, script) });
  }
  return { manager, evidence, templates };
}
