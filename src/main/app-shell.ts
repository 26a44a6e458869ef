// The composition root of the desktop app: one store, one host (runtime + handlers) bound to
// ipcMain, one window, the tray, the clipboard watcher and notifications. Everything with
// behaviour lives in plain modules (src/engine, src/host, the *-model/-tracker/-service files
// here); this file only connects them to Electron.
import { app, clipboard, dialog, Notification, protocol, session, type BrowserWindow } from 'electron';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DATABASE_FILE, describeHeal, openStoreHealing, resolveNativeBinding, StoreError, type Store } from '../engine/store/index.js';
import type { ClipboardWatcher } from '../engine/patch/watcher.js';
import { createHost, forwardEvents, type Host } from '../host/index.js';
import { readAppSettings } from '../host/app-settings.js';
import { realEngines } from '../host/engines.js';
import type { AppSettings } from '../shared/schemas.js';
import { loginShellPath } from './agent-paths.js';
import { HIDDEN_FLAG, linuxAutostartExecutable, linuxAutostartFile, setLinuxAutostart } from './autostart.js';
import { startClipboardService } from './clipboard-service.js';
import { agentEnvironment } from './environment.js';
import { bindHostToIpc } from './ipc.js';
import { createLogger } from './logger.js';
import { noProjectNotification, notificationFor, type NotificationModel } from './notifications.js';
import { createNotifier } from './notifier.js';
import { APP_ID, RESOURCE_FILES } from './packaging.js';
import { denyPermissionsByDefault } from './permissions.js';
import { electronFolderPicker, type OpenDialogLike } from './folder-picker.js';
import { APP_SCHEME, serveRendererAsset } from './renderer-assets.js';
import { AppTray } from './tray.js';
import { buildTrayModel, TRAY_RUNS, trayRunLabel, type TrayAction } from './tray-model.js';
import { TrayTracker } from './tray-tracker.js';
import { createMainWindow, runPageUrl, trustedOrigin } from './window.js';

/** Must run before the app is ready: app:// is a standard, secure scheme for our own files. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/**
 * Starts Relay Desk at login, in the tray (Windows and Linux get a flag; macOS reports it).
 * Electron's login items exist on macOS and Windows only; Linux gets an XDG autostart entry.
 */
function setAutoStart(enabled: boolean): void {
  // Unpackaged (development), the Electron binary needs the app folder to know what to run.
  const args = app.isPackaged ? [HIDDEN_FLAG] : [app.getAppPath(), HIDDEN_FLAG];
  if (process.platform === 'linux') {
    setLinuxAutostart(enabled, { file: linuxAutostartFile(process.env), executable: linuxAutostartExecutable(process.env, process.execPath), args });
    return;
  }
  app.setLoginItemSettings({ openAtLogin: enabled, args });
}

function openedAtLogin(): boolean {
  return process.argv.includes(HIDDEN_FLAG) || (process.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin);
}

function resourcesDir(): string {
  return app.isPackaged ? process.resourcesPath : path.join(app.getAppPath(), 'resources');
}

/** Events that change nothing the tray shows (and can arrive many times a second). */
const TRAY_QUIET_EVENTS: ReadonlySet<string> = new Set(['relay.output', 'metrics.usage', 'tick.stage', 'patch.parsed', 'patch.command']);

