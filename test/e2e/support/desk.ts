// The real thing behind the browser: a store file in a temp folder, the host with the real
// engines, and `relay ui`'s server serving the built renderer. No mocked host.
import path from 'node:path';
import { startUiServer, type UiServer } from '../../../src/cli/ui-server.js';
import { openStore, type Store } from '../../../src/engine/store/index.js';
import { realEngines } from '../../../src/host/engines.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { tempDir } from '../../helpers/temp.js';
import { RENDERER_DIR } from './browser.js';

export interface Desk {
  readonly store: Store;
  readonly host: Host;
  readonly server: UiServer;
  close(): Promise<void>;
}

/** Starts a host over a fresh store and serves the built window; `env` is what agents, ticks and "Start in a terminal" run with. */
export async function startDesk(options: { readonly env?: Record<string, string> } = {}): Promise<Desk> {
  const store = openStore({ file: path.join(tempDir('relay-desk-data-'), 'relay-desk.db') });
  const env = options.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  const host = createHost({ store, engines: realEngines({ env }), terminal: { env, platform: 'linux' } });
  const server = await startUiServer({ host, rendererDir: RENDERER_DIR });
  return {
    store,
    host,
    server,
    close: async () => {
      await server.close();
      await host.close();
      store.close();
    },
  };
}
