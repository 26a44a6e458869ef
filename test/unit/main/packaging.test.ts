import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';

// Packaging needs the Electron download, which our build machines cannot make; the config is
// checked here against electron-builder's own JSON schema instead.
describe('electron-builder.yml', () => {
  interface BuilderConfig {
    mac: { target: string[]; hardenedRuntime: boolean; entitlements: string; icon: string };
    win: { target: string[]; icon: string };
    linux: { target: string[]; icon: string };
    asarUnpack: string[];
    npmRebuild: boolean;
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

  it('has the tray icons for every state', () => {
    for (const state of ['idle', 'watching', 'waiting', 'error']) {
      expect(existsSync(path.join(REPO_ROOT, `resources/tray/${state}.png`))).toBe(true);
      expect(existsSync(path.join(REPO_ROOT, `resources/tray/${state}@2x.png`))).toBe(true);
    }
  });
});
