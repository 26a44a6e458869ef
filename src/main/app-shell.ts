// The composition root of the desktop app: one store, one host (runtime + handlers) bound to
// ipcMain, one window, the tray, the clipboard watcher and notifications. Everything with
// behaviour lives in plain modules (src/engine, src/host, the *-model/-tracker/-service files
// here); this file only connects them to Electron.
import { app, clipboard, dialog, protocol, type BrowserWindow } from 'electron';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DATABASE_FILE, openStore, resolveNativeBinding, StoreError, type Store } from '../engine/store/index.js';
import type { ClipboardWatcher } from '../engine/patch/watcher.js';
import { createHost, forwardEvents, type Host } from '../host/index.js';
import { readAppSettings } from '../host/app-settings.js';
import { realEngines } from '../host/engines.js';
import type { AppSettings } from '../shared/schemas.js';
import { loginShellPath } from './agent-paths.js';
import { startClipboardService } from './clipboard-service.js';
import { agentEnvironment } from './environment.js';
import { bindHostToIpc } from './ipc.js';
import { createLogger } from './logger.js';
import { noProjectNotification, notificationFor, type NotificationModel } from './notifications.js';
import { showNotification } from './notifier.js';
import { APP_SCHEME, resolveRendererAsset } from './renderer-assets.js';
import { CONTENT_SECURITY_POLICY } from './security.js';
import { AppTray } from './tray.js';
import { buildTrayModel, type TrayAction } from './tray-model.js';
import { TrayTracker } from './tray-tracker.js';
import { createMainWindow, trustedOrigin } from './window.js';

/** Must run before the app is ready: app:// is a standard, secure scheme for our own files. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

const HIDDEN_FLAG = '--hidden';

/** Starts Relay Desk at login, in the tray (Windows and Linux get a flag; macOS reports it). */
function setAutoStart(enabled: boolean): void {
  app.setLoginItemSettings({ openAtLogin: enabled, args: [HIDDEN_FLAG] });
}

