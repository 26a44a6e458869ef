// What the app expects of electron-builder.yml, kept in one place so a test can hold the two
// together (test/unit/main/packaging.test.ts).

/** electron-builder's appId; on Windows it is also the AppUserModelID toasts are shown under. */
export const APP_ID = 'dev.relaydesk.app';

/**
 * Files the main process reads from the resources folder: `resources/` in development,
 * process.resourcesPath when packaged (where extraResources must copy them).
 */
export const RESOURCE_FILES = { appIcon: 'icon.png', trayIcons: 'tray' } as const;
