// The desktop app's own settings, kept in the store's settings table under one key. Reading
// fills defaults for anything missing, so an older database keeps working.
import { AppSettingsSchema, DEFAULT_APP_SETTINGS, type AppSettings } from '../shared/schemas.js';
import type { ChannelArgs } from '../shared/contract.js';
import type { Store } from '../engine/store/index.js';

const KEY = 'app';

/** The app settings, defaults filled in (a damaged value falls back to the defaults). */
export function readAppSettings(store: Store): AppSettings {
  const stored = store.settings.get(KEY);
  const merged = { ...DEFAULT_APP_SETTINGS, ...(typeof stored === 'object' && stored !== null ? stored : {}) } as Record<string, unknown>;
  merged.agentPaths = { ...DEFAULT_APP_SETTINGS.agentPaths, ...((stored as { agentPaths?: object } | undefined)?.agentPaths ?? {}) };
  const parsed = AppSettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_APP_SETTINGS;
}

/** Applies a partial update and returns the new settings. */
export function updateAppSettings(store: Store, update: ChannelArgs<'updateAppSettings'>): AppSettings {
  const current = readAppSettings(store);
  const next: AppSettings = {
    ...current,
    ...(update.watchClipboard !== undefined ? { watchClipboard: update.watchClipboard } : {}),
    ...(update.clipboardPollIntervalMs !== undefined ? { clipboardPollIntervalMs: update.clipboardPollIntervalMs } : {}),
    ...(update.autoStart !== undefined ? { autoStart: update.autoStart } : {}),
    ...(update.notifications !== undefined ? { notifications: update.notifications } : {}),
    agentPaths: {
      claude: update.agentPaths?.claude ?? current.agentPaths.claude,
      codex: update.agentPaths?.codex ?? current.agentPaths.codex,
      gemini: update.agentPaths?.gemini ?? current.agentPaths.gemini,
    },
  };
  store.settings.set(KEY, next);
  return next;
}
