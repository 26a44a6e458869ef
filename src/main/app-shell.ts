// The composition root of the desktop app once Electron is ready: one store, one host (runtime
// + handlers) bound to ipcMain, one window, the tray, the clipboard watcher and notifications.
// Everything with behaviour lives in plain modules (src/engine, src/host, the *-model/-tracker/
// -service files here); this file only connects them to the Electron members it is given
// (ports.ts), so a plain Node test can start it, click the tray, answer a notification and quit.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { currentRelayInvocation } from '../engine/handoff/terminal.js';
import { assertNever } from '../engine/result.js';
import type { ClipboardWatcher } from '../engine/patch/watcher.js';
import { DATABASE_FILE, describeHeal, openStoreHealing, resolveNativeBinding, StoreError, type Store } from '../engine/store/index.js';
import { readAppSettings } from '../host/app-settings.js';
import { realEngines } from '../host/engines.js';
import { createHost, type Host } from '../host/index.js';
import type { AppSettings } from '../shared/schemas.js';
import { loginShellPath } from './agent-paths.js';
import { HIDDEN_FLAG, linuxAutostartExecutable, linuxAutostartFile, setLinuxAutostart } from './autostart.js';
import { agentEnvironment } from './environment.js';
import { bindHostToIpc } from './ipc.js';
import { createLogger } from './logger.js';
import { notificationFor, type NotificationModel } from './notifications.js';
import { createNotifier } from './notifier.js';
import { APP_ID, RESOURCE_FILES } from './packaging.js';
import { startClipboardRouter } from './router.js';
import { denyPermissionsByDefault } from './permissions.js';
import type { AppPort, ElectronPorts, ProtocolPort, ShellProcess } from './ports.js';
import { electronFolderPicker } from './folder-picker.js';
import { APP_SCHEME, serveRendererAsset } from './renderer-assets.js';
import { AppTray } from './tray.js';
import { buildTrayModel, TRAY_RUNS, trayRunLabel, type TrayAction } from './tray-model.js';
import { TrayTracker } from './tray-tracker.js';
import { rendererLocation, runPageUrl } from './window.js';
import { keepMainWindow } from './window-keeper.js';

