// Electron's entry point: one instance, the app:// scheme, then the composition root.
import { app } from 'electron';
import { registerAppScheme, startApp } from './app-shell.js';

// A test (or a second profile) can point the app at its own data folder.
if (process.env.RELAY_DESK_USER_DATA) app.setPath('userData', process.env.RELAY_DESK_USER_DATA);
registerAppScheme();
if (!app.requestSingleInstanceLock()) {
  // Another Relay Desk is running; it shows its window (second-instance) and this one leaves.
  app.quit();
} else {
  void app.whenReady().then(startApp);
}
