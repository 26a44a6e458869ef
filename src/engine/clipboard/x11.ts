// X11: the XFixes extension tells us when the CLIPBOARD selection gets a new owner (someone
// copied), so the clipboard is read only after a copy, not on a timer. Pure JavaScript (the
// `x11` package speaks the protocol on the display's socket): no helper process while idle.
import type { ClipboardListener, ClipboardSource } from '../patch/watcher.js';
import { fail, ok, type Result } from '../result.js';

/** How long connecting to the X server and subscribing may take before we give up. */
const CONNECT_TIMEOUT_MS = 5_000;

/** Opens an X11 clipboard source on `display`; `read` fetches the text when a change was seen. */
export async function openX11Source(display: string, read: () => Promise<string>): Promise<Result<ClipboardSource, 'X11_UNAVAILABLE'>> {
  const loaded = await import('x11');
  // A CommonJS package: its exports are the default export when bundled, named ones under Node.
  const x11 = (loaded as unknown as { default?: typeof loaded }).default ?? loaded;
  type Client = ReturnType<typeof x11.createClient>;
  const connected = await new Promise<{ client: Client; listen: (listener: ClipboardListener) => void } | Error>((resolve) => {
    let client: Client | null = null;
    let settled = false;
    const done = (value: { client: Client; listen: (listener: ClipboardListener) => void } | Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A connection that will not be used must not keep the process alive.
      if (value instanceof Error) {
        try {
          client?.terminate();
        } catch {
          // never connected: nothing to close
        }
      }
      resolve(value);
    };
    const timer = setTimeout(() => done(new Error(`no answer from the X server within ${CONNECT_TIMEOUT_MS / 1000} s`)), CONNECT_TIMEOUT_MS);
    let listener: ClipboardListener | null = null;
    let failure: Error | null = null;
    // Errors before the handshake finished reach this callback; later ones the 'error' listener.
    client = x11.createClient({ display }, (error, xDisplay) => {
      if (error) return done(error);
      const X = xDisplay.client;
      X.on('event', (event) => {
        if (event.name === 'SelectionNotify') listener?.onChange();
      });
      const lost = (error?: Error): void => {
        failure ??= new Error(`the connection to the X server on ${display} was lost${error ? `: ${error.message}` : ''}`);
        listener?.onFailure(failure);
      };
      X.on('error', lost);
      X.on('end', lost);
      X.require('fixes', (error, fixes) => {
        if (error) return done(new Error(`the X server has no XFixes extension (${error.message})`));
        // XFixes requests are only valid after the client has said which version it speaks.
        fixes.QueryVersion(5, 0, (error) => {
          if (error) return done(error);
          X.InternAtom(false, 'CLIPBOARD', (error, clipboardAtom) => {
            if (error) return done(error);
            // An unmapped 1x1 window of our own receives the selection events.
            const window = X.AllocID();
            X.CreateWindow(window, xDisplay.screen[0]!.root, 0, 0, 1, 1, 0, 0, 0, 0, {});
            const mask = fixes.SelectionEventMask;
            fixes.SelectSelectionInput(window, clipboardAtom, mask.SetSelectionOwner | mask.SelectionWindowDestroy | mask.SelectionClientClose);
            done({
              client: X,
              listen: (next) => {
                listener = next;
                if (failure) next.onFailure(failure);
              },
            });
          });
        });
      });
    });
  });
  if (connected instanceof Error) return fail('X11_UNAVAILABLE', `Cannot watch the clipboard on X display ${display}: ${connected.message}`);
  let closed = false;
  return ok({
    read,
    subscribe(listener) {
      connected.listen({ onChange: () => listener.onChange(), onFailure: (error) => !closed && listener.onFailure(error) });
      return {
        close() {
          closed = true;
          connected.client.terminate();
        },
      };
    },
  });
}