/** Must run before the app is ready: app:// is a standard, secure scheme for our own files. */
export function registerAppScheme(protocol: Pick<ProtocolPort, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Where the shell finds what the build put next to it. */
export interface ShellOptions {
  /** The folder of the preload bundle (out/preload). */
  readonly preloadDir: string;
}

/** The running app, for whoever started it. */
export interface RunningApp {
  readonly host: Host;
}

/**
 * Starts Relay Desk at login, in the tray (Windows and Linux get a flag; macOS reports it).
 * Electron's login items exist on macOS and Windows only; Linux gets an XDG autostart entry.
 */
function setAutoStart(app: AppPort, proc: ShellProcess, enabled: boolean): void {
  // Unpackaged (development), the Electron binary needs the app folder to know what to run.
  const args = app.isPackaged ? [HIDDEN_FLAG] : [app.getAppPath(), HIDDEN_FLAG];
  if (proc.platform === 'linux') {
    setLinuxAutostart(enabled, { file: linuxAutostartFile(proc.env), executable: linuxAutostartExecutable(proc.env, proc.execPath), args });
    return;
  }
  app.setLoginItemSettings({ openAtLogin: enabled, args });
}

function openedAtLogin(app: AppPort, proc: ShellProcess): boolean {
  return proc.argv.includes(HIDDEN_FLAG) || (proc.platform === 'darwin' && app.getLoginItemSettings().wasOpenedAtLogin === true);
}

function resourcesDir(app: AppPort, proc: ShellProcess): string {
  return app.isPackaged ? proc.resourcesPath : path.join(app.getAppPath(), 'resources');
}

/** Events that change nothing the tray shows (and can arrive many times a second). */
const TRAY_QUIET_EVENTS: ReadonlySet<string> = new Set(['relay.output', 'metrics.usage', 'tick.stage', 'patch.parsed', 'patch.command']);

/** Opens the store exclusively; a failure that needs the user is shown in a dialog and ends the app (null). */
function openStore(electron: Pick<ElectronPorts, 'app' | 'dialog'>, proc: ShellProcess, log: ReturnType<typeof createLogger>): Store | null {
  const { app } = electron;
  try {
    // Exclusive: `relay ui` uses this data folder too, and one runtime per database is the rule (store/owner.ts).
    // A damaged database is moved aside and rebuilt from the projects' files rather than stopping the app.
    const file = path.join(app.getPath('userData'), DATABASE_FILE);
    const opened = openStoreHealing({ file, nativeBinding: resolveNativeBinding({ versions: proc.versions, appRoot: app.getAppPath() }), exclusive: true });
    if (opened.healed) log.info(describeHeal(opened.healed, file));
    return opened.store;
  } catch (error) {
    const message = error instanceof StoreError ? `${error.code}: ${error.message}` : String(error);
    log.error('cannot open the database', error);
    // A damaged file was already rebuilt above; what is left needs the user (another owner, a
    // folder that cannot be written, a newer build), and its message says what to do. Only a
    // migration that differs from this build's is fixed by rebuilding.
    const advice = error instanceof StoreError && error.code === 'STORE_MIGRATION_MISMATCH' ? '\n\nRun `relay ui --rebuild-db` to rebuild it from your projects, then start Relay Desk again.' : '';
    electron.dialog.showErrorBox('Relay Desk cannot open its database', `${message}${advice}`);
    app.exit(1);
    return null;
  }
}

/** Starts everything once Electron is ready; null when the app could not start (and is exiting). */
export async function startApp(electron: ElectronPorts, proc: ShellProcess, options: ShellOptions): Promise<RunningApp | null> {
  const { app } = electron;
  // Windows shows toasts only for an app with an AppUserModelID; the installer registers this one.
  if (proc.platform === 'win32') app.setAppUserModelId(APP_ID);
  const log = createLogger(path.join(app.getPath('userData'), 'logs'), proc.env);
  const opened = openStore(electron, proc, log);
  if (!opened) return null;
  const store: Store = opened;

  let settings = readAppSettings(store);
  const loginPath = await loginShellPath(proc.env.SHELL, proc.platform);
  const agents = agentEnvironment({ baseEnv: proc.env, loginPath, settings, platform: proc.platform });
  for (const [name, found] of Object.entries(agents.agents)) log.info(`${name}: ${found.path ?? `not found (${found.tried.join(', ')})`}`);

  const tracker = new TrayTracker();
  let quitting = false;
  let watcher: ClipboardWatcher | null = null;
  const renderer = rendererLocation(proc.env, app.isPackaged);

  const host: Host = createHost({
    store,
    engines: realEngines({ env: agents.env, ...(agents.claudeCommand ? { claudeCommand: agents.claudeCommand } : {}) }),
    onRecordError: (error) => log.error('recording a run failed', error),
    // "Start in a terminal" finds terminals and agents on the widened PATH; the packaged app runs
    // relay as itself with --relay-cli (its RunAsNode fuse is off), a development build as Node.
    terminal: { env: agents.env, relay: currentRelayInvocation({ execPath: proc.execPath, versions: proc.versions, packaged: app.isPackaged }), platform: proc.platform },
    onAppSettingsChanged: (next) => applySettings(next),
    // The window is created after the host: the picker asks for it when it opens.
    folderPicker: electronFolderPicker(electron.dialog, () => window.current()),
  });
  bindHostToIpc(electron.ipcMain, host, renderer.origin);

  // No page of ours needs the camera, the microphone or the rest: everything is denied unless listed.
  denyPermissionsByDefault(electron.session.defaultSession, renderer.origin);
  const rendererDir = path.join(app.getAppPath(), 'out', 'renderer');
  // Every response carries the CSP; a URL that cannot be decoded is a 400, never an exception.
  electron.protocol.handle(APP_SCHEME, (request) => serveRendererAsset(request.url, rendererDir, readFile));

  const window = keepMainWindow(electron, {
    host,
    renderer,
    preloadDir: options.preloadDir,
    icon: path.join(resourcesDir(app, proc), RESOURCE_FILES.appIcon),
    onShown: () => {
      tracker.markSeen();
      refreshTray();
    },
  });

  const projectName = (projectId: string): string => store.projects.get(projectId)?.name ?? projectId;
  const projectsForTray = () => store.projects.list().map((p) => ({ id: p.projectId, name: p.name, watching: p.settings.watching }));
  const tray = new AppTray(electron, path.join(resourcesDir(app, proc), RESOURCE_FILES.trayIcons), (action) => void act(action));
  // The latest runs from the store: they include runs of earlier sessions and of the CLIs.
  const recentRunsForTray = () => {
    const listed = store.runs.list({ limit: TRAY_RUNS });
    return 'error' in listed ? [] : listed.runs.map((run) => ({ id: run.id, label: trayRunLabel(run, projectName(run.projectId)) }));
  };
  function refreshTray(): void {
    tray.show(buildTrayModel(tracker.input({ watching: settings.watchClipboard, projects: projectsForTray(), recentRuns: recentRunsForTray() })));
  }

  const notifier = createNotifier(electron.Notification, proc.platform);
  const notify = (model: NotificationModel): void => {
    if (!settings.notifications) return;
    notifier.show(model, {
      // A refused answer opens on its run, whose page offers the reply (Linux has no notification buttons).
      open: (shown) => {
        const run = shown.taskId ? store.runs.byTask(shown.taskId) : null;
        window.show(run ? runPageUrl(renderer, run.id) : undefined);
      },
      approve: (approvalId) => void host.call('approve', { approvalId }),
      reject: (approvalId) => void host.call('reject', { approvalId }),
      copyReply: (reply) => electron.clipboard.writeText(reply),
      chooseProject: (choiceId, projectId) => void host.call('chooseProject', { choiceId, projectId }),
    });
  };

  host.subscribe((envelope) => {
    const model = notificationFor(envelope, projectName);
    tracker.observe(envelope, model);
    const event = envelope.event;
    if (event.type === 'task.approval-resolved' || event.type === 'approval.resolved') notifier.dismissApproval(event.approvalId);
    if (event.type === 'patch.choice-resolved') notifier.dismissChoice(event.choiceId);
    if (model) notify(model);
    // Streamed output and stage chatter change nothing the tray shows; skip rebuilding its menu.
    if (!TRAY_QUIET_EVENTS.has(event.type)) refreshTray();
  });
  const state = host.runtime.state();
  tracker.resetApprovals([
    ...state.projects.flatMap((p) => p.approvals.map((a) => ({ approvalId: a.approvalId, projectId: p.projectId }))),
    ...state.prompts.map((p) => ({ approvalId: p.approvalId, projectId: p.projectId })),
  ]);

  // The clipboard watcher routes a copied answer to its project (main/router.ts) and hands it to the host.
  const startWatcher = (): void => {
    void watcher?.stop();
    watcher = null;
    if (!settings.watchClipboard) return;
    watcher = startClipboardRouter({
      source: { read: () => electron.clipboard.readText() },
      intervalMs: settings.clipboardPollIntervalMs,
      apply: (text) => host.call('applyPatch', { text, source: 'clipboard' }),
      onError: (error) => log.error('clipboard', error),
    });
  };

  function applyAutoStart(enabled: boolean): void {
    try {
      setAutoStart(app, proc, enabled);
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
        window.show();
        return;
      case 'open-run':
        window.show(runPageUrl(renderer, action.runId));
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
      default:
        assertNever(action);
    }
  }

  app.on('second-instance', () => window.show());
  app.on('activate', () => window.show());
  // The tray keeps the app alive with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    window.letClose();
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
  if (!openedAtLogin(app, proc)) window.show();
  return { host };
}
