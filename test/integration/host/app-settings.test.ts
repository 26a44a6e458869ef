import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/engine/store/index.js';
import { createHost } from '../../../src/host/index.js';
import { DEFAULT_APP_SETTINGS, type AppSettings } from '../../../src/shared/schemas.js';
import { tempDir } from '../../helpers/temp.js';

describe('app settings through the host', () => {
  it('starts from the defaults, applies partial updates, persists them and tells the shell', async () => {
    const file = path.join(tempDir(), 'relay-desk.db');
    const store = openStore({ file });
    const seen: AppSettings[] = [];
    const host = createHost({ store, onAppSettingsChanged: (s) => void seen.push(s) });
    expect(await host.call('getAppSettings', {})).toEqual({ ok: true, value: DEFAULT_APP_SETTINGS });
    const updated = await host.call('updateAppSettings', { autoStart: true, clipboardPollIntervalMs: 250, agentPaths: { claude: '/opt/claude/bin/claude' } });
    expect(updated).toEqual({ ok: true, value: { ...DEFAULT_APP_SETTINGS, autoStart: true, clipboardPollIntervalMs: 250, agentPaths: { claude: '/opt/claude/bin/claude', codex: '', gemini: '' } } });
    expect(seen).toHaveLength(1);
    await host.close();
    store.close();

    const reopened = openStore({ file });
    const again = createHost({ store: reopened });
    expect((await again.call('getAppSettings', {})).ok && (await again.call('getAppSettings', {}))).toMatchObject({ value: { autoStart: true, clipboardPollIntervalMs: 250 } });
    await again.close();
    reopened.close();
  });

  it('refuses a relative agent path or an interval out of range before anything is saved', async () => {
    const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
    const host = createHost({ store });
    expect(await host.call('updateAppSettings', { agentPaths: { codex: 'bin/codex' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.call('updateAppSettings', { clipboardPollIntervalMs: 5 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await host.call('getAppSettings', {})).toEqual({ ok: true, value: DEFAULT_APP_SETTINGS });
    await host.close();
    store.close();
  });
});
