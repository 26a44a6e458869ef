// The one main window: created on first show, hidden (not closed) by its close button so Relay
// Desk keeps running in the tray, fed every runtime event while it exists.
import { forwardEvents, type Host } from '../host/index.js';
import type { ElectronPorts, WindowPort } from './ports.js';
import { createMainWindow, type RendererLocation } from './window.js';

/** Shows the app's window and knows whether it may really close. */
export interface WindowKeeper {
  /** Shows the window (creating it if needed), on `page` when given (e.g. one run's detail). */
  show(page?: string): void;
  /** Quitting: from now on a close closes instead of hiding. */
  letClose(): void;
  /** The window while it exists (a dialog is attached to it), else null. */
  current(): WindowPort | null;
}

/** Keeps the main window of `host`; `onShown` runs each time it is shown (the tray marks things seen). */
export function keepMainWindow(
  electron: Pick<ElectronPorts, 'BrowserWindow' | 'shell'>,
  options: { readonly host: Host; readonly renderer: RendererLocation; readonly preloadDir: string; readonly icon: string; readonly onShown: () => void },
): WindowKeeper {
  let window: WindowPort | null = null;
  let closing = false;

  const create = (page: string | undefined): WindowPort => {
    const created = createMainWindow(electron, { renderer: options.renderer, preloadDir: options.preloadDir, icon: options.icon, ...(page ? { url: page } : {}) });
    const stopForwarding = forwardEvents(options.host, (channel, envelope) => created.webContents.send(channel, envelope));
    // Closing the window hides it: Relay Desk keeps running in the tray.
    created.on('close', (event) => {
      if (closing) return;
      event.preventDefault();
      created.hide();
    });
    created.on('closed', () => {
      stopForwarding();
      if (window === created) window = null;
    });
    return created;
  };

  return {
    show(page) {
      if (!window || window.isDestroyed()) window = create(page);
      else if (page) void window.webContents.loadURL(page);
      window.show();
      window.focus();
      options.onShown();
    },
    letClose() {
      closing = true;
    },
    current() {
      return window && !window.isDestroyed() ? window : null;
    },
  };
}
