import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { APP_ID, RESOURCE_FILES } from '../../../src/main/packaging.js';
import { REPO_ROOT } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';
// @ts-expect-error: a plain .mjs script without types
import { keepingFiles } from '../../../scripts/dist.mjs';

// Packaging needs the Electron download, which our build machines cannot make; the config is
// checked here against electron-builder's own JSON schema instead.
describe('electron-builder.yml', () => {
  interface BuilderConfig {
    mac: { target: string[]; hardenedRuntime: boolean; entitlements: string; icon: string };
    win: { target: string[]; icon: string };
    linux: { target: string[]; icon: string };
    asarUnpack: string[];
    npmRebuild: boolean;
    appId: string;
    extraResources: Array<{ from: string; to: string }>;
    electronFuses: Record<string, boolean>;
  }
  const config = parse(readFileSync(path.join(REPO_ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

  it('is valid for electron-builder', () => {
    const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8'));
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(schema);
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('builds dmg + zip (hardened), nsis, AppImage + deb, and unpacks the native module', () => {
    expect(config.mac.target).toEqual(['dmg', 'zip']);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(existsSync(path.join(REPO_ROOT, config.mac.entitlements))).toBe(true);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(true);
    for (const icon of [config.mac.icon, config.win.icon, config.linux.icon]) expect(existsSync(path.join(REPO_ROOT, icon))).toBe(true);
  });

  it('copies every file the packaged main process reads from its resources folder, under the same name', () => {
    const copied = new Map(config.extraResources.map((r) => [r.to, r.from]));
    for (const name of Object.values(RESOURCE_FILES)) {
      expect(copied.get(name), name).toBe(`resources/${name}`);
      expect(existsSync(path.join(REPO_ROOT, 'resources', name)), name).toBe(true);
    }
  });

  it('flips the Electron fuses: no Node mode, no NODE_OPTIONS or inspector, encrypted cookies, asar integrity, asar only', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    // Each name is one electron-builder knows (the schema refuses unknown fuse names).
    const schema = JSON.parse(readFileSync(path.join(REPO_ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as { definitions: { FuseOptionsV1: { properties: Record<string, unknown>; additionalProperties: boolean } } };
    expect(schema.definitions.FuseOptionsV1.additionalProperties).toBe(false);
    for (const name of Object.keys(config.electronFuses)) expect(Object.keys(schema.definitions.FuseOptionsV1.properties), name).toContain(name);
  });

  it('uses the appId the app registers as its Windows AppUserModelID', () => {
    expect(config.appId).toBe(APP_ID);
  });

  it('has the tray icons for every state', () => {
    for (const state of ['idle', 'watching', 'waiting', 'error']) {
      expect(existsSync(path.join(REPO_ROOT, `resources/tray/${state}.png`))).toBe(true);
      expect(existsSync(path.join(REPO_ROOT, `resources/tray/${state}@2x.png`))).toBe(true);
    }
  });
});

// electron-builder rebuilds better-sqlite3 for Electron in the project's own node_modules; `npm
// run dist` puts the Node build (and the rebuild's marker) back so the CLIs and tests still load.
describe('npm run dist', () => {
  const keep = keepingFiles as <T>(files: string[], run: () => T) => T;

  it('runs electron-builder through the wrapper that keeps the Node build', () => {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.dist).toBe('npm run build && node scripts/dist.mjs');
  });

  it('puts back what a rebuild replaced or added, also when packaging fails', () => {
    const dir = tempDir();
    const binding = path.join(dir, 'better_sqlite3.node');
    const marker = path.join(dir, '.forge-meta');
    writeFileSync(binding, 'node build');
    const rebuild = (): void => {
      writeFileSync(binding, 'electron build');
      writeFileSync(marker, 'linux--x64--140');
    };
    expect(keep([binding, marker], () => (rebuild(), 0))).toBe(0);
    expect(readFileSync(binding, 'utf8')).toBe('node build');
    expect(existsSync(marker)).toBe(false);

    expect(() => keep([binding, marker], () => { rebuild(); throw new Error('packaging failed'); })).toThrow('packaging failed');
    expect(readFileSync(binding, 'utf8')).toBe('node build');
    expect(existsSync(marker)).toBe(false);
  });
});
