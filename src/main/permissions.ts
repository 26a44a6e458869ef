// Web permissions for the app's windows: everything is denied unless listed here. Electron's
// default grants every permission a page asks for (camera, microphone, geolocation,
// notifications, …), so a page that ever got in — through a bug, a link — would get them all.
// Written against the two Session methods it uses, so a plain Node test can drive it.

/** The few permissions the window uses, and only for its own origin: copying text (a Copy button). */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write']);

/** The parts of Electron's Session the handlers are set on. */
export interface PermissionSession {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void, details: { readonly requestingUrl?: string }) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string, requestingOrigin: string, details: { readonly requestingUrl?: string }) => boolean): void;
}

/** True when `url` (or origin) is the app's own origin. */
function fromApp(url: string | undefined, appOrigin: string): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    const home = new URL(appOrigin);
    // Compared by scheme and host: custom schemes have the opaque origin "null" in Node.
    return parsed.protocol === home.protocol && parsed.host !== '' && parsed.host === home.host;
  } catch {
    return false;
  }
}

/** Whether `permission` is granted to a page at `url`. */
export function permissionGranted(permission: string, url: string | undefined, appOrigin: string): boolean {
  return ALLOWED_PERMISSIONS.has(permission) && fromApp(url, appOrigin);
}

/** Installs a request handler and a check handler that deny by default. */
export function denyPermissionsByDefault(session: PermissionSession, appOrigin: string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => callback(permissionGranted(permission, details.requestingUrl, appOrigin)));
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin, details) => permissionGranted(permission, details.requestingUrl ?? requestingOrigin, appOrigin));
}
