// better-sqlite3 is a native module, and a .node file only loads in a runtime with the ABI it
// was compiled for. `npm install` builds it for Node (what the CLIs and the tests use). The
// Electron app needs a build for Electron's ABI, kept beside it in native/electron-v<abi>/
// (made by scripts/native-electron.mjs at install time when the Electron binary is present)
// and passed to better-sqlite3 through its `nativeBinding` option. Packaged apps need nothing:
// electron-builder rebuilds node_modules for Electron, so the default binding is right there.
import { existsSync } from 'node:fs';
import path from 'node:path';

/** Where the Electron-ABI build of better-sqlite3 lives for a given module ABI. */
export function electronBindingPath(appRoot: string, abi: string): string {
  return path.join(appRoot, 'native', `electron-v${abi}`, 'better_sqlite3.node');
}

/**
 * The `nativeBinding` to pass to better-sqlite3: the Electron-ABI build when running under
 * Electron and one exists for this ABI, otherwise undefined (the default Node build).
 */
export function resolveNativeBinding(options: { readonly versions: NodeJS.ProcessVersions; readonly appRoot: string }): string | undefined {
  if (!options.versions.electron) return undefined;
  const candidate = electronBindingPath(options.appRoot, options.versions.modules);
  return existsSync(candidate) ? candidate : undefined;
}

/** The remedy to print when the native module does not load. */
export function nativeModuleHint(versions: NodeJS.ProcessVersions): string {
  return versions.electron
    ? `Relay Desk runs under Electron ${versions.electron} (ABI ${versions.modules}) and needs better-sqlite3 built for it: run \`npm run native:electron\`.`
    : `better-sqlite3 must be built for Node ${versions.node} (ABI ${versions.modules}): run \`npm rebuild better-sqlite3\`.`;
}
