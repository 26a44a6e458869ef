// Electron's entry point: one instance, the app:// scheme, then the composition root.
import { app } from 'electron';
import { defaultDataDir } from '../engine/store/paths.js';
import { registerAppScheme, startApp } from './app-shell.js';

// The data folder comes from the one resolver `relay ui` uses too (RELAY_DESK_DATA_DIR, the XDG
// rules, the platform's folder), so the app and the CLI never disagree about where it is.
app.setPath('userData', defaultDataDir(process.env));
registerAppScheme();
if (!app.requestSingleInstanceLock()) {
  // Another Relay Desk is running; it shows its window (second-instance) and this one leaves.
  app.quit();
} else {
  void app.whenReady().then(startApp);
}