function openedAtLogin(): boolean {
  return process.argv.includes(HIDDEN_FLAG) || (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
}

function resourcesDir(): string {
  return app.isPackaged ? process.resourcesPath : path.join(app.getAppPath(), 'resources');
}

/** Starts everything once Electron is ready. */
export async function startApp(): Promise<void> {
  const log = createLogger(path.join(app.getPath('userData'), 'logs'));
  let store: Store;
  try {
    // Exclusive: `relay ui` uses this data folder too, and one runtime per database is the rule (store/owner.ts).
    store = openStore({ file: path.join(app.getPath('userData'), DATABASE_FILE), nativeBinding: resolveNativeBinding({ versions: process.versions, appRoot: app.getAppPath() }), exclusive: true });
  } catch (error) {
    const message = error instanceof StoreError ? `${error.code}: ${error.message}` : String(error);
    log.error('cannot open the database', error);
    const advice = error instanceof StoreError && error.code === 'STORE_IN_USE' ? '' : '\n\nRun `relay ui --rebuild-db` to rebuild it from your projects, then start Relay Desk again.';
    dialog.showErrorBox('Relay Desk cannot open its database', `${message}${advice}`);
    app.exit(1);
    return;
  }

  let settings = readAppSettings(store);
  const loginPath = await loginShellPath();
  const agents = agentEnvironment({ baseEnv: process.env, loginPath, settings });
  for (const [name, found] of Object.entries(agents.agents)) log.info(`${name}: ${found.path ?? `not found (${found.tried.join(', ')})`}`);

  const tracker = new TrayTracker();
  let window: BrowserWindow | null = null;
  let quitting = false;
  let watcher: ClipboardWatcher | null = null;

  const host: Host = createHost({
    store,
    engines: realEngines({ env: agents.env, ...(agents.claudeCommand ? { claudeCommand: agents.claudeCommand } : {}) }),
    onRecordError: (error) => log.error('recording a run failed', error),
    onAppSettingsChanged: (next) => applySettings(next),
  });
  bindHostToIpc(host, trustedOrigin());

  const rendererDir = path.join(app.getAppPath(), 'out', 'renderer');
  protocol.handle(APP_SCHEME, async (request) => {
    const asset = resolveRendererAsset(request.url, rendererDir);
    if (!asset) return new Response('Not found', { status: 404 });
    return new Response(new Uint8Array(await readFile(asset.file)), { headers: { 'content-type': asset.mime, 'content-security-policy': CONTENT_SECURITY_POLICY } });
  });

  const showWindow = (): void => {
    if (!window || window.isDestroyed()) {
      window = createMainWindow({ preloadDir: path.join(import.meta.dirname, '../preload'), icon: path.join(resourcesDir(), 'icon.png') });
      const stopForwarding = forwardEvents(host, (channel, envelope) => window?.webContents.send(channel, envelope));
      // Closing the window hides it: Relay Desk keeps running in the tray.
      window.on('close', (event) => {
        if (quitting) return;
        event.preventDefault();
        window?.hide();
      });
      window.on('closed', () => {
        stopForwarding();
        window = null;
      });
    }
    window.show();
    window.focus();
    tracker.markSeen();
    refreshTray();
  };

  const projectsForTray = () => store.projects.list().map((p) => ({ id: p.projectId, name: p.name, watching: p.settings.watching }));
  const tray = new AppTray(path.join(resourcesDir(), 'tray'), (action) => void act(action));
  const refreshTray = (): void => tray.show(buildTrayModel(tracker.input({ watching: settings.watchClipboard, projects: projectsForTray() })));

  const notify = (model: NotificationModel): void => {
    if (!settings.notifications) return;
    showNotification(model, {
      open: () => showWindow(),
      approve: (approvalId) => void host.call('approve', { approvalId }),
      reject: (approvalId) => void host.call('reject', { approvalId }),
    });
  };

  const projectName = (projectId: string): string => store.projects.get(projectId)?.name ?? projectId;
  host.subscribe((envelope) => {
    const model = notificationFor(envelope, projectName);
    tracker.observe(envelope, model);
    if (model) notify(model);
    refreshTray();
  });
  const state = host.runtime.state();
  tracker.resetApprovals([
    ...state.projects.flatMap((p) => p.approvals.map((a) => ({ approvalId: a.approvalId, projectId: p.projectId }))),
    ...state.prompts.map((p) => ({ approvalId: p.approvalId, projectId: p.projectId })),
  ]);

  const startWatcher = (): void => {
    void watcher?.stop();
    watcher = null;
    if (!settings.watchClipboard) return;
    watcher = startClipboardService({
      source: { read: () => clipboard.readText() },
      intervalMs: settings.clipboardPollIntervalMs,
      projects: () => store.projects.list().map((p) => ({ id: p.projectId, projectId: p.projectId, root: p.root, watching: p.settings.watching })),
      apply: async (text, project) => {
        const reply = await host.call('applyPatch', { text, source: 'clipboard', projectId: project.projectId });
        if (!reply.ok) notify({ kind: 'failure', title: `Patch not applied — ${project.projectId}`, body: `${reply.error.code}: ${reply.error.message}`, projectId: project.projectId, urgent: true });
      },
      unrouted: (route) => {
        if (route.kind === 'not-a-patch') return;
        const model = noProjectNotification(route.projectId, route.kind === 'ambiguous');
        tracker.observeNotification(model);
        notify(model);
        refreshTray();
      },
      onError: (error) => log.error('clipboard', error),
    });
  };

  function applySettings(next: AppSettings): void {
    const watchChanged = next.watchClipboard !== settings.watchClipboard || next.clipboardPollIntervalMs !== settings.clipboardPollIntervalMs;
    settings = next;
    setAutoStart(next.autoStart);
    if (watchChanged) startWatcher();
    refreshTray();
  }

  async function act(action: TrayAction): Promise<void> {
    switch (action.kind) {
      case 'open-window':
      case 'open-approval':
      case 'open-run':
        showWindow();
        return;
      case 'toggle-watch':
        await host.call('updateAppSettings', { watchClipboard: !settings.watchClipboard });
        return;
      case 'toggle-project-watch': {
        const project = store.projects.get(action.projectId);
        if (project) await host.call('updateProjectSettings', { projectId: project.projectId, watching: !project.settings.watching });
        refreshTray();
        return;
      }
      case 'quit':
        app.quit();
        return;
    }
  }

  app.on('second-instance', () => showWindow());
  app.on('activate', () => showWindow());
  // The tray keeps the app alive with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    // Pending approvals are denied and their patches rolled back before the process ends.
    void (async () => {
      await watcher?.stop();
      await host.close();
      store.close();
      tray.destroy();
      app.quit();
    })();
  });

  setAutoStart(settings.autoStart);
  startWatcher();
  refreshTray();
  // Opened at login: stay in the tray. Opened by the user: show the window.
  if (!openedAtLogin()) showWindow();
}