/** Starts everything once Electron is ready. */
export async function startApp(): Promise<void> {
  // Windows shows toasts only for an app with an AppUserModelID; the installer registers this one.
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);
  const log = createLogger(path.join(app.getPath('userData'), 'logs'));
  let store: Store;
  try {
    // Exclusive: `relay ui` uses this data folder too, and one runtime per database is the rule (store/owner.ts).
    // A damaged database is moved aside and rebuilt from the projects' files rather than stopping the app.
    const file = path.join(app.getPath('userData'), DATABASE_FILE);
    const opened = openStoreHealing({ file, nativeBinding: resolveNativeBinding({ versions: process.versions, appRoot: app.getAppPath() }), exclusive: true });
    store = opened.store;
    if (opened.healed) log.info(describeHeal(opened.healed, file));
  } catch (error) {
    const message = error instanceof StoreError ? `${error.code}: ${error.message}` : String(error);
    log.error('cannot open the database', error);
    // A damaged file was already rebuilt above; what is left needs the user (another owner, a
    // folder that cannot be written, a newer build), and its message says what to do. Only a
    // migration that differs from this build's is fixed by rebuilding.
    const advice = error instanceof StoreError && error.code === 'STORE_MIGRATION_MISMATCH' ? '\n\nRun `relay ui --rebuild-db` to rebuild it from your projects, then start Relay Desk again.' : '';
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
    // "Start in a terminal" finds terminals and agents on the widened PATH; relay runs as Electron-as-Node.
    terminal: { env: agents.env },
    onAppSettingsChanged: (next) => applySettings(next),
    folderPicker: electronFolderPicker(dialog as unknown as OpenDialogLike, () => (window && !window.isDestroyed() ? window : null)),
  });
  bindHostToIpc(host, trustedOrigin());

  // No page of ours needs the camera, the microphone or the rest: everything is denied unless listed.
  denyPermissionsByDefault(session.defaultSession, trustedOrigin());
  const rendererDir = path.join(app.getAppPath(), 'out', 'renderer');
  // Every response carries the CSP; a URL that cannot be decoded is a 400, never an exception.
  protocol.handle(APP_SCHEME, (request) => serveRendererAsset(request.url, rendererDir, readFile));

  /** Shows the window (creating it if needed), on `page` when given (e.g. one run's detail). */
  const showWindow = (page?: string): void => {
    if (!window || window.isDestroyed()) {
      window = createMainWindow({ preloadDir: path.join(import.meta.dirname, '../preload'), icon: path.join(resourcesDir(), RESOURCE_FILES.appIcon), ...(page ? { url: page } : {}) });
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
    } else if (page) {
      void window.webContents.loadURL(page);
    }
    window.show();
    window.focus();
    tracker.markSeen();
    refreshTray();
  };

  const projectsForTray = () => store.projects.list().map((p) => ({ id: p.projectId, name: p.name, watching: p.settings.watching }));
  const tray = new AppTray(path.join(resourcesDir(), RESOURCE_FILES.trayIcons), (action) => void act(action));
  // The latest runs from the store: they include runs of earlier sessions and of the CLIs.
  const recentRunsForTray = () => {
    const listed = store.runs.list({ limit: TRAY_RUNS });
    return 'error' in listed ? [] : listed.runs.map((run) => ({ id: run.id, label: trayRunLabel(run, projectName(run.projectId)) }));
  };
  const refreshTray = (): void => tray.show(buildTrayModel(tracker.input({ watching: settings.watchClipboard, projects: projectsForTray(), recentRuns: recentRunsForTray() })));

  const notifier = createNotifier(Notification);
  const notify = (model: NotificationModel): void => {
    if (!settings.notifications) return;
    notifier.show(model, {
      open: () => showWindow(),
      approve: (approvalId) => void host.call('approve', { approvalId }),
      reject: (approvalId) => void host.call('reject', { approvalId }),
    });
  };

  const projectName = (projectId: string): string => store.projects.get(projectId)?.name ?? projectId;
  host.subscribe((envelope) => {
    const model = notificationFor(envelope, projectName);
    tracker.observe(envelope, model);
    const event = envelope.event;
    if (event.type === 'task.approval-resolved' || event.type === 'approval.resolved') notifier.dismissApproval(event.approvalId);
    if (model) notify(model);
    // Streamed output and stage chatter change nothing the tray shows; skip rebuilding its menu.
    if (!TRAY_QUIET_EVENTS.has(event.type)) refreshTray();
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

  function applyAutoStart(enabled: boolean): void {
    try {
      setAutoStart(enabled);
    } catch (error) {
      // A read-only config folder must not fail the settings change that asked for it.
      log.error('cannot change auto-start at login', error);
    }
  }

  function applySettings(next: AppSettings): void {
    const watchChanged = next.watchClipboard !== settings.watchClipboard || next.clipboardPollIntervalMs !== settings.clipboardPollIntervalMs;
    settings = next;
    applyAutoStart(next.autoStart);
    if (watchChanged) startWatcher();
    refreshTray();
  }

  async function act(action: TrayAction): Promise<void> {
    switch (action.kind) {
      case 'open-window':
      case 'open-approval': // the window shows its approval dialog for every waiting approval
        showWindow();
        return;
      case 'open-run':
        showWindow(runPageUrl(action.runId));
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

  applyAutoStart(settings.autoStart);
  startWatcher();
  refreshTray();
  // Opened at login: stay in the tray. Opened by the user: show the window.
  if (!openedAtLogin()) showWindow();
}
