// The Electron composition root (tray, windows, clipboard poller, ipcMain binding of src/host)
// is built by the desktop-shell issue. Until then Relay Desk runs as the `relay` CLI.
export {};
